import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAlive } from '../process.js';
import { commandLine, processesMentioning } from './host.js';

/**
 * One machine runs one workload tier at a time: its bridge, node IP and pod subnet, its cgroup root and kube-proxy's
 * chains are machine-wide, and a second kube-proxy would rewrite the first one's rules. The lock names the folder of
 * the environment that holds it, so a tier whose owner died without cleaning up (SIGKILL) can be cleaned up by the
 * next one.
 */
export interface TierLock {
  /** The environment folder: every process of the tier names it on its command line. */
  readonly dir: string;
  /** The process that started the tier (for a daemon environment, gone once it is up). */
  readonly pid: number;
  /** /proc/sys/net/ipv4/ip_forward before the tier turned it on. */
  readonly ipForwarding: string;
}

export const LOCK_FILE = '/run/keyward-workloads.json';

function readLock(): TierLock | undefined {
  try {
    return JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as TierLock;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder's tier still runs: its starter lives, or a process other than a containerd shim names its
 * folder. Shims outlive a containerd that was killed; alone, they are leftovers for the clean-up.
 */
function held(lock: TierLock): boolean {
  return isAlive(lock.pid) || processesMentioning(lock.dir).some((pid) => !isShim(pid));
}

function isShim(pid: number): boolean {
  const program = commandLine(pid)?.split(' ')[0] ?? '';
  return program.slice(program.lastIndexOf('/') + 1).startsWith('containerd-shim');
}

/**
 * Takes the lock for the tier of the environment in `dir`. When a live tier holds it, throws; when a dead one does,
 * `cleanUpStale` runs for it first (with its lock, for what to restore).
 */
export function acquireTierLock(lock: TierLock, cleanUpStale: (stale: TierLock) => void): void {
  const current = readLock();
  if (current !== undefined && current.dir !== lock.dir) {
    if (held(current)) {
      throw new Error(`the environment in ${current.dir} runs the workload tier; a machine runs one at a time (its network, cgroups and kube-proxy rules are machine-wide)`);
    }
    cleanUpStale(current);
  }
  // A stale holder's ip_forward is the one that was there before any tier.
  writeFileSync(LOCK_FILE, JSON.stringify({ ...lock, ipForwarding: current?.ipForwarding ?? lock.ipForwarding }));
}

/** The lock this folder holds, if it does. */
export function tierLockOf(dir: string): TierLock | undefined {
  const current = readLock();
  return current?.dir === dir ? current : undefined;
}

export function releaseTierLock(dir: string): void {
  if (tierLockOf(dir) !== undefined) rmSync(LOCK_FILE, { force: true });
}
