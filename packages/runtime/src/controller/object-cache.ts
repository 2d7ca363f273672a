import { apiVersionOf, objectKey } from '@keyward/kernel/model';
import { type ResourceType, type KubeObject } from '@keyward/kernel';
import { type ObjectMeta } from '@keyward/kernel/plan';

export type InformerEvent =
  | { readonly type: 'added'; readonly object: KubeObject }
  | { readonly type: 'updated'; readonly object: KubeObject; readonly old: KubeObject }
  | { readonly type: 'deleted'; readonly object: KubeObject };

/** An object as the server sent it; watch objects of some resources lack apiVersion and kind. */
export interface ServerObject {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/**
 * An object as the cache keeps it: apiVersion and kind filled in from the type when missing, and without
 * metadata.managedFields, so memory grows with what is cached rather than with field-manager history.
 */
export function cachedForm(type: ResourceType, object: ServerObject): KubeObject {
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return {
    ...object,
    apiVersion: nonEmptyString(object.apiVersion) ?? apiVersionOf(type),
    kind: nonEmptyString(object.kind) ?? type.kind,
    metadata,
  };
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function keyOf(object: KubeObject): string {
  return objectKey(object.metadata.namespace, object.metadata.name);
}

/**
 * The objects an informer has seen, keyed "namespace/name". Every change returns the event it amounts to,
 * so events always describe what happened to the cache: an 'added' precedes any 'updated' or 'deleted' of
 * a key, and an 'updated' means the resourceVersion changed. Pure bookkeeping, no I/O.
 */
export class ObjectCache {
  #objects = new Map<string, KubeObject>();

  get size(): number {
    return this.#objects.size;
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#objects.get(objectKey(namespace, name));
  }

  list(namespace?: string): KubeObject[] {
    const all = [...this.#objects.values()];
    return namespace === undefined ? all : all.filter((object) => (object.metadata.namespace ?? '') === namespace);
  }

  keys(): string[] {
    return [...this.#objects.keys()];
  }

  /** Stores an added or modified object; undefined when the cached copy has the same resourceVersion. */
  upsert(object: KubeObject): InformerEvent | undefined {
    const key = keyOf(object);
    const old = this.#objects.get(key);
    if (old !== undefined && sameVersion(old, object)) return undefined;
    this.#objects.set(key, object);
    return old === undefined ? { type: 'added', object } : { type: 'updated', object, old };
  }

  /** Forgets a deleted object; undefined when it was not cached. The event carries the object as deleted. */
  remove(object: KubeObject): InformerEvent | undefined {
    return this.#objects.delete(keyOf(object)) ? { type: 'deleted', object } : undefined;
  }

  /**
   * Replaces the content with a complete list, as a relist does, and returns the events that turn the old
   * content into the new: what the list lacks is 'deleted' (with its last known state), what changed is
   * 'updated', what is new is 'added'. This is what makes a delete missed while not watching visible.
   */
  replace(items: readonly KubeObject[]): InformerEvent[] {
    const { objects, events } = diffSnapshot(this.#objects, items);
    this.#objects = objects;
    return events;
  }
}

/** The content and events of ObjectCache.replace, as a pure function of the old content and the new list. */
export function diffSnapshot(old: ReadonlyMap<string, KubeObject>, items: readonly KubeObject[]): { objects: Map<string, KubeObject>; events: InformerEvent[] } {
  const objects = new Map<string, KubeObject>();
  const events: InformerEvent[] = [];
  for (const object of items) {
    const key = keyOf(object);
    objects.set(key, object);
    const previous = old.get(key);
    if (previous === undefined) events.push({ type: 'added', object });
    else if (!sameVersion(previous, object)) events.push({ type: 'updated', object, old: previous });
  }
  for (const [key, previous] of old) if (!objects.has(key)) events.push({ type: 'deleted', object: previous });
  return { objects, events };
}

function sameVersion(a: KubeObject, b: KubeObject): boolean {
  return a.metadata.resourceVersion !== undefined && a.metadata.resourceVersion === b.metadata.resourceVersion;
}
