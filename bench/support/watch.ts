// The moment a set of objects reaches a state, seen through a watch (exact to the event, and cheaper for the
// API server than polling with lists while the thing measured runs).
import type { KubeObject, ResourceType } from '@keyward/core';
import type { KubeClient } from '@keyward/core/interpreter';
import { Informer } from '@keyward/core/runtime';

export interface Arrival {
  /** Resolves when `count` objects first meet the condition. */
  readonly reached: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Watches `type` in `namespace` (with `labels`) and resolves `reached` once `count` objects meet `test`.
 * Returns after the first list, so a measurement started afterwards does not include the watch's start.
 */
export async function whenCount(
  kube: KubeClient,
  watch: { readonly type: ResourceType; readonly namespace: string; readonly labels?: Readonly<Record<string, string>> },
  count: number,
  test: (object: KubeObject) => boolean,
): Promise<Arrival> {
  const informer = new Informer(kube, { ...watch, onProblem: () => undefined });
  const meeting = new Set<string>();
  let resolve: () => void = () => undefined;
  const reached = new Promise<void>((done) => {
    resolve = done;
  });
  informer.subscribe((event) => {
    const key = event.object.metadata.name;
    if (event.type !== 'deleted' && test(event.object)) meeting.add(key);
    else meeting.delete(key);
    if (meeting.size >= count) resolve();
  });
  await informer.start();
  return { reached, stop: () => informer.stop() };
}
