// Putting the test cluster and the client on different CPUs, as they are on different machines in production.
// On a shared two-core machine every CPU-second a client spends is taken from the API server, so a client that
// does more per request (a controller with its watches and caches) looks slower than its requests make it.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';
import type { Environment } from '@keyward/test-env';

/** Every process in the given process groups (each component runs in its own group). */
function processesOfGroups(groups: ReadonlySet<number>): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (groups.has(pgrp)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}

/** Where each side runs; undefined when the machine cannot separate them. */
export interface CpuSplit {
  readonly cluster: string;
  readonly client: string;
}

/**
 * Pins the environment's processes (API server, etcd, controller manager, and Keystone when started) to the
 * first half of the CPUs and this process to the rest. Undefined, with nothing changed, on a machine with one
 * CPU or without taskset. `undo` gives every process all CPUs again.
 */
export function separateClusterFromClient(environment: Environment): { readonly split: CpuSplit; undo(): void } | undefined {
  const cpus = availableParallelism();
  if (cpus < 2) return undefined;
  const half = Math.floor(cpus / 2);
  const split = { cluster: `0-${String(half - 1)}`, client: `${String(half)}-${String(cpus - 1)}` };
  const all = `0-${String(cpus - 1)}`;
  const cluster = processesOfGroups(new Set(environment.info.components.map((component) => component.pid)));
  const apply = (clusterCpus: string, clientCpus: string): void => {
    for (const pid of cluster) {
      try {
        pin(pid, clusterCpus);
      } catch {
        // A process that ended since it was found needs no pinning.
      }
    }
    pin(process.pid, clientCpus);
  };
  try {
    apply(split.cluster, split.client);
  } catch {
    return undefined;
  }
  return { split, undo: () => { apply(all, all); } };
}
