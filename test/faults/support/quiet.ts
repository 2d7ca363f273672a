// Whether an operator has come to rest: first no object changes and no queue holds a key, then, in a quiet
// window, an object that still changes more than once is in a hot loop, and the reconciles run meanwhile say
// whether anything but retries with backoff keeps the operator busy.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResourceType } from '@keyward/kernel';
import { Informer } from '@keyward/runtime/controller';
import { waitFor } from '@keyward/test-env';
import { progress, type FaultEnvironment } from './environment.js';
import { difference, queueDepth, reconcileCounts, scrape } from './metrics.js';

/** What to watch: objects of these types in one namespace, and the operator's metrics. */
export interface Watched {
  readonly types: readonly ResourceType[];
  readonly namespace: string;
  readonly metricsPort: number;
}

/** resourceVersion of every watched object, by "<kind>/<name>". */
async function versions(fault: FaultEnvironment, watched: Watched): Promise<Map<string, string>> {
  const lists = await Promise.all(watched.types.map(async (type) => (await fault.kube.listAll(type, { namespace: watched.namespace })).items.map((o) => [`${type.kind}/${o.metadata.name}`, o.metadata.resourceVersion ?? ''] as const)));
  return new Map(lists.flat());
}

/** Waits until no queue holds a key and no watched object has changed for `stableMs`; false when it never did. */
export async function settle(fault: FaultEnvironment, watched: Watched, timeoutMs: number, stableMs = 5_000): Promise<boolean> {
  let previous = new Map<string, string>();
  let stableSince = Date.now();
  try {
    await waitFor(async () => {
      const current = await versions(fault, watched);
      const same = current.size === previous.size && [...current].every(([key, version]) => previous.get(key) === version);
      if (!same) stableSince = Date.now();
      previous = current;
      return same && Date.now() - stableSince >= stableMs && queueDepth(await scrape(watched.metricsPort)) === 0 ? true : undefined;
    }, { what: 'every object to settle', timeoutMs, intervalMs: 1_000 });
    return true;
  } catch {
    return false;
  }
}

export interface QuietWindow {
  /** Objects ("<kind>/<name>") that changed more than once. */
  readonly hotLoops: readonly string[];
  /** Objects that changed at all. */
  readonly changed: number;
  /** Reconciles run during the window, by "<controller> <result>". */
  readonly reconciles: Readonly<Record<string, number>>;
}

/** Watches every watched object for `ms`, counting the changes of each and the operator's reconciles. */
export async function quietWindow(fault: FaultEnvironment, watched: Watched, ms: number): Promise<QuietWindow> {
  const changes = new Map<string, number>();
  const informers = watched.types.map((type) => {
    const informer = new Informer(fault.kube, { type, namespace: watched.namespace, onProblem: (message) => { progress(`watch: ${message}`); } });
    informer.subscribe((event) => {
      const key = `${type.kind}/${event.object.metadata.name}`;
      if (event.type !== 'added') changes.set(key, (changes.get(key) ?? 0) + 1);
    });
    return informer;
  });
  await Promise.all(informers.map((informer) => informer.start()));
  const before = reconcileCounts(await scrape(watched.metricsPort));
  await sleep(ms);
  const after = reconcileCounts(await scrape(watched.metricsPort));
  await Promise.all(informers.map((informer) => informer.stop()));
  return { hotLoops: [...changes].filter(([, n]) => n > 1).map(([key]) => key), changed: changes.size, reconciles: difference(before, after) };
}
