import { describeRef, DNS1123_SUBDOMAIN_MAX_LENGTH, truncateWithHash, eventNote } from '@keyward/kernel/model';
import { hasStatedContent, FIELD_CONFLICT, mergePatch, type KubernetesAction, type ObservedFinalizers, type Precondition, type Json } from '@keyward/kernel/plan';
import { type ObjectRef, type KubeObject } from '@keyward/kernel';
import { KeywardError, type HandlerTable } from '@keyward/kernel/interpreter';
import { ContentType, type KubeClient } from './client.js';
import { resourcePath } from './paths.js';
import { randomBytes } from 'node:crypto';

export interface KubernetesHandlerOptions {
  /** events.k8s.io reportingController, e.g. "keyward.dev/keystone-appcred". */
  readonly reportingController: string;
  /** events.k8s.io reportingInstance: this process (pod name or host name). */
  readonly reportingInstance: string;
  readonly now?: () => Date;
}

/** Attempts for a read-modify-write that lost a race with another writer. */
const CONFLICT_ATTEMPTS = 5;

function isConflict(error: unknown): boolean {
  return error instanceof KeywardError && error.code === 409;
}

/** An apply refused because another field manager owns a field it sets: a failure to report, not a stale view. */
function fieldConflict(error: Pick<KeywardError, 'message'>): KeywardError {
  return new KeywardError({ api: 'kubernetes', code: 409, reason: FIELD_CONFLICT, message: error.message, retryable: false });
}

function changed(before: KubeObject | undefined, after: KubeObject): 'applied' | 'unchanged' {
  return before?.metadata.resourceVersion === after.metadata.resourceVersion ? 'unchanged' : 'applied';
}

/** "<object>.<time><random>" as client-go names events (generateName must itself be a valid name, "x." is not). */
function eventName(objectName: string, time: Date): string {
  const suffix = `${time.getTime().toString(16)}${randomBytes(3).toString('hex')}`;
  return `${truncateWithHash(objectName, DNS1123_SUBDOMAIN_MAX_LENGTH - suffix.length - 1)}.${suffix}`;
}

/** core/v1 Events: the events.k8s.io/v1 resource's older face, which takes the fields core/v1 readers show. */
const CORE_EVENT = { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true } as const;

/** metav1.Time: RFC 3339 in whole seconds. */
function secondsTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
function microTime(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

function preconditionMetadata(precondition: Precondition | undefined): Json {
  const meta: Record<string, Json> = {};
  if (precondition?.uid !== undefined) meta['uid'] = precondition.uid;
  if (precondition?.resourceVersion !== undefined) meta['resourceVersion'] = precondition.resourceVersion;
  return meta;
}

/**
 * Changes an object's finalizers with a read-modify-write guarded by resourceVersion; on a conflict it reads
 * again and retries, which is safe because the change is decided afresh from the new read. When the plan says
 * what it observed and that calls for a change, the first write starts from it instead of a read: a view that
 * lagged is refused by the resourceVersion (or the object is gone), and the change is then made as without it.
 */
async function updateFinalizers(
  client: KubeClient,
  ref: ObjectRef,
  observed: ObservedFinalizers | undefined,
  change: (current: readonly string[]) => readonly string[] | undefined,
  annotations?: Readonly<Record<string, string>>,
): Promise<'applied' | 'unchanged'> {
  const planned = observed === undefined ? undefined : change(observed.finalizers);
  if (observed !== undefined && planned !== undefined) {
    try {
      await patchFinalizers(client, ref, observed.resourceVersion, planned, annotations);
      return 'applied';
    } catch (error) {
      if (!isConflict(error) && !(error instanceof KeywardError && error.code === 404)) throw error;
    }
  }
  for (let attempt = 1; ; attempt++) {
    const current = await client.get(ref);
    if (current === undefined) return 'unchanged';
    const next = change(current.metadata.finalizers ?? []);
    if (next === undefined) return 'unchanged';
    try {
      await patchFinalizers(client, ref, current.metadata.resourceVersion ?? '', next, annotations);
      return 'applied';
    } catch (error) {
      if (!isConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
    }
  }
}

/** One merge patch of the finalizers, guarded by `resourceVersion`, with the annotations recorded alongside (see AddFinalizerAction). */
async function patchFinalizers(client: KubeClient, ref: ObjectRef, resourceVersion: string, finalizers: readonly string[], annotations?: Readonly<Record<string, string>>): Promise<void> {
  await client.patch(ref, { metadata: { resourceVersion, finalizers, ...(annotations === undefined ? {} : { annotations }) } }, ContentType.mergePatch);
}

/** Handlers for every Kubernetes action, over one client. */
export function kubernetesHandlers(client: KubeClient, options: KubernetesHandlerOptions): HandlerTable<KubernetesAction> {
  const now = options.now ?? (() => new Date());
  return {
    'k8s.apply': async (action, context) => {
      try {
        const object = await client.apply(action.ref, context.resolveTemplate(action.object), action.force ?? false);
        return { outcome: changed(action.observed, object), outputs: { object } };
      } catch (error) {
        // Another manager owns a field we state with a different value: reading again does not settle it.
        if (isConflict(error)) throw fieldConflict(error as KeywardError);
        throw error;
      }
    },

    'k8s.create': async (action, context) => {
      const body = context.resolveTemplate(action.object);
      const ref: ObjectRef = { ...action.ref, name: context.resolve(action.ref.name) };
      try {
        return { outcome: 'applied', outputs: { object: await client.create(ref, body) } };
      } catch (error) {
        if (!isConflict(error)) throw error;
        const existing = await client.get(ref);
        if (existing !== undefined && hasStatedContent(existing, body)) return { outcome: 'unchanged', outputs: { object: existing } };
        throw new KeywardError({
          api: 'kubernetes',
          code: 409,
          reason: 'AlreadyExists',
          message: `create ${describeRef(ref)}: it already exists with different content, and it is not changed in place`,
          retryable: false,
        });
      }
    },

    'k8s.patch': async (action, context) => {
      const { patch, precondition } = action;
      if (patch.type === 'merge') {
        const body = context.resolveTemplate(patch.body) as Record<string, Json>;
        const metadata = { ...(body['metadata'] as Record<string, Json> | undefined), ...(preconditionMetadata(precondition) as Record<string, Json>) };
        const object = await client.patch(action.ref, Object.keys(metadata).length === 0 ? body : { ...body, metadata }, ContentType.mergePatch);
        return { outcome: changed(action.observed, object), outputs: { object } };
      }
      const tests = Object.entries(preconditionMetadata(precondition) as Record<string, Json>).map(([field, value]) => ({ op: 'test', path: `/metadata/${field}`, value }));
      const operations = patch.operations.map((op) => (op.value === undefined ? { op: op.op, path: op.path } : { op: op.op, path: op.path, value: context.resolveTemplate(op.value) }));
      const object = await client.patch(action.ref, [...tests, ...operations], ContentType.jsonPatch);
      return { outcome: changed(action.observed, object), outputs: { object } };
    },

    'k8s.delete': async (action) => {
      const deleted = await client.delete(action.ref, {
        ...(action.precondition === undefined ? {} : { preconditions: { ...action.precondition } }),
        ...(action.propagation === undefined ? {} : { propagationPolicy: action.propagation }),
      });
      return { outcome: deleted ? 'applied' : 'unchanged', outputs: {} };
    },

    'k8s.addFinalizer': async (action) => ({
      outcome: await updateFinalizers(client, action.ref, action.observed, (current) => (current.includes(action.finalizer) ? undefined : [...current, action.finalizer]), action.annotations),
      outputs: {},
    }),

    'k8s.removeFinalizer': async (action) => ({
      outcome: await updateFinalizers(client, action.ref, action.observed, (current) =>
        current.includes(action.finalizer) ? current.filter((f) => f !== action.finalizer) : undefined,
      ),
      outputs: {},
    }),

    'k8s.status': async (action, context) => {
      const desired = context.resolveTemplate(action.status);
      const metadata = preconditionMetadata(action.precondition) as Record<string, Json>;
      const body = { status: mergePatch(action.observed ?? {}, desired), ...(Object.keys(metadata).length === 0 ? {} : { metadata }) };
      await client.patch(action.ref, body, ContentType.mergePatch, 'status');
      return { outcome: 'applied', outputs: {} };
    },

    'k8s.event': async (action) => {
      const { regarding } = action;
      const namespace = regarding.namespace ?? 'default';
      const at = now();
      const reportingController = action.reportingController ?? options.reportingController;
      await client.raw({
        method: 'POST',
        path: resourcePath(CORE_EVENT, namespace),
        // A core/v1 Event with the events.k8s.io fields too: read through either API it is whole. core/v1 readers
        // (kubectl describe, dashboards, the upstream controllers' tooling) want source, count and timestamps,
        // which events.k8s.io/v1 refuses on create.
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: eventName(regarding.name, at), namespace },
          involvedObject: {
            apiVersion: regarding.type.group === '' ? regarding.type.version : `${regarding.type.group}/${regarding.type.version}`,
            kind: regarding.type.kind,
            name: regarding.name,
            namespace: regarding.namespace,
            uid: regarding.uid,
          },
          reason: action.reason,
          message: eventNote(action.note),
          type: action.type,
          source: { component: reportingController, host: options.reportingInstance },
          firstTimestamp: secondsTime(at),
          lastTimestamp: secondsTime(at),
          count: 1,
          eventTime: microTime(at),
          action: action.action,
          reportingComponent: reportingController,
          reportingInstance: options.reportingInstance,
        },
        what: `record event ${action.reason} on ${describeRef(regarding)}`,
        verb: 'create',
        resource: 'events',
      });
      return { outcome: 'applied', outputs: {} };
    },
  };
}
