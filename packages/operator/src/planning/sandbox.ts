import { objectKey } from '@keyward/kernel/model';
import { type AnyAction, type KubeObject, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { type AnyQuery, type GetQuery, type ListIfServedQuery, type ListQuery } from '@keyward/kernel/plan';
import { FIELD_MANAGER } from '@keyward/runtime/io';
import { type ErasedHandler, type HandlerContext } from '@keyward/kernel/interpreter';
import { isKubeObject } from './manifest.js';
import type { SandboxHandlers } from './rounds.js';
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

/** Whether a query is a Kubernetes get: of that kind, with the object it names. */
function isGet(query: AnyQuery): query is GetQuery {
  return query.kind === 'k8s.get' && 'ref' in query;
}

/** Whether a query is a Kubernetes list: of that kind, with the type it lists. */
function isList(query: AnyQuery): query is ListQuery | ListIfServedQuery {
  return query.kind === 'k8s.list' && 'type' in query;
}

function isResourceType(value: unknown): value is ResourceType {
  return typeof value === 'object' && value !== null && 'group' in value && typeof value.group === 'string' && 'plural' in value && typeof value.plural === 'string'
    && 'kind' in value && typeof value.kind === 'string' && 'version' in value && typeof value.version === 'string' && 'namespaced' in value && typeof value.namespaced === 'boolean';
}

/** The object a Kubernetes action acts on, its name resolved (a name known only after an earlier step). */
function targetOf(action: AnyAction, context: HandlerContext): ObjectRef | undefined {
  if (!('ref' in action) || typeof action.ref !== 'object' || action.ref === null) return undefined;
  const { ref } = action;
  if (!('type' in ref) || !isResourceType(ref.type) || !('name' in ref)) return undefined;
  const namespace = 'namespace' in ref && typeof ref.namespace === 'string' ? ref.namespace : undefined;
  return { type: ref.type, namespace, name: String(context.resolve(ref.name)) };
}

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
    if (isGet(query)) {
      await this.#readIn(query.ref);
      const object = await this.#answers['k8s.get'](query);
      return object === undefined ? undefined : this.#outward(query.ref.type, object);
    }
    if (isList(query)) {
      if (!(await this.#listIn(query))) return undefined;
      return ((await this.#answers['k8s.list'](query)) ?? []).map((object) => this.#outward(query.type, object));
    }
    return this.#readCluster(query);
  }

  /** The Kubernetes handlers, acting on the sandbox; each reads in the object it acts on first. */
  handlers(): SandboxHandlers {
    const inner: SandboxHandlers = this.#memory.handlers();
    return Object.fromEntries(Object.entries(inner).map(([kind, handler]) => [kind, this.#readingIn(handler)]));
  }

  /** The handler, after reading in the object its action acts on. */
  #readingIn(handler: ErasedHandler): ErasedHandler {
    return async (action, context) => {
      // A handler is given only actions of its own kind; read here as any action.
      const target = targetOf(action, context);
      if (target !== undefined) await this.#readIn(target);
      return handler(withoutVersionPrecondition(action), context);
    };
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
    const object = await this.#readCluster(get);
    if (isKubeObject(object)) this.#store(ref.type, object);
  }

  async #listIn(query: ListQuery | ListIfServedQuery): Promise<boolean> {
    const scope = scopeOf(query);
    if (this.#listed.has(scope)) return !this.#notServed.has(scope);
    const answer = await this.#readCluster(query);
    const items = Array.isArray(answer) ? answer.filter(isKubeObject) : undefined;
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
function withoutVersionPrecondition<X extends AnyAction>(action: X): X {
  if (!('precondition' in action) || typeof action.precondition !== 'object' || action.precondition === null || !('resourceVersion' in action.precondition)) return action;
  const { resourceVersion: _version, ...rest } = action.precondition;
  return { ...action, precondition: rest };
}
