import { apiVersionOf, coreTypes, describeRef, objectKey, type ObjectRef, type ResourceType } from '../../model/refs.js';
import type { Sensitive } from '../../model/sensitive.js';
import { eventNote } from '../../model/text.js';
import { deepEqual } from '../../plan/equality.js';
import { applyMergePatch, mergePatch } from '../../plan/merge-patch.js';
import type { Json } from '../../plan/values.js';
import { KeywardError } from '../../interpreter/errors.js';
import { secretKeyValue } from '../../interpreter/secret-key.js';
import type { HandlerTable, QueryTable } from '../../interpreter/types.js';
import { hasLabels, type KubeObject, type KubernetesAction, type ObjectMeta } from './actions.js';
import type { SecretKeyRef } from '../keystone/actions.js';
import type { KubernetesQuery } from './queries.js';
import { ApplyConflict, FIELD_CONFLICT, FIELD_MANAGER, serverSideApply, updateOwners, type FieldOwners } from './server-side-apply.js';

type JsonObject = Record<string, Json>;

/** A body with `stringData` folded into base64 `data`, as the API server stores a Secret written either way. */
function withStringDataStored(body: JsonObject): JsonObject {
  const { stringData, ...rest } = body;
  if (!isObject(stringData)) return body;
  const encoded = Object.entries(stringData).map(([key, value]): [string, string] => [key, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64')]);
  return { ...rest, data: { ...(isObject(rest['data']) ? rest['data'] : {}), ...Object.fromEntries(encoded) } };
}

/** An object to store; apiVersion and kind come from its type. */
export interface NewObject {
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** A recorded Kubernetes Event. */
export interface SimulatedEvent {
  readonly reason: string;
  readonly type: string;
  readonly note: string;
  readonly regarding: string;
  /** Set when the event names its reporter (see EventAction.reportingController). */
  readonly reportingController?: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(code: number, reason: string, message: string, retryable = code >= 500 || code === 409): never {
  throw new KeywardError({ api: 'kubernetes', code, reason, message, retryable });
}


/**
 * An in-memory Kubernetes API server for fast tests: objects with uid, resourceVersion and generation,
 * finalizers and deletion, garbage collection of dependents, events. Close enough for convergence tests;
 * integration tests against the real API server remain the proof.
 */
export class SimulatedKubernetes {
  readonly #objects = new Map<string, KubeObject>();
  readonly events: SimulatedEvent[] = [];
  /** Who owns which fields of each object, for server-side apply. */
  readonly #owners = new Map<string, FieldOwners>();
  #counter = 0;

  #next(): number {
    this.#counter += 1;
    return this.#counter;
  }

  static #key(type: Pick<ResourceType, 'group' | 'plural'>, namespace: string | undefined, name: string): string {
    return `${type.group}/${type.plural}/${objectKey(namespace, name)}`;
  }

  /**
   * Puts an object in the world as the API server would store it (uid, resourceVersion, generation), written
   * by `manager` (a person with kubectl, by default): it owns the fields it changed, so an apply that sets one
   * of them to another value conflicts, as on a real server.
   */
  put(type: ResourceType, object: NewObject, manager = 'test'): KubeObject {
    const key = SimulatedKubernetes.#key(type, object.metadata.namespace, object.metadata.name);
    const previous = this.#objects.get(key);
    const stored = this.#store(type, object);
    this.#owners.set(key, updateOwners(previous as JsonObject | undefined, stored as unknown as JsonObject, this.#owners.get(key) ?? new Map<string, Set<string>>(), manager));
    return stored;
  }

  /** Changes an object as another writer would (kubectl edit): `manager` takes over the fields it changes. */
  update(ref: ObjectRef, change: (object: KubeObject) => NewObject, manager = 'test'): KubeObject {
    return this.put(ref.type, change(this.#mustGet(ref)), manager);
  }

  /** Stores an object as the API server would (uid, resourceVersion, generation). */
  #store(type: ResourceType, object: NewObject): KubeObject {
    const previous = this.#objects.get(SimulatedKubernetes.#key(type, object.metadata.namespace, object.metadata.name));
    const stored: KubeObject = {
      ...object,
      apiVersion: apiVersionOf(type),
      kind: type.kind,
      metadata: {
        ...object.metadata,
        uid: previous?.metadata.uid ?? object.metadata.uid ?? `uid-${String(this.#next())}`,
        resourceVersion: String(this.#next()),
        generation: (previous?.metadata.generation ?? 0) + (deepEqual(previous?.['spec'], object['spec']) && previous !== undefined ? 0 : 1),
      },
    };
    this.#objects.set(SimulatedKubernetes.#key(type, stored.metadata.namespace, stored.metadata.name), stored);
    return stored;
  }

  get(ref: ObjectRef): KubeObject | undefined {
    return this.#objects.get(SimulatedKubernetes.#key(ref.type, ref.namespace, ref.name));
  }

  list(type: ResourceType, namespace?: string, labels?: Readonly<Record<string, string>>): KubeObject[] {
    const prefix = `${type.group}/${type.plural}/`;
    return [...this.#objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, object]) => object)
      .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
      .filter((o) => hasLabels(o, labels));
  }

  /**
   * One key of a Secret, as a handler reads a password named by a SecretKeyRef: the real reader's rules
   * (see secretKeyValue).
   */
  readSecretKey(ref: SecretKeyRef): Sensitive {
    return secretKeyValue(this.get({ type: coreTypes.secret, namespace: ref.namespace, name: ref.name }), ref);
  }

  /** Removes an object at once, ignoring finalizers (what a person with kubectl and --force might do). */
  remove(ref: ObjectRef): void {
    this.#objects.delete(SimulatedKubernetes.#key(ref.type, ref.namespace, ref.name));
    this.#owners.delete(SimulatedKubernetes.#key(ref.type, ref.namespace, ref.name));
  }

  #delete(ref: ObjectRef): boolean {
    const object = this.get(ref);
    if (object === undefined) return false;
    if ((object.metadata.finalizers ?? []).length > 0) {
      if (object.metadata.deletionTimestamp === undefined) this.#update(ref, { ...object, metadata: { ...object.metadata, deletionTimestamp: '2000-01-01T00:00:00Z' } });
      return true;
    }
    this.remove(ref);
    // Garbage collection of dependents.
    for (const [key, candidate] of this.#objects) {
      if (candidate.metadata.ownerReferences?.some((owner) => owner.uid === object.metadata.uid) === true) this.#objects.delete(key);
    }
    return true;
  }

  #update(ref: ObjectRef, object: KubeObject): KubeObject {
    const stored = this.#store(ref.type, object);
    if (stored.metadata.deletionTimestamp !== undefined && (stored.metadata.finalizers ?? []).length === 0) this.#delete(ref);
    return stored;
  }

  #mustGet(ref: ObjectRef): KubeObject {
    return this.get(ref) ?? fail(404, 'NotFound', `${ref.type.kind} ${objectKey(ref.namespace, ref.name)} not found`);
  }


  /** Handlers that act on this store. */
  handlers(): HandlerTable<KubernetesAction> {
    const setFinalizers = (ref: ObjectRef, change: (current: readonly string[]) => readonly string[] | undefined, annotations?: Readonly<Record<string, string>>) => {
      const current = this.get(ref);
      const next = current === undefined ? undefined : change(current.metadata.finalizers ?? []);
      if (current === undefined || next === undefined) return Promise.resolve({ outcome: 'unchanged' as const, outputs: {} });
      const annotated = annotations === undefined ? {} : { annotations: { ...current.metadata.annotations, ...annotations } };
      this.#update(ref, { ...current, metadata: { ...current.metadata, finalizers: next, ...annotated } });
      return Promise.resolve({ outcome: 'applied' as const, outputs: {} });
    };
    return {
      'k8s.create': (action, context) => {
        const body = context.resolveTemplate(action.object) as JsonObject;
        const ref: ObjectRef = { ...action.ref, name: context.resolve(action.ref.name) };
        const existing = this.get(ref);
        const normalised = withStringDataStored(body);
        if (existing !== undefined) {
          const same = Object.entries(normalised).every(([k, v]) => k === 'metadata' || k === 'apiVersion' || k === 'kind' || deepEqual(existing[k], v));
          if (!same) fail(409, 'AlreadyExists', `${ref.name} exists with different content`);
          return Promise.resolve({ outcome: 'unchanged', outputs: { object: existing } });
        }
        return Promise.resolve({ outcome: 'applied', outputs: { object: this.put(ref.type, normalised as unknown as KubeObject, FIELD_MANAGER) } });
      },
      'k8s.apply': (action, context) => {
        const body = withStringDataStored(context.resolveTemplate(action.object) as JsonObject);
        const existing = this.get(action.ref);
        const key = SimulatedKubernetes.#key(action.ref.type, action.ref.namespace, action.ref.name);
        let applied;
        try {
          applied = serverSideApply(existing as JsonObject | undefined, this.#owners.get(key) ?? new Map<string, Set<string>>(), body, FIELD_MANAGER, action.force ?? false);
        } catch (error) {
          if (error instanceof ApplyConflict) fail(409, FIELD_CONFLICT, `apply ${describeRef(action.ref)}: ${error.message}`, false);
          throw error;
        }
        const merged = applied.object as unknown as KubeObject;
        this.#owners.set(key, applied.owners);
        if (existing !== undefined && deepEqual(merged, existing)) return Promise.resolve({ outcome: 'unchanged', outputs: { object: existing } });
        return Promise.resolve({ outcome: 'applied', outputs: { object: this.#update(action.ref, merged) } });
      },
      'k8s.patch': (action, context) => {
        const current = this.#mustGet(action.ref);
        if (action.precondition?.uid !== undefined && action.precondition.uid !== current.metadata.uid) fail(409, 'Conflict', 'uid precondition failed');
        if (action.precondition?.resourceVersion !== undefined && action.precondition.resourceVersion !== current.metadata.resourceVersion) fail(409, 'Conflict', 'resourceVersion precondition failed');
        if (action.patch.type !== 'merge') fail(400, 'BadRequest', 'the in-memory world supports merge patches only');
        const patched = applyMergePatch(current, context.resolveTemplate(action.patch.body)) as unknown as KubeObject;
        return Promise.resolve({ outcome: 'applied', outputs: { object: this.#update(action.ref, patched) } });
      },
      'k8s.delete': (action) => {
        const current = this.get(action.ref);
        if (current !== undefined && action.precondition?.uid !== undefined && action.precondition.uid !== current.metadata.uid) fail(409, 'Conflict', 'uid precondition failed');
        return Promise.resolve({ outcome: this.#delete(action.ref) ? 'applied' : 'unchanged', outputs: {} });
      },
      'k8s.addFinalizer': (action) => setFinalizers(action.ref, (f) => (f.includes(action.finalizer) ? undefined : [...f, action.finalizer]), action.annotations),
      'k8s.removeFinalizer': (action) => setFinalizers(action.ref, (f) => (f.includes(action.finalizer) ? f.filter((x) => x !== action.finalizer) : undefined)),
      'k8s.status': (action, context) => {
        const current = this.#mustGet(action.ref);
        if (action.precondition?.resourceVersion !== undefined && action.precondition.resourceVersion !== current.metadata.resourceVersion) fail(409, 'Conflict', 'resourceVersion precondition failed');
        const metadata: ObjectMeta = current.metadata;
        this.#objects.set(SimulatedKubernetes.#key(action.ref.type, metadata.namespace, metadata.name), {
          ...current,
          metadata: { ...metadata, resourceVersion: String(this.#next()) },
          // As the real handler does: a merge patch from the status the plan saw to the one it wants.
          status: applyMergePatch(current['status'], mergePatch(action.observed ?? {}, context.resolveTemplate(action.status))),
        });
        return Promise.resolve({ outcome: 'applied', outputs: {} });
      },
      'k8s.event': (action) => {
        this.events.push({
          reason: action.reason, type: action.type, note: eventNote(action.note), regarding: objectKey(action.regarding.namespace, action.regarding.name),
          ...(action.reportingController === undefined ? {} : { reportingController: action.reportingController }),
        });
        return Promise.resolve({ outcome: 'applied', outputs: {} });
      },
    };
  }

  /** Answers to reads, from the store. */
  answers(): QueryTable<KubernetesQuery> {
    return {
      'k8s.get': (query) => {
        const object = this.get(query.ref);
        return object !== undefined && hasLabels(object, query.requireLabels) ? object : undefined;
      },
      'k8s.list': (query) => this.list(query.type, query.namespace, query.labels),
    };
  }
}

