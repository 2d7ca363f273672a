import { setTimeout as sleep } from 'node:timers/promises';
import { ManagedProcess, type Ownership } from '../process.js';

/** Starts kube-scheduler, which places pods on the one node. It serves no port. */
export async function startScheduler(binary: string, kubeconfig: string, logFile: string, ownership: Ownership): Promise<ManagedProcess> {
  const scheduler = ManagedProcess.start(
    {
      component: 'kube-scheduler',
      command: binary,
      args: [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--secure-port=0', '--v=1'],
      logFile,
    },
    ownership,
  );
  // No endpoint to probe: a bad flag or kubeconfig makes it exit within a second or two.
  await sleep(2_000);
  scheduler.assertRunning();
  return scheduler;
}
