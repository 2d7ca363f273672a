import { join } from 'node:path';
import { ensureNodeBinaries } from '../binaries.js';
import type { ClusterAccess } from '../kubeconfig.js';
import type { Ownership } from '../process.js';
import { step } from '../step.js';
import { waitFor } from '../wait.js';
import { ensureSystemPackages } from '../system-packages.js';
import { createCgroupRoot } from './cgroups.js';
import { startClusterDns } from './cluster-dns-process.js';
import { startContainerd } from './containerd.js';
import { ensureImages, importImages } from './images.js';
import { startKubeProxy } from './kube-proxy.js';
import { NODE_NAME, startKubelet } from './kubelet.js';
import { tierLayout } from './layout.js';
import { acquireTierLock, releaseTierLock, tierLockOf } from './lock.js';
import { cleanUpNode } from './node-cleanup.js';
import { createNodeNetwork, ipForwarding, NODE_NETWORK } from './node-network.js';
import { startScheduler } from './scheduler.js';

/** How tests reach the tier: where pods find host services, and the images pods can run (imagePullPolicy Never). */
export interface WorkloadsInfo {
  readonly nodeName: string;
  /** The node's IP on the bridge: where host services that pods use listen (MariaDB). */
  readonly nodeIp: string;
  readonly podSubnet: string;
  readonly images: { readonly pause: string; readonly keystone: string };
  /** containerd's socket, where a test imports an image of its own (`ctr --namespace k8s.io images import`). */
  readonly containerdAddress: string;
}

/** How long a start waits by default while another environment runs the machine's tier. */
export const DEFAULT_TIER_WAIT_MS = 10 * 60_000;

/**
 * Before any component starts (MariaDB listens on the node IP): takes the machine's tier lock, waiting up to `waitMs`
 * while another environment's tier runs and cleaning up after one whose processes died, then creates the cgroup root
 * and the node network. From here on, cleanUpWorkloadTier(dir) removes them on every exit path.
 */
export async function prepareNode(dir: string, log: (line: string) => void, waitMs: number): Promise<void> {
  let waiting = false;
  await waitFor(
    () => {
      try {
        acquireTierLock({ dir, pid: process.pid, ipForwarding: ipForwarding() }, (stale) => {
          log(`cleaning up after the workload tier of ${stale.dir}, whose processes died (its folder is kept, with their logs)`);
          for (const problem of cleanUpNode(stale.dir, stale.ipForwarding)) log(`clean-up: ${problem}`);
        });
      } catch (error) {
        if (!waiting && waitMs > 0) log(`waiting up to ${String(waitMs / 1000)}s: ${error instanceof Error ? error.message : String(error)}`);
        waiting = true;
        throw error;
      }
      return Promise.resolve(true);
    },
    { what: "the machine's workload tier", timeoutMs: waitMs, intervalMs: 2_000 },
  );
  createCgroupRoot();
  createNodeNetwork();
}

export interface TierStart {
  readonly dir: string;
  readonly ownership: Ownership;
  readonly log: (line: string) => void;
  /** The control plane, once it is up: kubelet, kube-scheduler and kube-proxy need it, containerd does not. */
  readonly controlPlane: Promise<{ readonly kubeconfig: string; readonly access: ClusterAccess }>;
  /** Whether Keystone's image is unpacked now, or by its first container. */
  readonly unpackImages: boolean;
}

/**
 * Starts the node: containerd with the tier's images, and once the control plane is up, kubelet (until its node is
 * Ready), kube-scheduler, kube-proxy and the cluster DNS. They use the admin kubeconfig, as kube-controller-manager
 * does. Builds whatever the caches lack first (packages, node binaries, images).
 */
export async function startWorkloadTier({ dir, ownership, log, controlPlane, unpackImages }: TierStart): Promise<WorkloadsInfo> {
  await ensureSystemPackages(log, 'workloads');
  const [binaries, images] = await Promise.all([ensureNodeBinaries(log), ensureImages(log)]);
  const containerd = await step(log, 'containerd', () => startContainerd(dir, images.pause.reference, ownership));
  await step(log, 'images', () => importImages(containerd.address, images, join(dir, 'containerd.log'), unpackImages));
  const { kubeconfig, access } = await controlPlane;
  await step(log, 'kubelet', () =>
    startKubelet(binaries.kubelet, access, {
      dir: tierLayout(dir).data,
      podLogsDir: tierLayout(dir).podLogs,
      logFile: join(dir, 'kubelet.log'),
      kubeconfig,
      containerdAddress: containerd.address,
      ownership,
    }),
  );
  await Promise.all([
    step(log, 'kube-scheduler', () => startScheduler(binaries.kubeScheduler, kubeconfig, join(dir, 'kube-scheduler.log'), ownership)),
    step(log, 'kube-proxy', () => startKubeProxy(binaries.kubeProxy, kubeconfig, join(dir, 'kube-proxy.log'), ownership)),
    step(log, 'cluster DNS', () => startClusterDns(kubeconfig, join(dir, 'cluster-dns.log'), ownership)),
  ]);
  return {
    nodeName: NODE_NAME,
    nodeIp: NODE_NETWORK.nodeIp,
    podSubnet: NODE_NETWORK.podSubnet,
    images: { pause: images.pause.reference, keystone: images.keystone.reference },
    containerdAddress: containerd.address,
  };
}

/**
 * Once the tier's processes have stopped (or died): removes what it left on the host and releases the machine's tier
 * lock; logs what it could not remove (the lock is then kept, so the next tier tries again). Synchronous, for exit
 * handlers; a no-op for an environment without the tier.
 */
export function cleanUpWorkloadTier(dir: string, log: (line: string) => void): void {
  const lock = tierLockOf(dir);
  if (lock === undefined) return;
  const problems = cleanUpNode(dir, lock.ipForwarding);
  for (const problem of problems) log(`workload tier clean-up: ${problem}`);
  if (problems.length === 0) releaseTierLock(dir);
}
