// Putting the test cluster and the client on different CPUs, as they are on different machines in production.
// On a shared two-core machine every CPU-second a client spends is taken from the API server, so a client that
// does more per request (a controller with its watches and caches) looks slower than its requests make it.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { processesInGroup, type Environment } from '@keyward/test-env';

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
  const cluster = environment.info.components.flatMap((component) => processesInGroup(component.pid));
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
