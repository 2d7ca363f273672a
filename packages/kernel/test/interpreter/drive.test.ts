import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/apis/kubernetes/actions.js';
import type { Plan } from '../../src/plan/plan.js';
import type { Observed, Queries } from '../../src/plan/queries.js';
import { MAX_READ_BACKS, removeOrphans, runReconcile, type DriveOptions } from '../../src/interpreter/drive.js';
import { STOPPED } from '../../src/interpreter/interpret.js';
import type { PlanResult } from '../../src/interpreter/types.js';
import { fixedEntropy } from '../../src/testing/clock.js';
import type { InMemoryWorld } from '../../src/testing/world.js';
import { NAMESPACE, NOW, copier, ref, worldWith, type Action, type CopyQueries } from '../testing/copier.js';

type Copier = typeof copier;
type Options = DriveOptions<KubeObject, CopyQueries, null, Action>;

/** The driver on an in-memory world, telling `seen` each moment it passes. */
function options(world: InMemoryWorld, seen: string[], extra: Partial<Options> = {}): Options {
  return {
    read: <Q extends Queries>(queries: Q): Promise<Observed<Q>> => world.read(queries),
    run: async (plan: Plan<Action>) => {
      seen.push(`run ${plan.steps.map((step) => step.action.kind).join(',')}`);
      return world.run(plan);
    },
    config: null,
    now: NOW,
    entropy: fixedEntropy(),
    hooks: {
      decided: (decision) => { seen.push(`decided ${decision.kind}`); },
      ran: (_plan, result) => { seen.push(`ran ${String(result.ok)}`); },
      failed: (failure, next) => { seen.push(`failed ${failure.reason} ${next.next}`); },
      reportFailed: () => { seen.push('report failed'); },
    },
    ...extra,
  };
}

async function drive(definition: Copier, name: string, fields: Parameters<typeof worldWith>[1], extra?: Partial<Options>) {
  const world = worldWith(name, fields);
  const seen: string[] = [];
  const object = world.get(ref(name));
  if (object === undefined) throw new Error(`${name} is missing`);
  return { outcome: await runReconcile(definition, object, options(world, seen, extra)), seen, world };
}

/**
 * A copier whose failures only an edit can fix: its report records the generation that failed in annotation
 * `test/held`, where it reads it back.
 */
const recording: Copier = {
  ...copier,
  errorPolicy: () => ({ next: 'waitForEdit', report: true }),
  heldGeneration: (primary) => {
    const held = primary.metadata.annotations?.['test/held'];
    return held === undefined ? undefined : Number(held);
  },
  reportFailure: (primary) => ({
    steps: [{ id: 'record', action: { kind: 'k8s.patch', ref: ref(primary.metadata.name), patch: { type: 'merge', body: { metadata: { annotations: { 'test/held': String(primary.metadata.generation) } } } } }, reason: 'record the generation that failed' }],
  }),
};

/** A copier whose plans never ask to be checked again. */
const settled: Copier = { ...copier, reconcile: (input) => ({ steps: copier.reconcile(input).steps.filter((step) => step.action.kind !== 'control.requeueAfter') }) };

describe('runReconcile', () => {
  it('after a plan that succeeds, requeues when the plan asks, and otherwise waits for the next change', async () => {
    const asked = await drive(copier, 'source', { data: { a: '1' } });
    expect(asked.outcome.requeue).toEqual({ kind: 'after', afterMs: 60_000 });
    expect(asked.seen).toEqual(['decided planned', 'run k8s.create,control.requeueAfter', 'ran true']);

    const quiet = await drive(settled, 'source', { data: { a: '1' } });
    expect(quiet.outcome.requeue).toEqual({ kind: 'done' });
    expect(quiet.outcome.error).toBeUndefined();
  });

  it('says what the error policy decided, and reports the failure after telling the caller', async () => {
    const { outcome, seen, world } = await drive(copier, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    expect(outcome.requeue).toEqual({ kind: 'backoff' });
    expect(outcome.next).toEqual({ next: 'backoff', report: true });
    expect(outcome.error).toMatchObject({ reason: 'NotFound' });
    expect(seen).toEqual(['decided planned', 'run k8s.create,k8s.patch,control.requeueAfter', 'ran false', 'failed NotFound backoff', 'run k8s.event']);
    expect(world.events.map((event) => event.reason)).toEqual(['FailedNotFound']);
  });

  it('retries a stale view at once, without a report', async () => {
    const { outcome, seen } = await drive(copier, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'conflict' } });
    expect(outcome.requeue).toEqual({ kind: 'now' });
    expect(outcome.report).toBeUndefined();
    expect(seen.filter((moment) => moment.startsWith('run'))).toHaveLength(1);
  });

  it.each([
    [{ next: 'waitForChange', report: true } as const, { kind: 'onChange' }],
    [{ next: 'requeueAfter', afterMs: 5_000, report: true } as const, { kind: 'after', afterMs: 5_000 }],
  ])('turns the policy\'s %j into the requeue %j', async (response, requeue) => {
    const { outcome } = await drive({ ...copier, errorPolicy: () => response }, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    expect(outcome.requeue).toEqual(requeue);
  });

  it('after a failure only an edit can fix, records its generation and neither reads nor sends anything for it again until the object is edited', async () => {
    const { outcome, world } = await drive(recording, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    expect(outcome.next).toEqual({ next: 'waitForEdit', report: true });
    expect(outcome.requeue).toEqual({ kind: 'onEdit' });
    const recorded = world.get(ref('source'));
    if (recorded === undefined) throw new Error('source is missing');
    expect(recorded.metadata.annotations?.['test/held']).toBe(String(recorded.metadata.generation));

    // Whatever wakes it (a resync, a restart), the generation it failed at is held: nothing is read or run.
    const seen: string[] = [];
    const reading = (queries: CopyQueries) => {
      seen.push('read');
      return world.read(queries);
    };
    const held = await runReconcile(recording, recorded, options(world, seen, { read: reading }));
    expect(held.decision).toMatchObject({ kind: 'held', generation: recorded.metadata.generation });
    expect(held.requeue).toEqual({ kind: 'onEdit' });
    expect(seen).toEqual(['decided held']);

    // Its deletion is not held, nor its next generation.
    const deleting = { ...recorded, metadata: { ...recorded.metadata, deletionTimestamp: '2026-03-01T12:00:00Z' } };
    expect((await runReconcile(recording, deleting, options(world, [], { dryRun: true }))).decision.kind).toBe('planned');
    const edited = world.update(ref('source'), (object) => ({ ...object, spec: { edited: true } }));
    seen.length = 0;
    await runReconcile(recording, edited, options(world, seen, { read: reading }));
    expect(seen.slice(0, 3)).toEqual(['read', 'decided planned', 'run k8s.patch,control.requeueAfter']);
  });

  it('waits for any change after a failure only an edit can fix, when the definition records no generation', async () => {
    const { outcome } = await drive({ ...copier, errorPolicy: () => ({ next: 'waitForEdit', report: true }) }, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    expect(outcome.requeue).toEqual({ kind: 'onChange' });
  });

  it('waits for a change of an invalid spec once it is reported, and retries a report that could not be written', async () => {
    const reported = await drive(copier, 'broken', {});
    expect(reported.outcome).toMatchObject({ decision: { kind: 'invalid' }, result: { ok: true }, requeue: { kind: 'onChange' } });

    const refused: PlanResult = { ok: false, steps: [], compensations: [], error: { api: 'kubernetes', code: 503, reason: 'ServerError', message: 'busy', retryable: true } };
    const unwritten = await drive(copier, 'broken', {}, { run: () => Promise.resolve(refused) });
    expect(unwritten.outcome.requeue).toEqual({ kind: 'backoff' });
  });

  it('takes a plan stopped by the caller\'s aborted signal for no failure: nothing reported, tried again later', async () => {
    const stopped: PlanResult = { ok: false, steps: [], compensations: [], error: { api: 'keyward', code: 0, reason: STOPPED, message: 'not started: the controller is stopping', retryable: true } };
    const signal = AbortSignal.abort();
    const { outcome, seen } = await drive(copier, 'source', { data: { a: '1' } }, { run: () => Promise.resolve(stopped), signal });
    expect(outcome).toMatchObject({ stopped: true, requeue: { kind: 'backoff' } });
    expect(outcome.report).toBeUndefined();
    expect(seen.some((moment) => moment.startsWith('failed'))).toBe(false);

    // Without the abort, the same result is a failure like any other.
    const failed = await drive(copier, 'source', { data: { a: '1' } }, { run: () => Promise.resolve(stopped) });
    expect(failed.outcome.stopped).toBeUndefined();
    expect(failed.outcome.next).toEqual({ next: 'backoff', report: true });
  });

  it('on a dry run decides and runs nothing, for every decision or those the predicate names', async () => {
    const all = await drive(copier, 'source', { data: { a: '1' } }, { dryRun: true });
    expect(all.seen).toEqual(['decided planned']);
    expect(all.outcome.requeue).toBeUndefined();

    const invalidOnly = await drive(copier, 'broken', {}, { dryRun: (decision) => decision.kind === 'invalid' });
    expect(invalidOnly.seen).toEqual(['decided invalid']);
    const planned = await drive(copier, 'source', { data: { a: '1' } }, { dryRun: (decision) => decision.kind === 'invalid' });
    expect(planned.outcome.result?.ok).toBe(true);
  });
});

describe('removeOrphans', () => {
  const orphan = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } });
  const removal = (object: KubeObject): Plan<Action> => ({
    steps: [{ id: 'delete', action: { kind: 'k8s.delete', ref: ref(object.metadata.name) }, reason: 'its owner is gone' }],
  });
  const unavailable = { api: 'kubernetes', code: 503, reason: 'Unavailable', message: 'the API server is away', retryable: true };

  it('runs a removal for each orphan, and is done when they all succeed', async () => {
    const ran: string[] = [];
    const outcome = await removeOrphans([orphan('a'), orphan('b')], removal, (plan, object) => {
      ran.push(`${object.metadata.name}: ${plan.steps.map((step) => step.action.kind).join(',')}`);
      return Promise.resolve<PlanResult>({ ok: true, steps: [], compensations: [] });
    });
    expect(ran).toEqual(['a: k8s.delete', 'b: k8s.delete']);
    expect(outcome).toEqual({ requeue: { kind: 'done' } });
  });

  it('tries every orphan, and backs off with the failure when one could not be removed', async () => {
    const ran: string[] = [];
    const outcome = await removeOrphans([orphan('a'), orphan('b')], removal, (_plan, object) => {
      ran.push(object.metadata.name);
      return Promise.resolve<PlanResult>(object.metadata.name === 'a' ? { ok: false, steps: [], compensations: [], error: unavailable } : { ok: true, steps: [], compensations: [] });
    });
    expect(ran).toEqual(['a', 'b']);
    expect(outcome).toEqual({ error: unavailable, requeue: { kind: 'backoff' } });
  });
});

/**
 * A copier that states in status whether the copy was seen (`verified`) or only made (`made`), and reads a
 * plan that makes the copy back. `test/copies` copies are made one after the other, each once the one before
 * it is read: a plan that waits for a reading. `test/fail: missing` fails the plan after the copy.
 */
const verifying: Copier = {
  ...copier,
  observe: (primary) => Object.fromEntries(copyNames(primary).map((name) => [name, { kind: 'k8s.get', ref: ref(name) }])) as CopyQueries,
  reconcile: ({ primary, observed }) => {
    const missing = copyNames(primary).find((name) => observed[name] === undefined);
    const steps: Plan<Action>['steps'] = missing === undefined ? [] : [{ id: 's1', action: { kind: 'k8s.create', ref: ref(missing), object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: missing, namespace: NAMESPACE }, data: primary['data'] as Record<string, string> } }, reason: 'the copy is missing' }];
    const status = { copies: missing === undefined ? 'verified' : `made ${missing}` };
    const stored = (primary['status'] ?? {}) as Record<string, unknown>;
    const write = stored['copies'] === status.copies ? [] : [{ id: 's2', action: { kind: 'k8s.status', ref: ref(primary.metadata.name), status, observed: stored } as const, reason: 'report' }];
    const failing = primary.metadata.annotations?.['test/fail'] === 'missing' ? [{ id: 's3', action: { kind: 'k8s.patch', ref: ref('nowhere'), patch: { type: 'merge', body: {} } } as const, reason: 'a write to nothing' }] : [];
    return { steps: [...steps, ...failing, ...write] };
  },
  readsBack: (plan) => plan.steps.some((step) => step.action.kind === 'k8s.create'),
};

function copyNames(primary: KubeObject): string[] {
  const count = Number(primary.metadata.annotations?.['test/copies'] ?? '1');
  return Array.from({ length: count }, (_, index) => `${primary.metadata.name}-copy${String(index + 1)}`);
}

const copiesOf = (world: InMemoryWorld): unknown => (world.get(ref('source'))?.['status'] as Record<string, unknown> | undefined)?.['copies'];

describe('runReconcile of a plan the controller reads back', () => {
  it('runs it without its status write, reads back, and writes one status: the read-back\'s', async () => {
    const { outcome, seen, world } = await drive(verifying, 'source', { data: { a: '1' } });
    expect(seen).toEqual(['decided planned', 'run k8s.create', 'ran true', 'run k8s.status', 'ran true']);
    expect(copiesOf(world)).toBe('verified');
    expect(outcome.readBacks?.map((readBack) => readBack.decision.kind === 'planned' && readBack.decision.plan.steps.map((step) => step.action.kind))).toEqual([['k8s.status']]);
    expect(outcome.requeue).toEqual({ kind: 'done' });
  });

  it('reads back again what waited for a reading, up to the limit, then writes the status of the last plan', async () => {
    const within = await drive(verifying, 'source', { data: { a: '1' }, annotations: { 'test/copies': String(MAX_READ_BACKS) } });
    expect(within.seen.filter((moment) => moment.startsWith('run'))).toEqual([...Array<string>(MAX_READ_BACKS).fill('run k8s.create'), 'run k8s.status']);
    expect(copiesOf(within.world)).toBe('verified');

    const beyond = await drive(verifying, 'source', { data: { a: '1' }, annotations: { 'test/copies': String(MAX_READ_BACKS + 2) } });
    expect(beyond.seen.filter((moment) => moment.startsWith('run'))).toEqual([...Array<string>(MAX_READ_BACKS).fill('run k8s.create'), 'run k8s.create,k8s.status']);
    expect(copiesOf(beyond.world)).toBe(`made source-copy${String(MAX_READ_BACKS + 1)}`);
  });

  it('writes the status of the plan that ran when the read-back cannot read', async () => {
    const world = worldWith('source', { data: { a: '1' } });
    const seen: string[] = [];
    let reads = 0;
    const failingSecond = <Q extends Queries>(queries: Q): Promise<Observed<Q>> => (++reads === 1 ? world.read(queries) : Promise.reject(new Error('unreachable')));
    const object = world.get(ref('source'));
    if (object === undefined) throw new Error('source is missing');
    const outcome = await runReconcile(verifying, object, options(world, seen, { read: failingSecond }));
    expect(seen.filter((moment) => moment.startsWith('run'))).toEqual(['run k8s.create', 'run k8s.status']);
    expect(copiesOf(world)).toBe('made source-copy1');
    expect(outcome.requeue).toEqual({ kind: 'done' });
  });

  it('reads nothing back after a plan that failed, whose failure is reported as without a read-back', async () => {
    const { outcome, seen } = await drive(verifying, 'source', { data: { a: '1' }, annotations: { 'test/fail': 'missing' } });
    expect(outcome.readBacks).toBeUndefined();
    expect(outcome.error).toMatchObject({ reason: 'NotFound' });
    expect(seen.filter((moment) => moment.startsWith('run'))).toEqual(['run k8s.create,k8s.patch', 'run k8s.event']);
  });
});
