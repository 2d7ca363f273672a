import { freeLoopbackPort } from '../ports.js';
import { probeStatus } from '../http.js';
import { ManagedProcess, type Ownership } from '../process.js';
import { waitFor } from '../wait.js';
import { NODE_NAME } from './kubelet.js';
import { NODE_NETWORK } from './node-network.js';

/**
 * Starts kube-proxy in iptables mode, so a Service's ClusterIP and NodePort answer from the host and from pods, and
 * waits for its first sync. It masquerades all Service traffic: a pod reaching a Service backed by a pod on the same
 * bridge would otherwise get the answer straight from that pod's address and drop it. Conntrack limits and timeouts
 * are left as the host has them (a sandbox may not let us change them); NodePorts listen on the node IP only.
 */
export async function startKubeProxy(binary: string, kubeconfig: string, logFile: string, ownership: Ownership): Promise<ManagedProcess> {
  const healthz = `127.0.0.1:${String(await freeLoopbackPort())}`;
  const metrics = `127.0.0.1:${String(await freeLoopbackPort())}`;
  const proxy = ManagedProcess.start(
    {
      component: 'kube-proxy',
      command: binary,
      args: [
        `--kubeconfig=${kubeconfig}`,
        `--hostname-override=${NODE_NAME}`,
        '--proxy-mode=iptables',
        `--cluster-cidr=${NODE_NETWORK.podSubnet}`,
        '--masquerade-all',
        `--nodeport-addresses=${NODE_NETWORK.nodeIp}/32`,
        '--conntrack-max-per-core=0',
        '--conntrack-tcp-timeout-established=0s',
        '--conntrack-tcp-timeout-close-wait=0s',
        `--healthz-bind-address=${healthz}`,
        `--metrics-bind-address=${metrics}`,
        '--v=1',
      ],
      logFile,
    },
    ownership,
  );
  // /healthz answers 200 once the rules have been written.
  await waitFor(() => probeStatus(`http://${healthz}/healthz`, 200), {
    what: 'kube-proxy to sync its rules',
    timeoutMs: 60_000,
    intervalMs: 500,
    abortIf: () => { proxy.assertRunning(); },
  });
  return proxy;
}
