import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { adminKubeConfig, createTestNamespace } from '@keyward/test-env';
import { coreTypes, sensitive, vocabulary, PlanBuilder, kubernetesApi, type ResourceType, type Plan } from '@keyward/kernel';
import { type KubernetesAction } from '@keyward/kernel/plan';
import { ContentType, KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesHandlers } from '../../src/apis/kubernetes/io/handlers.js';
import { interpret, KeywardError, type Executor, type PlanResult } from '@keyward/kernel/interpreter';

const widgetType: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };

let client: KubeClient;
let executor: Executor<KubernetesAction>;
let namespace: string;

beforeAll(async () => {
  client = new KubeClient(adminKubeConfig());
  executor = {
    handlers: kubernetesHandlers(client, { reportingController: 'keyward.dev/test', reportingInstance: 'test-1' }),
    vocabulary: vocabulary(kubernetesApi),
  };
  namespace = await createTestNamespace('interp-k8s');
});

afterAll(() => {
  client.close();
});

function single(action: KubernetesAction): Plan<KubernetesAction> {
  const plan = new PlanBuilder<KubernetesAction>();
  plan.add(action, 'test');
  return plan.build();
}

async function run(action: KubernetesAction): Promise<PlanResult> {
  return interpret(single(action), executor);
}

const secretRef = (name: string) => ({ type: coreTypes.secret, namespace, name });
const configMapRef = (name: string) => ({ type: coreTypes.configMap, namespace, name });

describe('Kubernetes handlers against the real API server', () => {
  it('names a field manager on every write: keyward by default, or the one an embedding program sets', async () => {
    // Who owns a field shows in the conflict an apply of another value meets.
    const conflictOf = (promise: Promise<unknown>): Promise<string> => promise.then(() => 'no conflict', (error: unknown) => (error instanceof KeywardError ? error.message : String(error)));
    const own = new KubeClient(adminKubeConfig(), { fieldManager: 'example.com-my-operator' });
    try {
      await run({ kind: 'k8s.create', ref: configMapRef('managed'), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'managed', namespace }, data: { x: '1' } } });
      await run({ kind: 'k8s.patch', ref: configMapRef('managed'), patch: { type: 'merge', body: { data: { y: '1' } } } });
      const body = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
      expect(await conflictOf(own.apply(configMapRef('managed'), body('managed', { x: '2' })))).toContain('conflict with "keyward"');
      expect(await conflictOf(own.apply(configMapRef('managed'), body('managed', { y: '2' })))).toContain('conflict with "keyward"');

      await own.create(configMapRef('managed-by-another'), { metadata: { name: 'managed-by-another' }, data: { x: '1' } });
      expect(await conflictOf(client.apply(configMapRef('managed-by-another'), body('managed-by-another', { x: '2' })))).toContain('conflict with "example.com-my-operator"');
    } finally {
      own.close();
    }
  });

  it('create-only: creates, treats an identical existing object as success, refuses to change one in place', async () => {
    const object = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'immutable', namespace, labels: { a: 'b' } }, immutable: true, stringData: { key: sensitive('value-1') } };
    expect((await run({ kind: 'k8s.create', ref: secretRef('immutable'), object })).steps[0]?.outcome).toBe('applied');
    expect((await run({ kind: 'k8s.create', ref: secretRef('immutable'), object })).steps[0]?.outcome).toBe('unchanged');

    const different = await run({ kind: 'k8s.create', ref: secretRef('immutable'), object: { ...object, stringData: { key: sensitive('value-2') } } });
    expect(different.ok).toBe(false);
    expect(different.error).toMatchObject({ reason: 'AlreadyExists', retryable: false });
    expect(JSON.stringify(different)).not.toContain('value-2');
  });

  it('apply: server-side apply as keyward, unchanged when nothing differs', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace }, data: { a: '1' } };
    const first = await client.apply(configMapRef('applied'), body);
    expect(first.metadata['managedFields']).toEqual(expect.arrayContaining([expect.objectContaining({ manager: 'keyward', operation: 'Apply' })]));
    expect((await run({ kind: 'k8s.apply', ref: configMapRef('applied'), object: body, observed: first })).steps[0]?.outcome).toBe('unchanged');
    const changed = await run({ kind: 'k8s.apply', ref: configMapRef('applied'), object: { ...body, data: { a: '2' } }, observed: first });
    expect(changed.steps[0]?.outcome).toBe('applied');
    expect((await client.get(configMapRef('applied')))?.['data']).toEqual({ a: '2' });
  });

  it('patch: merge and JSON patches honour resourceVersion and uid preconditions', async () => {
    const created = await client.create(configMapRef('patched'), { metadata: { name: 'patched' }, data: { a: '1' } });
    const stale = await run({ kind: 'k8s.patch', ref: configMapRef('patched'), patch: { type: 'merge', body: { data: { a: '2' } } }, precondition: { resourceVersion: '1' } });
    expect(stale.error).toMatchObject({ code: 409, reason: 'Conflict', retryable: true });

    const fresh = await run({ kind: 'k8s.patch', ref: configMapRef('patched'), patch: { type: 'merge', body: { data: { a: '2' } } }, precondition: { resourceVersion: created.metadata.resourceVersion ?? '' } });
    expect(fresh.steps[0]?.outcome).toBe('applied');

    const wrongUid = await run({ kind: 'k8s.patch', ref: configMapRef('patched'), patch: { type: 'json', operations: [{ op: 'add', path: '/data/b', value: '3' }] }, precondition: { uid: 'not-the-uid' } });
    expect(wrongUid.ok).toBe(false);
    const rightUid = await run({ kind: 'k8s.patch', ref: configMapRef('patched'), patch: { type: 'json', operations: [{ op: 'add', path: '/data/b', value: '3' }] }, precondition: { uid: created.metadata.uid ?? '' } });
    expect(rightUid.ok).toBe(true);
    expect((await client.get(configMapRef('patched')))?.['data']).toEqual({ a: '2', b: '3' });
  });

  it('delete: refuses on a uid mismatch, deletes, then reports an absent object as unchanged', async () => {
    const created = await client.create(configMapRef('doomed'), { metadata: { name: 'doomed' } });
    const mismatch = await run({ kind: 'k8s.delete', ref: configMapRef('doomed'), precondition: { uid: 'someone-else' } });
    expect(mismatch.error).toMatchObject({ code: 409 });
    expect((await run({ kind: 'k8s.delete', ref: configMapRef('doomed'), precondition: { uid: created.metadata.uid ?? '' } })).steps[0]?.outcome).toBe('applied');
    expect((await run({ kind: 'k8s.delete', ref: configMapRef('doomed') })).steps[0]?.outcome).toBe('unchanged');
  });

  it('finalizers: added once, removed once', async () => {
    await client.create(configMapRef('guarded'), { metadata: { name: 'guarded' } });
    const add = { kind: 'k8s.addFinalizer', ref: configMapRef('guarded'), finalizer: 'keyward.dev/test' } as const;
    expect((await run(add)).steps[0]?.outcome).toBe('applied');
    expect((await run(add)).steps[0]?.outcome).toBe('unchanged');
    expect((await client.get(configMapRef('guarded')))?.metadata.finalizers).toEqual(['keyward.dev/test']);
    const remove = { kind: 'k8s.removeFinalizer', ref: configMapRef('guarded'), finalizer: 'keyward.dev/test' } as const;
    expect((await run(remove)).steps[0]?.outcome).toBe('applied');
    expect((await run(remove)).steps[0]?.outcome).toBe('unchanged');
    expect((await client.get(configMapRef('guarded')))?.metadata.finalizers).toBeUndefined();
  });

  it('finalizers from what the plan observed: no read when it is current; a stale view is refused and redone from a read', async () => {
    const reads: string[] = [];
    const counting = new KubeClient(adminKubeConfig(), { onRequest: (info) => { if (info.verb === 'get') reads.push(info.resource); } });
    const counted: Executor<KubernetesAction> = { handlers: kubernetesHandlers(counting, { reportingController: 'keyward.dev/test', reportingInstance: 'test-1' }), vocabulary: executor.vocabulary };
    try {
      const created = await client.create(configMapRef('observed'), { metadata: { name: 'observed' } });
      const seen = { resourceVersion: created.metadata.resourceVersion ?? '', finalizers: [] };
      const add = (finalizer: string) => single({ kind: 'k8s.addFinalizer', ref: configMapRef('observed'), finalizer, observed: seen });
      expect((await interpret(add('keyward.dev/first'), counted)).steps[0]?.outcome).toBe('applied');
      expect(reads).toEqual([]);
      // The same view again is stale now: the resourceVersion refuses it, and a read decides afresh, keeping
      // the finalizer written meanwhile.
      expect((await interpret(add('keyward.dev/second'), counted)).steps[0]?.outcome).toBe('applied');
      expect(reads).toEqual(['configmaps']);
      expect((await client.get(configMapRef('observed')))?.metadata.finalizers).toEqual(['keyward.dev/first', 'keyward.dev/second']);
      // A stale view asking for a finalizer that is there by now: unchanged, after the read. A view that calls
      // for no change is not trusted to say so: the object is read.
      expect((await interpret(add('keyward.dev/first'), counted)).steps[0]?.outcome).toBe('unchanged');
      expect((await interpret(single({ kind: 'k8s.addFinalizer', ref: configMapRef('observed'), finalizer: 'keyward.dev/first', observed: { ...seen, finalizers: ['keyward.dev/first'] } }), counted)).steps[0]?.outcome).toBe('unchanged');
      expect(reads).toEqual(['configmaps', 'configmaps', 'configmaps']);
      // Gone since it was observed: unchanged, as without a view.
      await client.patch(configMapRef('observed'), { metadata: { finalizers: null } }, ContentType.mergePatch);
      await client.delete(configMapRef('observed'));
      const remove = single({ kind: 'k8s.removeFinalizer', ref: configMapRef('observed'), finalizer: 'keyward.dev/first', observed: { ...seen, finalizers: ['keyward.dev/first'] } });
      expect((await interpret(remove, counted)).steps[0]?.outcome).toBe('unchanged');
    } finally {
      counting.close();
    }
  });

  it('status: writes the whole desired status through the subresource, clearing what it no longer states', async () => {
    const ref = { type: widgetType, namespace, name: 'w' };
    await client.create(ref, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, limit: 2 } });
    expect((await run({ kind: 'k8s.status', ref, status: { phase: 'Ready' } })).ok).toBe(true);
    const withPhase = await client.get(ref);
    expect(withPhase?.['status']).toEqual({ phase: 'Ready' });
    expect((await run({ kind: 'k8s.status', ref, status: {}, observed: withPhase?.['status'] as Record<string, unknown> })).ok).toBe(true);
    const cleared = await client.get(ref);
    expect(cleared?.['status'] ?? {}).toEqual({});
  });

  it('events: recorded through events.k8s.io/v1 about the object', async () => {
    const owner = await client.create(configMapRef('eventful'), { metadata: { name: 'eventful' } });
    const result = await run({ kind: 'k8s.event', regarding: { ...configMapRef('eventful'), uid: owner.metadata.uid }, type: 'Normal', reason: 'Tested', note: 'an event from the test', action: 'Test' });
    expect(result.error).toBeUndefined();
    const events = await client.raw<{ items: { reason: string; note: string; regarding: { uid: string }; reportingController: string }[] }>({
      method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events',
    });
    expect(events.items).toEqual(expect.arrayContaining([expect.objectContaining({ reason: 'Tested', note: 'an event from the test', reportingController: 'keyward.dev/test', regarding: expect.objectContaining({ uid: owner.metadata.uid }) })]));
  });

  it('events: read as core/v1 Events, they have the source, count and timestamps the upstream controllers fill', async () => {
    const owner = await client.create(configMapRef('legacy'), { metadata: { name: 'legacy' } });
    const result = await run({ kind: 'k8s.event', regarding: { ...configMapRef('legacy'), uid: owner.metadata.uid }, type: 'Warning', reason: 'Legacy', note: 'read the old way', action: 'Test' });
    expect(result.error).toBeUndefined();
    const core = await client.raw<{ items: Record<string, unknown>[] }>({ method: 'GET', path: `/api/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
    const event = core.items.find((item) => item['reason'] === 'Legacy');
    expect(event).toMatchObject({
      involvedObject: { kind: 'ConfigMap', name: 'legacy', uid: owner.metadata.uid },
      message: 'read the old way',
      type: 'Warning',
      source: { component: 'keyward.dev/test', host: 'test-1' },
      count: 1,
      reportingComponent: 'keyward.dev/test',
      reportingInstance: 'test-1',
      action: 'Test',
    });
    expect(event?.['firstTimestamp']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(event?.['lastTimestamp']).toBe(event?.['firstTimestamp']);
    expect(event?.['eventTime']).toEqual(expect.any(String));
    const current = await client.raw<{ items: Record<string, unknown>[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
    expect(current.items.find((item) => item['reason'] === 'Legacy')).toMatchObject({ note: 'read the old way', regarding: { uid: owner.metadata.uid }, deprecatedCount: 1, deprecatedSource: { component: 'keyward.dev/test' } });
  });

  it('events: an event may name its reporter, as a drop-in for another controller does', async () => {
    const owner = await client.create(configMapRef('reported'), { metadata: { name: 'reported' } });
    const result = await run({ kind: 'k8s.event', regarding: { ...configMapRef('reported'), uid: owner.metadata.uid }, type: 'Normal', reason: 'Reported', note: 'as the upstream controller', action: 'Test', reportingController: 'upstream-controller' });
    expect(result.error).toBeUndefined();
    const events = await client.raw<{ items: { reason: string; reportingController: string; reportingInstance: string }[] }>({
      method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events',
    });
    expect(events.items.filter((e) => e.reason === 'Reported').map((e) => [e.reportingController, e.reportingInstance])).toEqual([['upstream-controller', 'test-1']]);
  });

  it('events: a note carrying controls or bidi overrides from user input is written escaped', async () => {
    const owner = await client.create(configMapRef('bidi'), { metadata: { name: 'bidi' } });
    const result = await run({ kind: 'k8s.event', regarding: { ...configMapRef('bidi'), uid: owner.metadata.uid }, type: 'Warning', reason: 'Escaped', note: 'user \u202Etxt.exe\u202C\nsecond line', action: 'Test' });
    expect(result.error).toBeUndefined();
    const events = await client.raw<{ items: { reason: string; note: string }[] }>({
      method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events',
    });
    expect(events.items.filter((e) => e.reason === 'Escaped').map((e) => e.note)).toEqual(['user \\u{202E}txt.exe\\u{202C}\\u{000A}second line']);
  });

  it('references and compensation: a later step uses an earlier output; a failure undoes what was applied', async () => {
    const plan = new PlanBuilder<KubernetesAction>();
    const owner = plan.add(
      { kind: 'k8s.create', ref: configMapRef('owner'), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace } } },
      'an owner',
      () => ({ action: { kind: 'k8s.delete', ref: configMapRef('owner') }, reason: 'undo the owner' }),
    );
    plan.add(
      { kind: 'k8s.create', ref: configMapRef('owned'), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', namespace }, data: { owner: owner.output('object') as never } } },
      'uses the owner object (not a string: the server rejects it)',
    );
    plan.add({ kind: 'k8s.create', ref: configMapRef('never'), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'never', namespace } } }, 'skipped');
    const result = await interpret(plan.build(), executor);
    expect(result.steps.map((s) => s.outcome)).toEqual(['applied', 'failed', 'skipped']);
    expect(result.error).toMatchObject({ api: 'kubernetes', code: 400 });
    expect(result.compensations.map((c) => [c.summary, c.outcome])).toEqual([[`delete ConfigMap ${namespace}/owner`, 'applied']]);
    expect(await client.get(configMapRef('owner'))).toBeUndefined();
    expect(await client.get(configMapRef('never'))).toBeUndefined();
  });

  it('reports an API server that is not there as retryable Unavailable', async () => {
    const config = adminKubeConfig();
    const cluster = config.getCurrentCluster();
    config.loadFromOptions({ ...config, clusters: [{ ...cluster, name: cluster?.name ?? 'x', server: 'https://127.0.0.1:1' }], currentContext: config.getCurrentContext() });
    const offline = new KubeClient(config);
    const error = await offline.get(configMapRef('x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeywardError);
    expect(error).toMatchObject({ code: 0, reason: 'Unavailable', retryable: true });
  });

  it('keeps its TLS connections alive: of twenty requests in a row, only the first opens a connection', async () => {
    const fresh = new KubeClient(adminKubeConfig());
    const reused: boolean[] = [];
    const record = (message: unknown): void => { reused.push((message as { request: { reusedSocket: boolean } }).request.reusedSocket); };
    subscribe('http.client.response.finish', record);
    try {
      for (let i = 0; i < 20; i += 1) await fresh.get(configMapRef('absent'));
    } finally {
      unsubscribe('http.client.response.finish', record);
      fresh.close();
    }
    expect(reused).toEqual([false, ...Array<boolean>(19).fill(true)]);
  });
});
