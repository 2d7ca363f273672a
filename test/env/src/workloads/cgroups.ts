import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { sleepSync } from './host.js';

const CGROUP_MOUNT = '/sys/fs/cgroup';

/**
 * The kubelet's cgroup root: pods and their containers live below it in every hierarchy, so the clean-up finds all
 * of them, whatever state kubelet and containerd were left in. Fixed, like the node network (see lock.ts).
 */
export const CGROUP_ROOT = 'keyward-workloads';

/** The mounted cgroup hierarchies (cgroup v1 here: one per controller, plus the v2 "unified" one runc also uses). */
function hierarchies(): string[] {
  return readdirSync(CGROUP_MOUNT)
    .map((name) => join(CGROUP_MOUNT, name))
    .filter((path) => lstatSync(path).isDirectory());
}

/**
 * Creates the cgroup root in every hierarchy: kubelet refuses a root that does not exist. A new cpuset cgroup has
 * no CPUs or memory nodes until given its parent's, and nothing could run in it.
 */
export function createCgroupRoot(): void {
  for (const hierarchy of hierarchies()) {
    const root = join(hierarchy, CGROUP_ROOT);
    mkdirSync(root, { recursive: true });
    for (const file of ['cpuset.cpus', 'cpuset.mems']) {
      if (existsSync(join(hierarchy, file)) && readFileSync(join(root, file), 'utf8').trim() === '') copyFileSync(join(hierarchy, file), join(root, file));
    }
  }
}

/** Every cgroup at or below the root, children before their parents. */
function cgroupsBelowRoot(): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) if (entry.isDirectory()) visit(join(path, entry.name));
    found.push(path);
  };
  for (const hierarchy of hierarchies()) {
    const root = join(hierarchy, CGROUP_ROOT);
    if (existsSync(root)) visit(root);
  }
  return found;
}

function processesIn(cgroups: readonly string[]): number[] {
  const pids = new Set<number>();
  for (const cgroup of cgroups) {
    try {
      for (const line of readFileSync(join(cgroup, 'cgroup.procs'), 'utf8').split('\n')) if (line !== '') pids.add(Number(line));
    } catch {
      // Removed meanwhile.
    }
  }
  return [...pids];
}

/** The cgroups below the root that remain, and the processes in them; empty once the clean-up succeeded. */
export function cgroupLeftovers(): { readonly cgroups: string[]; readonly processes: number[] } {
  const cgroups = cgroupsBelowRoot();
  return { cgroups, processes: processesIn(cgroups) };
}

/**
 * Kills every process below the root (the pods' containers: kubelet and containerd leave them running when they
 * stop), waits for them to go, and removes the cgroups. Throws if any remains.
 */
export function removeCgroups(): void {
  const deadline = Date.now() + 10_000;
  for (let pids = processesIn(cgroupsBelowRoot()); pids.length > 0; pids = processesIn(cgroupsBelowRoot())) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.join(' ')} in ${CGROUP_ROOT} did not die`);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    sleepSync(100);
  }
  // An emptied cgroup can be busy for a moment while the kernel finishes its exits.
  for (const cgroup of cgroupsBelowRoot()) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        rmdirSync(cgroup);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        sleepSync(100);
      }
    }
  }
}
