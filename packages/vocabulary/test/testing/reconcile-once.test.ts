import { describe, expect, it } from '@jest/globals';
import { left, right } from 'fp-ts/lib/Either.js';
import { coreTypes, type ObjectRef } from '../../src/model/refs.js';
import { vocabulary } from '../../src/plan/api.js';
import type { ControllerDefinition } from '../../src/plan/controller.js';
import { PlanBuilder } from '../../src/plan/plan.js';
import { controlApi, type ControlAction } from '../../src/apis/control/index.js';
import { kubernetesApi, type GetQuery, type KubeObject, type KubernetesAction } from '../../src/apis/kubernetes/index.js';
import { KeywardError } from '../../src/interpreter/errors.js';
import { reconcileOnce, type ReconcileTarget } from '../../src/testing/reconcile-once.js';
import { InMemoryWorld } from '../../src/testing/world.js';

type Action = KubernetesAction | ControlAction;

interface CopyQueries {
  readonly [name: string]: GetQuery | undefined;
  readonly copy: GetQuery;
}

const NAMESPACE = 'ns';
const NOW = new Date('2026-03-01T12:00:00Z');
const ref = (name: string): ObjectRef => ({ type: coreTypes.configMap, namespace: NAMESPACE, name });

/**
 * Keeps a copy "<name>-copy" of each ConfigMap's data. What its annotation `test/fail` names goes wrong on the
 * way: "conflict" patches with a stale resourceVersion, "missing" patches an object that does not exist.
 * Failures and invalid objects are reported as Warning events.
 */
const copier: ControllerDefinition<KubeObject, CopyQueries, null, Action> = {
  name: 'copier',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: {
    type: coreTypes.configMap,
    decode: (object) => (object['data'] === undefined ? left({ message: 'data: required', problems: [{ path: 'data', message: 'required' }] }) : right(object)),
  },
  secondary: () => [],
  observe: (primary) => ({ copy: { kind: 'k8s.get', ref: ref(`${primary.metadata.name}-copy`) } }),
  reconcile: ({ primary, observed }) => {
    const plan = new PlanBuilder<Action>();
    const name = `${primary.metadata.name}-copy`;
    if (observed.copy === undefined) {
      plan.add({ kind: 'k8s.create', ref: ref(name), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NAMESPACE }, data: primary['data'] as Record<string, string> } }, 'the copy is missing');
    }
    const fail = primary.metadata.annotations?.['test/fail'];
    if (fail === 'conflict') plan.add({ kind: 'k8s.patch', ref: ref(primary.metadata.name), patch: { type: 'merge', body: {} }, precondition: { resourceVersion: 'stale' } }, 'a write from a stale view');
    if (fail === 'missing') plan.add({ kind: 'k8s.patch', ref: ref('nowhere'), patch: { type: 'merge', body: {} } }, 'a write to nothing');
    plan.add({ kind: 'control.requeueAfter', afterMs: 60_000 }, 'check again');
    return plan.build();
  },
  reportFailure: (primary, failure) => {
    const plan = new PlanBuilder<Action>();
    plan.add({ kind: 'k8s.event', regarding: ref(primary.metadata.name), type: 'Warning', reason: `Failed${failure.reason}`, note: `${failure.step} (${failure.action}): ${failure.message}`, action: 'Copy' }, 'report');
    return plan.build();
  },
  reportInvalid: (object, failure) => {
    const plan = new PlanBuilder<Action>();
    plan.add({ kind: 'k8s.event', regarding: ref(object.metadata.name), type: 'Warning', reason: 'InvalidSpec', note: failure.message, action: 'Validate' }, 'report');
    return plan.build();
  },
};

function worldWith(name: string, fields: { data?: Record<string, string>; annotations?: Record<string, string> }): InMemoryWorld {
  const world = new InMemoryWorld();
  world.put(coreTypes.configMap, { metadata: { name, namespace: NAMESPACE, ...(fields.annotations === undefined ? {} : { annotations: fields.annotations }) }, ...(fields.data === undefined ? {} : { data: fields.data }) });
  return world;
}

const options = { config: null, now: NOW };

describe('reconcileOnce in an in-memory world', () => {
  it('decides from what it reads and runs the plan', async () => {
    const world = worldWith('source', { data: { a: '1' } });
    const once = await reconcileOnce(copier, world, ref('source'), options);

    expect(once.decision.kind).toBe('planned');
    expect(once.result?.steps.map((s) => [s.kind, s.outcome])).toEqual([['k8s.create', 'applied'], ['control.requeueAfter', 'unchanged']]);
    expect(once.next).toBeUndefined();
    expect(world.get(ref('source-copy'))?.['data']).toEqual({ a: '1' });
    // Converged: the next reconcile reads the copy and has nothing to create.
    const again = await reconcileOnce(copier, world, ref('source'), options);
    expect(again.result?.steps.map((s) => s.kind)).toEqual(['control.requeueAfter']);
  });

  it('runs the report of an object that does not decode, and nothing else', async () => {
    const world = worldWith('broken', {});
    const once = await reconcileOnce(copier, world, ref('broken'), options);

    expect(once.decision).toMatchObject({ kind: 'invalid', failure: { message: 'data: required' } });
    expect(once.result?.ok).toBe(true);
    expect(world.events).toEqual([{ reason: 'InvalidSpec', type: 'Warning', note: 'data: required', regarding: 'ns/broken' }]);
    expect(world.get(ref('broken-copy'))).toBeUndefined();
  });

  it('reports a failed step through reportFailure, naming the step, and says what follows', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    const once = await reconcileOnce(copier, world, ref('source'), options);

    expect(once.result?.ok).toBe(false);
    expect(once.result?.steps.map((s) => s.outcome)).toEqual(['applied', 'failed', 'skipped']);
    expect(once.next).toEqual({ next: 'backoff', report: true });
    expect(once.report?.result.ok).toBe(true);
    expect(world.events.map((e) => [e.reason, e.note])).toEqual([['FailedNotFound', 'patch ConfigMap ns/nowhere (merge patch) (k8s.patch): ConfigMap ns/nowhere not found']]);
  });

  it('does not report a Kubernetes Conflict: a stale view is retried, as the runtime does', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'conflict' } });
    const once = await reconcileOnce(copier, world, ref('source'), options);

    expect(once.result?.error).toMatchObject({ api: 'kubernetes', reason: 'Conflict' });
    expect(once.next).toEqual({ next: 'retry', report: false });
    expect(once.report).toBeUndefined();
    expect(world.events).toEqual([]);
  });

  it('follows the definition\'s own error policy when it has one', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'conflict' } });
    const strict: typeof copier = { ...copier, errorPolicy: () => ({ next: 'waitForChange', report: true }) };
    const once = await reconcileOnce(strict, world, ref('source'), options);

    expect(once.next).toEqual({ next: 'waitForChange', report: true });
    expect(world.events.map((e) => e.reason)).toEqual(['FailedConflict']);
  });

  it('reports a failed read as a failure of the step that reads the current state', async () => {
    const world = worldWith('source', { data: { a: '1' } });
    const unavailable = new KeywardError({ api: 'kubernetes', code: 503, reason: 'ServerError', message: 'the API server is busy', retryable: true });
    const target: ReconcileTarget<Action> = { get: (r) => world.get(r), read: () => Promise.reject(unavailable), run: (plan) => world.run(plan) };
    const once = await reconcileOnce(copier, target, ref('source'), options);

    expect(once.decision.kind).toBe('unreadable');
    expect(once.result).toBeUndefined();
    expect(once.next).toEqual({ next: 'backoff', report: true });
    expect(world.events.map((e) => [e.reason, e.note])).toEqual([['FailedServerError', 'read the current state (observe): the API server is busy']]);
    expect(world.get(ref('source-copy'))).toBeUndefined();
  });

  it('on a dry run decides and runs nothing, not even the report of an invalid object', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    const once = await reconcileOnce(copier, world, ref('source'), { ...options, dryRun: true });

    expect(once.decision.kind).toBe('planned');
    expect(once.decision.kind === 'planned' ? once.decision.plan.steps.map((s) => s.action.kind) : []).toEqual(['k8s.create', 'k8s.patch', 'control.requeueAfter']);
    expect([once.result, once.next, once.report]).toEqual([undefined, undefined, undefined]);
    expect(world.get(ref('source-copy'))).toBeUndefined();

    const broken = worldWith('broken', {});
    const invalid = await reconcileOnce(copier, broken, ref('broken'), { ...options, dryRun: true });
    expect(invalid.decision.kind).toBe('invalid');
    expect(broken.events).toEqual([]);
  });

  it('refuses an object that does not exist', async () => {
    await expect(reconcileOnce(copier, new InMemoryWorld(), ref('ghost'), options)).rejects.toThrow('ConfigMap ns/ghost does not exist');
  });
});
