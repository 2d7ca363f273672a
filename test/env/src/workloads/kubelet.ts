import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { httpCall } from '../http.js';
import type { ClusterAccess } from '../kubeconfig.js';
import { freeLoopbackPort } from '../ports.js';
import { ManagedProcess, type Ownership } from '../process.js';
import { waitFor } from '../wait.js';
import { CGROUP_ROOT } from './cgroups.js';
import { CLUSTER_DOMAIN } from './cluster-dns-process.js';
import { NODE_NETWORK } from './node-network.js';

/** The one node's name. */
export const NODE_NAME = 'keyward-node';

export interface KubeletOptions {
  /** For kubelet's root folder and configuration. */
  readonly dir: string;
  /** Where pods' logs go: outside `dir`, so the secret scan reads them. */
  readonly podLogsDir: string;
  readonly logFile: string;
  readonly kubeconfig: string;
  readonly containerdAddress: string;
  readonly ownership: Ownership;
}

/**
 * kubelet's configuration. It serves on the node IP only, and anonymously: the API server proxies `pods/log` and
 * `exec` there without a client certificate, and nothing outside this host reaches the bridge. cgroup v1 is what
 * this host has. Eviction thresholds are minimal: a test machine's disk is often fuller than kubelet's defaults
 * allow, and eviction would taint the node.
 */
function kubeletConfig(options: KubeletOptions, port: number): string {
  return stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: NODE_NETWORK.nodeIp,
    port,
    readOnlyPort: 0,
    healthzPort: 0,
    authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
    authorization: { mode: 'AlwaysAllow' },
    cgroupDriver: 'cgroupfs',
    cgroupRoot: `/${CGROUP_ROOT}`,
    failCgroupV1: false,
    failSwapOn: false,
    containerRuntimeEndpoint: `unix://${options.containerdAddress}`,
    podLogsDir: options.podLogsDir,
    resolvConf: '/etc/resolv.conf',
    // Pods resolve Service names through the tier's cluster DNS on the node IP (cluster-dns.ts).
    clusterDNS: [NODE_NETWORK.nodeIp],
    clusterDomain: CLUSTER_DOMAIN,
    evictionHard: { 'memory.available': '50Mi', 'nodefs.available': '1%', 'nodefs.inodesFree': '1%', 'imagefs.available': '1%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    // A pod sees a changed Secret or ConfigMap volume at its next sync: every 10 s here rather than every minute,
    // so a test of a key rotation waits seconds for the files, not a minute (the behaviour is the same).
    syncFrequency: '10s',
  });
}

interface NodeStatus {
  readonly spec?: { readonly taints?: readonly { readonly key: string }[] };
  readonly status?: { readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
}

/** Why the node cannot take pods yet, or undefined when it can: Ready, and the not-ready taint gone. */
export function nodeNotReadyBecause(node: NodeStatus): string | undefined {
  const ready = node.status?.conditions?.find((condition) => condition.type === 'Ready');
  if (ready?.status !== 'True') return `Ready is ${ready?.status ?? 'missing'}`;
  const taints = (node.spec?.taints ?? []).map((taint) => taint.key);
  return taints.length > 0 ? `tainted ${taints.join(', ')}` : undefined;
}

/**
 * Starts kubelet and waits until its node is Ready and untainted (the controller manager's node-lifecycle
 * controller lifts the not-ready taint), so pods created next are scheduled at once.
 */
export async function startKubelet(binary: string, access: ClusterAccess, options: KubeletOptions): Promise<ManagedProcess> {
  const rootDir = join(options.dir, 'kubelet');
  mkdirSync(rootDir, { recursive: true });
  const config = join(options.dir, 'kubelet.yaml');
  writeFileSync(config, kubeletConfig(options, await freeLoopbackPort()));
  const kubelet = ManagedProcess.start(
    {
      component: 'kubelet',
      command: binary,
      args: [
        `--config=${config}`,
        `--kubeconfig=${options.kubeconfig}`,
        `--root-dir=${rootDir}`,
        `--hostname-override=${NODE_NAME}`,
        `--node-ip=${NODE_NETWORK.nodeIp}`,
        '--v=1',
      ],
      logFile: options.logFile,
    },
    options.ownership,
  );
  let problem = 'not registered';
  await waitFor(
    async () => {
      const response = await httpCall(`${access.server}/api/v1/nodes/${NODE_NAME}`, { ca: access.caPem, headers: { authorization: `Bearer ${access.token}` } });
      problem = response.status === 200 ? (nodeNotReadyBecause(JSON.parse(response.body) as NodeStatus) ?? '') : `HTTP ${String(response.status)}`;
      if (problem !== '') throw new Error(`node ${NODE_NAME}: ${problem}`);
      return true;
    },
    { what: `node ${NODE_NAME} to be Ready`, timeoutMs: 120_000, intervalMs: 500, abortIf: () => { kubelet.assertRunning(); } },
  );
  return kubelet;
}
