import { readFileSync, writeFileSync } from 'node:fs';
import { host } from './host.js';

/**
 * The node's network: one bridge whose address is the node IP (a node IP cannot be loopback), the pods' gateway
 * (the CNI bridge plugin attaches each pod's veth to it), and where host services that pods use listen (MariaDB).
 * The names are fixed, so a clean-up after a crash finds them: one machine runs one workload tier at a time (see
 * lock.ts).
 */
export const NODE_NETWORK = {
  bridge: 'keyward0',
  nodeIp: '10.213.0.1',
  podSubnet: '10.213.0.0/24',
  prefixLength: 24,
} as const;

const IP_FORWARD = '/proc/sys/net/ipv4/ip_forward';

/** Whether packets are forwarded between interfaces ('0' or '1'); what the clean-up restores. */
export function ipForwarding(): string {
  return readFileSync(IP_FORWARD, 'utf8').trim();
}

/**
 * Creates the bridge with the node IP and turns on forwarding, which traffic from pods to Service addresses
 * needs (kube-proxy rewrites it to another pod's address, and the host routes it back onto the bridge).
 */
export function createNodeNetwork(): void {
  const { bridge, nodeIp, prefixLength } = NODE_NETWORK;
  host('ip', ['link', 'add', 'name', bridge, 'type', 'bridge']);
  host('ip', ['addr', 'add', `${nodeIp}/${String(prefixLength)}`, 'dev', bridge]);
  host('ip', ['link', 'set', bridge, 'up']);
  writeFileSync(IP_FORWARD, '1');
}

/** Host-side veths of pods still attached to the bridge. */
function attachedLinks(bridge: string): string[] {
  return host('ip', ['-o', 'link', 'show', 'master', bridge])
    .split('\n')
    .map((line) => /^\d+: ([^:@]+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

export function nodeNetworkExists(): boolean {
  try {
    host('ip', ['link', 'show', NODE_NETWORK.bridge]);
    return true;
  } catch {
    return false;
  }
}

/** Deletes the pods' veths and the bridge, and restores forwarding as it was; a no-op once they are gone. */
export function removeNodeNetwork(previousIpForwarding: string): void {
  if (nodeNetworkExists()) {
    for (const link of attachedLinks(NODE_NETWORK.bridge)) host('ip', ['link', 'del', link]);
    host('ip', ['link', 'del', NODE_NETWORK.bridge]);
  }
  if (ipForwarding() !== previousIpForwarding) writeFileSync(IP_FORWARD, previousIpForwarding);
}
