import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../command.js';
import { ManagedProcess, type Ownership } from '../process.js';
import { waitFor } from '../wait.js';
import { tierLayout } from './layout.js';
import { NODE_NETWORK } from './node-network.js';

export interface StartedContainerd {
  /** The gRPC socket kubelet (CRI) and ctr talk to. */
  readonly address: string;
  readonly process: ManagedProcess;
}

/** The containerd namespace the CRI plugin (and so kubelet) uses: images must be imported there. */
export const CRI_NAMESPACE = 'k8s.io';

/**
 * containerd's configuration: all of its state in the folder (its root, its state with the containers' mounts, and
 * with netns_mounts_under_state_dir the pods' network namespaces), so the clean-up finds everything below it.
 * restrict_oom_score_adj because this host lacks CAP_SYS_RESOURCE: without it no sandbox starts ("can't get final
 * child's PID from pipe"). Snapshotters that need kernel features or tools we lack are disabled.
 */
function containerdConfig(dir: string, address: string, state: string, pauseImage: string): string {
  return `version = 2
root = "${join(dir, 'root')}"
state = "${state}"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs"]

[grpc]
  address = "${address}"

[ttrpc]
  address = "${address}.ttrpc"

[plugins."io.containerd.internal.v1.opt"]
  path = "${join(dir, 'opt')}"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${pauseImage}"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${join(dir, 'cni')}"
`;
}

/**
 * The pods' network: the CNI bridge plugin attaches each pod to the node's bridge and host-local hands out addresses
 * of the pod subnet, recording them in the folder; the bridge's address is the pods' default gateway. No masquerade:
 * pods only talk to the node and to each other.
 */
function cniConfig(ipamDir: string): string {
  const { bridge, nodeIp, podSubnet } = NODE_NETWORK;
  return JSON.stringify({
    cniVersion: '0.4.0',
    name: 'keyward',
    plugins: [
      {
        type: 'bridge',
        bridge,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: podSubnet, gateway: nodeIp }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: ipamDir },
      },
    ],
  });
}

/** Starts containerd with the CRI plugin, its data in the environment's tier layout, and waits until it answers. */
export async function startContainerd(envDir: string, pauseImage: string, ownership: Ownership): Promise<StartedContainerd> {
  const { data: dir, containerdAddress: address, containerdState } = tierLayout(envDir);
  const logFile = join(envDir, 'containerd.log');
  mkdirSync(join(dir, 'cni'), { recursive: true });
  const config = join(dir, 'containerd.toml');
  writeFileSync(config, containerdConfig(dir, address, containerdState, pauseImage));
  writeFileSync(join(dir, 'cni', '10-keyward.conflist'), cniConfig(join(dir, 'cni-ipam')));
  const containerd = ManagedProcess.start({ component: 'containerd', command: '/usr/bin/containerd', args: ['--config', config], logFile }, ownership);
  await waitFor(
    async () => (existsSync(address) ? (await runCommand('containerd', 'ctr', ['--address', address, 'version'], { logFile, timeoutMs: 10_000 })) : undefined),
    { what: 'containerd to answer', timeoutMs: 60_000, intervalMs: 250, abortIf: () => { containerd.assertRunning(); } },
  );
  return { address, process: containerd };
}
