import { Resolver } from 'node:dns/promises';
import { fileURLToPath } from 'node:url';
import { ManagedProcess, type Ownership } from '../process.js';
import { waitFor } from '../wait.js';
import { NODE_NETWORK } from './node-network.js';
import { clusterDnsProgram } from './cluster-dns-program.js';

/** The cluster domain pods' names end in, as kubelet tells their resolvers. */
export const CLUSTER_DOMAIN = 'cluster.local';

/**
 * Starts the tier's cluster DNS on the node IP, port 53, where kubelet points every pod's resolver, and waits until
 * it answers for the API server's own Service. It runs as one bundled module (see clusterDnsProgram).
 */
export async function startClusterDns(kubeconfig: string, logFile: string, ownership: Ownership): Promise<ManagedProcess> {
  const program = await clusterDnsProgram();
  const dns = ManagedProcess.start(
    {
      component: 'cluster-dns',
      command: process.execPath,
      args: [program, '--kubeconfig', kubeconfig, '--address', NODE_NETWORK.nodeIp, '--port', '53', '--cluster-domain', CLUSTER_DOMAIN],
      logFile,
      cwd: fileURLToPath(new URL('.', import.meta.url)),
    },
    ownership,
  );
  const resolver = new Resolver({ timeout: 1_000, tries: 1 });
  resolver.setServers([NODE_NETWORK.nodeIp]);
  await waitFor(async () => ((await resolver.resolve4(`kubernetes.default.svc.${CLUSTER_DOMAIN}`)).length > 0 ? true : undefined), {
    what: 'the cluster DNS to answer',
    timeoutMs: 60_000,
    intervalMs: 500,
    abortIf: () => { dns.assertRunning(); },
  });
  return dns;
}
