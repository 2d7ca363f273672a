import { KubeConfig } from '@kubernetes/client-node';
import { waitFor } from '@keyward/test-env';

/** A kubeconfig for a server on loopback that no real cluster stands behind (a closed port, a fake API server). */
export function loopbackKubeConfig(port: number, protocol: 'http' | 'https' = 'https'): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    // skipTLSVerify: there is no certificate to check (and client-node allows plain HTTP only with it).
    clusters: [{ name: 'loopback', server: `${protocol}://127.0.0.1:${String(port)}`, skipTLSVerify: true }],
    users: [{ name: 'nobody', token: 'x' }],
    contexts: [{ name: 'loopback', cluster: 'loopback', user: 'nobody' }],
    currentContext: 'loopback',
  });
  return config;
}

/** Waits until `condition` holds (20 s at most), as a fake server's state changes. */
export async function until(what: string, condition: () => boolean): Promise<void> {
  await waitFor(() => Promise.resolve(condition() ? true : undefined), { what, timeoutMs: 20_000, intervalMs: 10 });
}
