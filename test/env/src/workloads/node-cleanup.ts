import { removeCgroups } from './cgroups.js';
import { processesMentioning, sleepSync } from './host.js';
import { removeKubeRules } from './iptables.js';
import { tierLayout } from './layout.js';
import { unmountUnder } from './mounts.js';
import { removeNodeNetwork } from './node-network.js';
import { removeRuntimeFiles } from './runtime-files.js';

/** SIGKILLs what still names the folder once the components have stopped: containerd's shims, which run apart. */
function killProcessesMentioning(dir: string): void {
  const deadline = Date.now() + 10_000;
  for (let pids = processesMentioning(dir); pids.length > 0; pids = processesMentioning(dir)) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.join(' ')} did not die`);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    sleepSync(100);
  }
}

/**
 * Removes what a workload tier leaves on the host once its components have stopped (or died): processes, the pods'
 * containers and cgroups, shim sockets and container log links, mounts below the folder, kube-proxy's iptables rules, the bridge and the pods' veths, and
 * forwarding as it was. Synchronous, so exit handlers can run it; every step runs even if another fails, and the
 * problems are returned (none when the host is clean).
 */
export function cleanUpNode(dir: string, previousIpForwarding: string): string[] {
  const problems: string[] = [];
  const attempt = (what: string, work: () => void): void => {
    try {
      work();
    } catch (error) {
      problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  attempt('processes', () => { killProcessesMentioning(dir); });
  attempt('cgroups', removeCgroups);
  const { containerdState, containerdAddress } = tierLayout(dir);
  attempt('runtime files', () => { removeRuntimeFiles(dir, containerdState, containerdAddress); });
  attempt('mounts', () => { unmountUnder(dir); });
  attempt('iptables', removeKubeRules);
  attempt('node network', () => { removeNodeNetwork(previousIpForwarding); });
  return problems;
}
