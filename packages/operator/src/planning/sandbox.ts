import { objectKey } from '@keyward/kernel/model';
import { type AnyAction, type KubeObject, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { type AnyQuery, type GetQuery, type ListIfServedQuery, type ListQuery } from '@keyward/kernel/plan';
import { FIELD_MANAGER } from '@keyward/runtime/io';
import { type HandlerContext, type HandlerResult } from '@keyward/kernel/interpreter';
import { SimulatedKubernetes } from '@keyward/kernel/testing';

function keyOf(type: Pick<ResourceType, 'group' | 'plural'>, namespace: string | undefined, name: string): string {
  return `${type.group}/${type.plural}/${objectKey(namespace, name)}`;
}

function scopeOf(query: ListQuery | ListIfServedQuery): string {
  const labels = Object.entries(query.labels ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
  return `${query.type.group}/${query.type.plural}|${query.namespace ?? '*'}|${labels}`;
}

/** What the cluster said of an object read in, and what memory made of it, to give its metadata back unchanged. */
interface Origin {
  readonly resourceVersion: string | undefined;
  readonly generation: number | undefined;
  readonly memoryVersion: string | undefined;
  readonly memoryGeneration: number | undefined;
}

/** A handler with its types erased: the table it comes from is keyed by kind. */
type AnyHandler = (action: AnyAction, context: HandlerContext) => Promise<HandlerResult<object>>;

/**
 * The cluster as a plan's writes would leave it, so that the reconciles that follow one another can be
 * planned: each object is read from the cluster the first time a read or a write needs it, and from then on
 * lives in memory, where the plans' Kubernetes actions are applied as the in-memory world applies them (server-
 * side apply, finalizers and deletion, garbage collection). Nothing is ever written to the cluster.
 *
 * There is one writer, so a resourceVersion precondition (a guard against a stale view) always holds and is not
 * checked. Objects keep the resourceVersion and generation the cluster gave them until the sandbox changes them.
 */
export class KubeSandbox {
  readonly #memory = new SimulatedKubernetes();
  readonly #answers = this.#memory.answers();
  readonly #readCluster: (query: AnyQuery) => Promise<unknown>;
  /** Objects whose state is the sandbox's: read in from the cluster (present or absent), or put here. */
  readonly #held = new Set<string>();
  readonly #listed = new Set<string>();
  /** Scopes of lists that ask only if the type is served, which the cluster does not serve. */
  readonly #notServed = new Set<string>();
  readonly #origins = new Map<string, Origin>();

  /** `readCluster` answers Kubernetes reads (and any other API's) from the real cluster. */
  constructor(readCluster: (query: AnyQuery) => Promise<unknown>) {
    this.#readCluster = readCluster;
  }

  /** Puts `object` in the sandbox as it will be (an object of a manifest), whatever the cluster holds. */
  hold(type: ResourceType, object: KubeObject): void {
    this.#held.add(keyOf(type, object.metadata.namespace, object.metadata.name));
    this.#store(type, object);
  }

  /** An object as the sandbox holds it now; undefined once it is deleted. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    await this.#readIn(ref);
    const object = this.#memory.get(ref);
    return object === undefined ? undefined : this.#outward(ref.type, object);
  }

  /** Answers a read: Kubernetes reads from the sandbox, any other API's from that API. */
  async read(query: AnyQuery): Promise<unknown> {
    if (query.kind === 'k8s.get') {
      const get = query as GetQuery;
      await this.#readIn(get.ref);
      const object = await this.#answers['k8s.get'](get);
      return object === undefined ? undefined : this.#outward(get.ref.type, object);
    }
    if (query.kind === 'k8s.list') {
      const list = query as ListQuery | ListIfServedQuery;
      if (!(await this.#listIn(list))) return undefined;
      return ((await this.#answers['k8s.list'](list)) ?? []).map((object) => this.#outward(list.type, object));
    }
    return this.#readCluster(query);
  }

  /** The Kubernetes handlers, acting on the sandbox; each reads in the object it acts on first. */
  handlers(): Readonly<Record<string, AnyHandler>> {
    const inner = this.#memory.handlers() as unknown as Readonly<Record<string, AnyHandler>>;
    return Object.fromEntries(Object.entries(inner).map(([kind, handler]) => [kind, async (action: AnyAction, context: HandlerContext) => {
      const ref = (action as { readonly ref?: { readonly type: ResourceType; readonly namespace?: string | undefined; readonly name: Parameters<HandlerContext['resolve']>[0] } }).ref;
      if (ref !== undefined) await this.#readIn({ type: ref.type, namespace: ref.namespace, name: String(context.resolve(ref.name)) });
      return handler(withoutVersionPrecondition(action), context);
    }]));
  }

  #store(type: ResourceType, object: KubeObject): void {
    const stored = this.#memory.put(type, object, FIELD_MANAGER);
    this.#origins.set(keyOf(type, object.metadata.namespace, object.metadata.name), {
      resourceVersion: object.metadata.resourceVersion,
      generation: object.metadata.generation,
      memoryVersion: stored.metadata.resourceVersion,
      memoryGeneration: stored.metadata.generation,
    });
  }

  async #readIn(ref: ObjectRef): Promise<void> {
    const key = keyOf(ref.type, ref.namespace, ref.name);
    if (this.#held.has(key)) return;
    this.#held.add(key);
    const get: GetQuery = { kind: 'k8s.get', ref };
    const object = (await this.#readCluster(get)) as KubeObject | undefined;
    if (object !== undefined) this.#store(ref.type, object);
  }

  async #listIn(query: ListQuery | ListIfServedQuery): Promise<boolean> {
    const scope = scopeOf(query);
    if (this.#listed.has(scope)) return !this.#notServed.has(scope);
    const items = (await this.#readCluster(query)) as readonly KubeObject[] | undefined;
    this.#listed.add(scope);
    if (items === undefined) {
      // Only a list that asks if the type is served is answered so: the cluster does not serve it.
      this.#notServed.add(scope);
      return false;
    }
    for (const item of items) {
      const key = keyOf(query.type, item.metadata.namespace, item.metadata.name);
      if (this.#held.has(key)) continue;
      this.#held.add(key);
      this.#store(query.type, item);
    }
    return true;
  }

  /** An object with the cluster's resourceVersion and generation, as far as the sandbox has not changed it. */
  #outward(type: ResourceType, object: KubeObject): KubeObject {
    const origin = this.#origins.get(keyOf(type, object.metadata.namespace, object.metadata.name));
    if (origin === undefined) return object;
    const { resourceVersion: _version, generation: _generation, ...metadata } = object.metadata;
    const generation = origin.generation === undefined || object.metadata.generation === undefined || origin.memoryGeneration === undefined
      ? origin.generation
      : origin.generation + object.metadata.generation - origin.memoryGeneration;
    const resourceVersion = object.metadata.resourceVersion === origin.memoryVersion ? origin.resourceVersion : object.metadata.resourceVersion;
    return {
      ...object,
      metadata: { ...metadata, ...(resourceVersion === undefined ? {} : { resourceVersion }), ...(generation === undefined ? {} : { generation }) },
    };
  }
}

/** The action without a resourceVersion precondition: with one writer, the view it guards against cannot be stale. */
function withoutVersionPrecondition(action: AnyAction): AnyAction {
  const { precondition } = action as { readonly precondition?: { readonly uid?: string; readonly resourceVersion?: string } };
  if (precondition?.resourceVersion === undefined) return action;
  const { resourceVersion: _version, ...rest } = precondition;
  const changed: AnyAction & { readonly precondition: object } = { ...action, precondition: rest };
  return changed;
}
