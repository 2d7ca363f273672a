import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

/**
 * The tier runs no cluster DNS, so a program on the host (an operator, a test) cannot resolve the in-cluster
 * URLs that objects publish, such as a Keystone's `http://<name>.<namespace>.svc.cluster.local:5000/v3`. This
 * makes this process resolve `<service>.<namespace>.svc.<domain>` to the Service's ClusterIP, read from the API
 * server, as cluster DNS would for a pod; kube-proxy then answers on that address from the host. Every other
 * name goes to the system resolver as before. Returns the function that undoes it.
 */
export function resolveServiceNames(kubeConfig: KubeConfig, clusterDomain = 'cluster.local'): () => void {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const suffix = `.svc.${clusterDomain}`;
  const systemLookup = dns.lookup;
  type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

  function serviceLookup(hostname: string, options: LookupOptions | number | Callback, maybeCallback?: Callback): void {
    const given = typeof options === 'function' ? options : maybeCallback;
    if (given === undefined) throw new TypeError('dns.lookup needs a callback');
    const callback = given;
    const settings: LookupOptions = typeof options === 'object' ? options : {};
    const parts = hostname.toLowerCase().endsWith(suffix) ? hostname.slice(0, -suffix.length).split('.') : [];
    if (parts.length !== 2) {
      // Not a Service name: the system resolver, with the caller's arguments as given.
      (systemLookup as (...args: unknown[]) => void)(hostname, options, maybeCallback);
      return;
    }
    const [name = '', namespace = ''] = parts;
    core.readNamespacedService({ name, namespace }).then(
      (service) => {
        const address = service.spec?.clusterIP;
        if (address === undefined || address === 'None') {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}: Service ${namespace}/${name} has no ClusterIP`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (settings.all === true) callback(null, [{ address, family: 4 }]);
        else callback(null, address, 4);
      },
      () => {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}: no Service ${namespace}/${name}`);
        error.code = 'ENOTFOUND';
        callback(error, '');
      },
    );
  }

  dns.lookup = serviceLookup as typeof dns.lookup;
  return () => {
    dns.lookup = systemLookup;
  };
}
