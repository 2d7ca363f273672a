import { describe, expect, it } from '@jest/globals';
import { KeywardError } from '../../src/interpreter/errors.js';
import { converge, reconcileOnce, type ReconcileTarget } from '../../src/testing/reconcile-once.js';
import { InMemoryWorld } from '../../src/testing/world.js';
import { NOW, copier, ref, worldWith, type Action } from './copier.js';

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

describe('converge in an in-memory world', () => {
  it('reconciles until a plan changes nothing, running `between` in between, and returns every round', async () => {
    const world = worldWith('source', { data: { a: '1' } });
    const between: number[] = [];
    const rounds = await converge(copier, world, ref('source'), { config: null, now: () => NOW, between: (round) => { between.push(round); } });

    expect(rounds.map((round) => round.result?.steps.map((step) => step.kind))).toEqual([['k8s.create', 'control.requeueAfter'], ['control.requeueAfter']]);
    expect(between).toEqual([1]);
    expect(world.get(ref('source-copy'))?.['data']).toEqual({ a: '1' });
  });

  it('stops at a failure that only a change can fix, as the runtime waits for one', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    const strict: typeof copier = { ...copier, errorPolicy: () => ({ next: 'waitForChange', report: true }) };
    const rounds = await converge(strict, world, ref('source'), { config: null, now: () => NOW });

    expect(rounds).toHaveLength(1);
    expect(rounds[0]?.requeue).toEqual({ kind: 'onChange' });
  });

  it('stops at a failure that only an edit can fix, which the controller records', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    const recording: typeof copier = { ...copier, errorPolicy: () => ({ next: 'waitForEdit', report: true }), heldGeneration: () => undefined };
    const rounds = await converge(recording, world, ref('source'), { config: null, now: () => NOW });

    expect(rounds.map((round) => round.requeue)).toEqual([{ kind: 'onEdit' }]);
  });

  it('retries a failure that may pass, and fails when the bound is reached without settling', async () => {
    const world = worldWith('source', { data: { a: '1' }, annotations: { 'test/fail': 'conflict' } });
    await expect(converge(copier, world, ref('source'), { config: null, now: () => NOW, maxRounds: 3 })).rejects.toThrow('ConfigMap ns/source did not converge in 3 reconciles');
  });

  it('ends when the object is gone', async () => {
    const world = worldWith('source', { data: { a: '1' } });
    const leaving: typeof copier = { ...copier, reconcile: ({ primary }) => ({ steps: [{ id: 's1', action: { kind: 'k8s.delete', ref: ref(primary.metadata.name) }, reason: 'go' }] }) };
    const rounds = await converge(leaving, world, ref('source'), { config: null, now: () => NOW });

    expect(rounds).toHaveLength(1);
    expect(world.get(ref('source'))).toBeUndefined();
  });
});
