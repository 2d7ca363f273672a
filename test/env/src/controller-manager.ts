import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManagedProcess, type Ownership } from './process.js';

/**
 * Starts kube-controller-manager with only the garbage collector and namespace controllers, which give
 * owner-reference cleanup and namespace deletion. It serves no port. GC re-reads discovery every 30 s,
 * so it should start after the CRDs are installed.
 */
export async function startControllerManager(binary: string, kubeconfig: string, dir: string, ownership: Ownership): Promise<ManagedProcess> {
  const manager = ManagedProcess.start(
    {
      component: 'kube-controller-manager',
      command: binary,
      args: [
        `--kubeconfig=${kubeconfig}`,
        '--controllers=garbage-collector-controller,namespace-controller',
        '--leader-elect=false',
        '--secure-port=0',
        '--use-service-account-credentials=false',
        '--v=1',
      ],
      logFile: join(dir, 'kube-controller-manager.log'),
    },
    ownership,
  );
  // No endpoint to probe: a bad flag or kubeconfig makes it exit within a second or two.
  await sleep(2_000);
  manager.assertRunning();
  return manager;
}
