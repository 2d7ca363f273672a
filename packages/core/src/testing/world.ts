import { createHash } from 'node:crypto';
import { apiVersionOf, coreTypes, objectKey, type ObjectRef, type ResourceType } from '../model/refs.js';
import { Sensitive, sensitive } from '../model/sensitive.js';
import { eventNote } from '../model/text.js';
import { deepEqual } from '../plan/equality.js';
import { applyMergePatch, mergePatch } from '../plan/merge-patch.js';
import { hasLabels, type KubeObject, type ObjectMeta } from '../apis/kubernetes/actions.js';
import type { ApplicationCredentialSummary, KeystoneSession, SecretKeyRef } from '../apis/keystone/actions.js';
import type { Plan } from '../plan/plan.js';
import { queryStages, type Observed, type Queries, type Query } from '../plan/queries.js';
import type { Json } from '../plan/values.js';
import { KeywardError } from '../interpreter/errors.js';
import { interpret } from '../interpreter/interpret.js';
import type { Handlers, PlanResult } from '../interpreter/types.js';

type JsonObject = Record<string, Json>;

/** An object to store; apiVersion and kind come from its type. */
export interface NewObject {
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

interface StoredCredential extends ApplicationCredentialSummary {
  readonly userId: string;
  readonly secret: string;
}

interface KeystoneUser {
  readonly id: string;
  readonly name: string;
  readonly password: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(code: number, reason: string, message: string, api = 'kubernetes'): never {
  throw new KeywardError({ api, code, reason, message, retryable: code >= 500 || code === 409 });
}

/**
 * An in-memory Kubernetes and Keystone for fast tests: it answers the queries an observe function asks and
 * executes plans through the real interpreter with handlers that change its state, close enough to the real
 * APIs for convergence tests (reconcile, apply, reconcile again: nothing to do). Integration tests against
 * the real servers remain the proof; this is for speed and properties.
 */
export class InMemoryWorld {
  readonly #objects = new Map<string, KubeObject>();
  readonly #users = new Map<string, KeystoneUser>();
  readonly #credentials = new Map<string, StoredCredential>();
  readonly events: { reason: string; type: string; note: string; regarding: string }[] = [];
  #counter = 0;

  #next(): number {
    this.#counter += 1;
    return this.#counter;
  }

  static #key(type: Pick<ResourceType, 'group' | 'plural'>, namespace: string | undefined, name: string): string {
    return `${type.group}/${type.plural}/${objectKey(namespace, name)}`;
  }

  /** Puts an object in the world as the API server would store it (uid, resourceVersion, generation). */
  put(type: ResourceType, object: NewObject): KubeObject {
    const previous = this.#objects.get(InMemoryWorld.#key(type, object.metadata.namespace, object.metadata.name));
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
    this.#objects.set(InMemoryWorld.#key(type, stored.metadata.namespace, stored.metadata.name), stored);
    return stored;
  }

  get(ref: ObjectRef): KubeObject | undefined {
    return this.#objects.get(InMemoryWorld.#key(ref.type, ref.namespace, ref.name));
  }

  list(type: ResourceType, namespace?: string, labels?: Readonly<Record<string, string>>): KubeObject[] {
    const prefix = `${type.group}/${type.plural}/`;
    return [...this.#objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, object]) => object)
      .filter((o) => namespace === undefined || o.metadata.namespace === namespace)
      .filter((o) => hasLabels(o, labels));
  }

  /** Removes an object at once, ignoring finalizers (what a person with kubectl and --force might do). */
  remove(ref: ObjectRef): void {
    this.#objects.delete(InMemoryWorld.#key(ref.type, ref.namespace, ref.name));
  }

  addKeystoneUser(name: string, password: string): string {
    const id = `user-${name}`;
    this.#users.set(name, { id, name, password });
    return id;
  }

  /** Credentials of a user as Keystone would list them (no secrets). */
  credentials(userId: string): ApplicationCredentialSummary[] {
    return [...this.#credentials.values()].filter((c) => c.userId === userId).map(({ id, name, description, expiresAt }) => ({ id, name, description, expiresAt }));
  }

  /** Whether `id` + `secret` would authenticate. */
  credentialWorks(id: string, secret: string): boolean {
    return this.#credentials.get(id)?.secret === secret;
  }

  query<Q extends Queries>(queries: Q): Observed<Q> {
    const { independent, guarded } = queryStages(queries);
    const results = new Map<string, unknown>(independent.map(([name, query]) => [name, query === undefined ? undefined : this.#answer(query)]));
    for (const [name, query, guard] of guarded) results.set(name, results.get(guard) === undefined ? this.#answer(query) : undefined);
    return Object.fromEntries(results) as Observed<Q>;
  }

  #answer(query: Query): unknown {
    switch (query.kind) {
      case 'k8s.get': {
        const object = this.get(query.ref);
        return object !== undefined && hasLabels(object, query.requireLabels) ? object : undefined;
      }
      case 'k8s.list': return this.list(query.type, query.namespace, query.labels);
      case 'keystone.listApplicationCredentials': return this.credentials(this.#login(query.userName, query.password).userId);
    }
  }

  #secretKey(ref: SecretKeyRef): Sensitive {
    const secret = this.get({ type: coreTypes.secret, namespace: ref.namespace, name: ref.name });
    if (secret === undefined) fail(404, 'PasswordSecretNotFound', `Secret ${ref.namespace}/${ref.name} not found`);
    const encoded = (secret['data'] as Record<string, string> | undefined)?.[ref.key];
    if (encoded === undefined || encoded === '') fail(404, 'PasswordKeyNotFound', `Secret ${ref.namespace}/${ref.name} has no key ${ref.key} (or it is empty)`);
    return sensitive(Buffer.from(encoded, 'base64').toString('utf8').replace(/\r?\n$/, ''));
  }

  #login(userName: string, password: Sensitive): KeystoneSession {
    const user = this.#users.get(userName);
    if (user?.password !== password.reveal()) fail(401, 'Unauthorized', `authenticate as ${userName}: HTTP 401`, 'keystone');
    return { endpoint: 'memory', token: sensitive(`token-${user.id}`), userId: user.id };
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
    const stored = this.put(ref.type, object);
    if (stored.metadata.deletionTimestamp !== undefined && (stored.metadata.finalizers ?? []).length === 0) this.#delete(ref);
    return stored;
  }

  #mustGet(ref: ObjectRef): KubeObject {
    return this.get(ref) ?? fail(404, 'NotFound', `${ref.type.kind} ${objectKey(ref.namespace, ref.name)} not found`);
  }

  /** Handlers that act on this world; plans run through the real interpreter. */
  handlers(): Handlers {
    const setFinalizers = (ref: ObjectRef, change: (current: readonly string[]) => readonly string[] | undefined) => {
      const current = this.get(ref);
      const next = current === undefined ? undefined : change(current.metadata.finalizers ?? []);
      if (current === undefined || next === undefined) return Promise.resolve({ outcome: 'unchanged' as const, outputs: {} });
      this.#update(ref, { ...current, metadata: { ...current.metadata, finalizers: next } });
      return Promise.resolve({ outcome: 'applied' as const, outputs: {} });
    };
    return {
      'k8s.create': (action, context) => {
        const body = context.resolveTemplate(action.object) as JsonObject;
        const ref: ObjectRef = { ...action.ref, name: context.resolve(action.ref.name) };
        const existing = this.get(ref);
        const { stringData, ...rest } = body;
        const normalised: JsonObject = isObject(stringData)
          ? { ...rest, data: { ...(isObject(rest['data']) ? rest['data'] : {}), ...Object.fromEntries(Object.entries(stringData).map(([k, v]) => [k, Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64')])) } }
          : body;
        if (existing !== undefined) {
          const same = Object.entries(normalised).every(([k, v]) => k === 'metadata' || k === 'apiVersion' || k === 'kind' || deepEqual(existing[k], v));
          if (!same) fail(409, 'AlreadyExists', `${ref.name} exists with different content`);
          return Promise.resolve({ outcome: 'unchanged', outputs: { object: existing } });
        }
        return Promise.resolve({ outcome: 'applied', outputs: { object: this.put(ref.type, normalised as unknown as KubeObject) } });
      },
      'k8s.apply': (action, context) => {
        const body = context.resolveTemplate(action.object) as JsonObject;
        const existing = this.get(action.ref);
        const merged = applyMergePatch(existing ?? {}, body) as unknown as KubeObject;
        if (existing !== undefined && deepEqual({ ...merged, metadata: {} }, { ...existing, metadata: {} }) && deepEqual(merged.metadata.labels, existing.metadata.labels)) {
          return Promise.resolve({ outcome: 'unchanged', outputs: { object: existing } });
        }
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
      'k8s.addFinalizer': (action) => setFinalizers(action.ref, (f) => (f.includes(action.finalizer) ? undefined : [...f, action.finalizer])),
      'k8s.removeFinalizer': (action) => setFinalizers(action.ref, (f) => (f.includes(action.finalizer) ? f.filter((x) => x !== action.finalizer) : undefined)),
      'k8s.status': (action, context) => {
        const current = this.#mustGet(action.ref);
        if (action.precondition?.resourceVersion !== undefined && action.precondition.resourceVersion !== current.metadata.resourceVersion) fail(409, 'Conflict', 'resourceVersion precondition failed');
        const metadata: ObjectMeta = current.metadata;
        this.#objects.set(InMemoryWorld.#key(action.ref.type, metadata.namespace, metadata.name), {
          ...current,
          metadata: { ...metadata, resourceVersion: String(this.#next()) },
          // As the real handler does: a merge patch from the status the plan saw to the one it wants.
          status: applyMergePatch(current['status'], mergePatch(action.observed ?? {}, context.resolveTemplate(action.status))),
        });
        return Promise.resolve({ outcome: 'applied', outputs: {} });
      },
      'k8s.event': (action) => {
        this.events.push({ reason: action.reason, type: action.type, note: eventNote(action.note), regarding: objectKey(action.regarding.namespace, action.regarding.name) });
        return Promise.resolve({ outcome: 'applied', outputs: {} });
      },
      'keystone.authenticate': (action) => {
        const password = action.password instanceof Sensitive ? action.password : this.#secretKey(action.password);
        return Promise.resolve({ outcome: 'unchanged', outputs: { session: this.#login(action.userName, password) } });
      },
      'keystone.createApplicationCredential': (action, context) => {
        const session = context.resolve(action.session);
        if ([...this.#credentials.values()].some((c) => c.userId === session.userId && c.name === action.name)) fail(409, 'Conflict', `application credential ${action.name} exists`, 'keystone');
        // Keystone ids are 32 hex characters; derived from a counter so runs are repeatable.
        const id = createHash('sha256').update(String(this.#next())).digest('hex').slice(0, 32);
        const secret = `secret-${id}`;
        const expiresAt = action.expiresAt === undefined ? null : action.expiresAt.slice(0, 26);
        this.#credentials.set(id, { id, name: action.name, description: action.description, expiresAt, userId: session.userId, secret });
        return Promise.resolve({ outcome: 'applied', outputs: { id, name: action.name, secret: sensitive(secret), expiresAt } });
      },
      'keystone.listApplicationCredentials': (action, context) => {
        const session = context.resolve(action.session);
        const credentials = this.credentials(session.userId).filter((c) => action.name === undefined || c.name === action.name);
        return Promise.resolve({ outcome: 'unchanged', outputs: { credentials } });
      },
      'keystone.revokeApplicationCredential': (action, context) => {
        const session = context.resolve(action.session);
        const { name, keep = [] } = action;
        const ids = name === undefined ? [context.resolve(action.id)] : this.credentials(session.userId).filter((c) => c.name === name && !keep.includes(c.id)).map((c) => c.id);
        const removed = ids.filter((id) => this.#credentials.delete(id)).length > 0;
        return Promise.resolve({ outcome: removed ? 'applied' : 'unchanged', outputs: {} });
      },
      'control.requeueAfter': () => Promise.resolve({ outcome: 'unchanged', outputs: {} }),
    };
  }

  /** Runs a plan against this world through the real interpreter. */
  run(plan: Plan): Promise<PlanResult> {
    return interpret(plan, this.handlers());
  }
}
