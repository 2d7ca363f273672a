// The moment a set of objects reaches a state, seen through a watch (exact to the event, and cheaper for the
// API server than polling with lists while the thing measured runs).
import { performance } from 'node:perf_hooks';
import type { KubeObject, ResourceType } from '@keyward/kernel';
import type { KubeClient } from '@keyward/runtime/io';
import { Informer } from '@keyward/runtime/controller';

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

/** When each namespace's objects all met a condition (performance.now(), ms), and when every namespace's did. */
export interface Arrivals {
  readonly reachedAt: ReadonlyMap<string, number>;
  /** Objects of `namespace` that meet the condition now (or met it when the namespace reached its count). */
  meeting(namespace: string): number;
  /** Resolves when every namespace has reached its count. */
  readonly all: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Watches `type` in every namespace and records the moment `expected.get(namespace)` of a namespace's objects
 * first meet `test` together. Returns after the first list, as whenCount does.
 */
export async function whenEachNamespace(
  kube: KubeClient,
  type: ResourceType,
  expected: ReadonlyMap<string, number>,
  test: (object: KubeObject) => boolean,
): Promise<Arrivals> {
  const informer = new Informer(kube, { type, onProblem: () => undefined });
  const meeting = new Map<string, Set<string>>();
  const reachedAt = new Map<string, number>();
  let resolve: () => void = () => undefined;
  const all = new Promise<void>((done) => {
    resolve = done;
  });
  informer.subscribe((event) => {
    const namespace = event.object.metadata.namespace ?? '';
    const count = expected.get(namespace);
    if (count === undefined || reachedAt.has(namespace)) return;
    const names = meeting.get(namespace) ?? new Set<string>();
    meeting.set(namespace, names);
    if (event.type !== 'deleted' && test(event.object)) names.add(event.object.metadata.name);
    else names.delete(event.object.metadata.name);
    if (names.size < count) return;
    reachedAt.set(namespace, performance.now());
    if (reachedAt.size === expected.size) resolve();
  });
  await informer.start();
  return { reachedAt, all, meeting: (namespace) => meeting.get(namespace)?.size ?? 0, stop: () => informer.stop() };
}
