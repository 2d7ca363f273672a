// The tier's cluster DNS as a process of its own, so it lives as long as the tier's other components:
// `cluster-dns-main --kubeconfig <file> --address <ip> --port <n> --cluster-domain <domain>`.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { serveClusterDns, upstreamOf } from './cluster-dns.js';

const { values } = parseArgs({
  options: { kubeconfig: { type: 'string' }, address: { type: 'string' }, port: { type: 'string' }, 'cluster-domain': { type: 'string' } },
});
const { kubeconfig, address, port, 'cluster-domain': clusterDomain } = values;
if (kubeconfig === undefined || address === undefined || port === undefined || clusterDomain === undefined) {
  console.error('usage: cluster-dns-main --kubeconfig <file> --address <ip> --port <n> --cluster-domain <domain>');
  process.exit(2);
}
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfig);
const core = kubeConfig.makeApiClient(CoreV1Api);

await serveClusterDns({
  address,
  port: Number(port),
  clusterDomain,
  serviceAddress: async (namespace, name) => {
    try {
      const clusterIp = (await core.readNamespacedService({ name, namespace })).spec?.clusterIP;
      return clusterIp === undefined || clusterIp === 'None' ? undefined : clusterIp;
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw error;
    }
  },
  upstream: upstreamOf(readFileSync('/etc/resolv.conf', 'utf8')),
  log: (line) => { console.log(line); },
});
console.log(`cluster DNS for ${clusterDomain} on ${address}:${port}`);
