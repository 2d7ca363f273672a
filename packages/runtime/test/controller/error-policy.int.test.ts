import { afterEach, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { objectKey } from '@keyward/kernel/model';
import { deepEqual, defineApi, type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { vocabulary, PlanBuilder, controlApi, kubernetesApi, type ResourceType, type ControllerDefinition, type PlanFailure, type KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { controlRuntime, apiSet, defineApiRuntime, KeywardError } from '@keyward/kernel/interpreter';
import type { KeyedBackoffOptions } from '../../src/controller/backoff.js';
import { Controller } from '../../src/controller/controller.js';

// What follows a failed reconcile in the runtime, by the default error policy: a bug in a handler waits for
// the object to change, a Retry-After is honoured instead of the key's backoff.

const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const TEN_MINUTES = 600_000;
const RETRY_AFTER_MS = 300;

/** An API of this test's own whose one action fails as it is told: with a plain Error, or busy with a Retry-After. */
type TroubleAction =
  | { readonly kind: 'trouble.fail'; readonly how: 'bug' | 'busy' }
  /** Takes a while: the watch brings back the writes before it while the run goes on. */
  | { readonly kind: 'trouble.linger' };
const LINGER_MS = 1_500;
const troubleApi = defineApi<TroubleAction>({
  name: 'trouble',
  actions: { 'trouble.fail': { describe: (a) => `fail (${a.how})` }, 'trouble.linger': { describe: () => 'linger' } },
  queries: {},
});
const troubleRuntime = defineApiRuntime({
  api: troubleApi,
  handlers: {
    'trouble.fail': (action) => Promise.reject(action.how === 'bug'
      ? new Error('the handler tripped over its own feet')
      : new KeywardError({ api: 'trouble', code: 503, reason: 'ServerError', message: 'busy, come back later', retryable: true, retryAfterMs: RETRY_AFTER_MS })),
    'trouble.linger': async () => {
      await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
      return { outcome: 'applied' as const, outputs: {} };
    },
  },
  queries: () => ({}),
});

type Action = KubernetesAction | ControlAction | TroubleAction;

/** What one controller saw: the generation of each reconcile, each failure reported, each delayed retry queued. */
interface Seen {
  readonly generations: number[];
  readonly failures: PlanFailure[];
  readonly retries: { readonly key: string; readonly delayMs: number }[];
}

/**
 * A Widget named "bug" or "busy" fails that way. Failures are reported with an event, which leaves the Widget as it is.
 * "healing" fails as a bug at generation 1; from generation 2 on it records the generation in status (then lingers,
 * while that write comes back), and a reconcile that finds it recorded does nothing.
 */
function definition(record: Seen): ControllerDefinition<KubeObject, Record<string, never>, null, Action> {
  return {
    name: 'error-policy-test',
    apis: vocabulary(kubernetesApi, controlApi, troubleApi),
    primary: { type: widgets, decode: (object) => right(object) },
    secondary: () => [],
    observe: () => ({}),
    reconcile: ({ primary }) => {
      record.generations.push(primary.metadata.generation ?? 0);
      const plan = new PlanBuilder<Action>();
      const generation = primary.metadata.generation ?? 0;
      if (primary.metadata.name === 'healing' && generation > 1) {
        const status = { healedAt: generation };
        if (deepEqual(primary['status'], status)) return plan.build();
        plan.add({ kind: 'k8s.status', ref: { type: widgets, namespace: primary.metadata.namespace, name: primary.metadata.name }, status }, 'record the healing');
        plan.add({ kind: 'trouble.linger' }, 'take a while');
        return plan.build();
      }
      plan.add({ kind: 'trouble.fail', how: primary.metadata.name === 'busy' ? 'busy' : 'bug' }, 'fail');
      return plan.build();
    },
    reportFailure: (primary, failure) => {
      record.failures.push(failure);
      const plan = new PlanBuilder<Action>();
      const regarding = { type: widgets, namespace: primary.metadata.namespace, name: primary.metadata.name };
      plan.add({ kind: 'k8s.event', regarding, type: 'Warning', reason: failure.reason, note: failure.message, action: 'Test' }, 'report the failure');
      return plan.build();
    },
    reportInvalid: () => new PlanBuilder<Action>().build(),
  };
}

let kube: KubeClient | undefined;
let controller: Controller<KubeObject, Record<string, never>, null, Action> | undefined;

afterEach(async () => {
  await controller?.stop();
  kube?.close();
  controller = undefined;
  kube = undefined;
});

/** A controller of its own in a namespace of its own, so its queue holds only the Widget of one test. */
async function start(prefix: string, backoff: KeyedBackoffOptions): Promise<{ controller: Controller<KubeObject, Record<string, never>, null, Action>; kube: KubeClient; namespace: string; record: Seen }> {
  kube = new KubeClient(adminKubeConfig());
  const namespace = await createTestNamespace(prefix);
  const record: Seen = { generations: [], failures: [], retries: [] };
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime, troubleRuntime);
  controller = new Controller(definition(record), {
    kube, apis, config: null, namespace, backoff,
    // Every delayed add (a backoff or a requeue) passes here, with its delay.
    observer: { queue: { onRetry: (key, delayMs) => { record.retries.push({ key, delayMs }); } } },
  });
  await controller.start();
  return { controller, kube, namespace, record };
}

async function createWidget(client: KubeClient, namespace: string, name: string): Promise<void> {
  await client.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
}

const idle = (c: Controller<KubeObject, Record<string, never>, null, Action>): boolean => {
  const state = c.queueState();
  return state.depth === 0 && state.inFlight === 0;
};

describe('the default error policy in the runtime', () => {
  it('reports a bug in a handler once and waits, not backing off, until the spec changes; then retries it', async () => {
    // A short backoff: were the key backed off, its retry would be on the timer at once.
    const { controller: running, kube: client, namespace, record } = await start('policy-bug', { baseMs: 100, maxMs: 800 });
    const ref = { type: widgets, namespace, name: 'bug' };
    await createWidget(client, namespace, 'bug');
    await waitFor(() => Promise.resolve(record.failures.length === 1 && idle(running) ? true : undefined), { what: 'the failure to be reported', timeoutMs: 30_000, intervalMs: 50 });

    expect(record.failures).toEqual([{ step: 'fail (bug)', action: 'trouble.fail', reason: 'InternalError', message: 'the handler tripped over its own feet', retryable: false }]);
    // Nothing on the timer and nothing queued: only a change can bring it back.
    expect(running.queueState()).toEqual({ depth: 0, scheduled: 0, inFlight: 0 });
    expect(record.retries).toEqual([]);

    // A status write (such as a report makes) is not a change that can fix it; a new spec is. Both arrive on
    // the same watch in this order, so by the time the new spec is reconciled the status has been seen.
    await client.patch(ref, { status: { phase: 'Broken' } }, ContentType.mergePatch, 'status');
    await client.patch(ref, { spec: { size: 0 } }, ContentType.mergePatch);
    await waitFor(() => Promise.resolve(record.generations.includes(2) && record.failures.length === 2 && idle(running) ? true : undefined), { what: 'the new spec to be tried', timeoutMs: 30_000, intervalMs: 50 });

    expect(record.generations).toEqual([1, 2]);
    expect(running.queueState()).toEqual({ depth: 0, scheduled: 0, inFlight: 0 });
    expect(record.retries).toEqual([]);
  });

  it('after a fixed spec heals a key that waited for a change, the status write of that run still wakes it once more', async () => {
    const { controller: running, kube: client, namespace, record } = await start('policy-heal', { baseMs: TEN_MINUTES, maxMs: TEN_MINUTES });
    await createWidget(client, namespace, 'healing');
    await waitFor(() => Promise.resolve(record.failures.length === 1 && idle(running) ? true : undefined), { what: 'the failure to be reported', timeoutMs: 30_000, intervalMs: 50 });

    await client.patch({ type: widgets, namespace, name: 'healing' }, { spec: { size: 0 } }, ContentType.mergePatch);
    // The run at generation 2 writes status, and its watch event arrives while the run lingers: held, it brings the
    // reconcile that finds the status recorded (were it ignored as a change of a waiting key, nothing would).
    await waitFor(() => Promise.resolve(record.generations.filter((generation) => generation === 2).length === 2 && idle(running) ? true : undefined), { what: 'the reconcile the status write wakes', timeoutMs: 30_000, intervalMs: 50 });
    expect(record.generations).toEqual([1, 2, 2]);
    expect(record.failures).toHaveLength(1);
  });

  it('requeues a failure that carries a Retry-After after that delay, not after its backoff', async () => {
    // A backoff of ten minutes: a retry within the test can only be the requeue the API asked for.
    const { controller: running, kube: client, namespace, record } = await start('policy-busy', { baseMs: TEN_MINUTES, maxMs: TEN_MINUTES });
    const key = objectKey(namespace, 'busy');
    await createWidget(client, namespace, 'busy');
    await waitFor(() => Promise.resolve(record.generations.length >= 2 ? true : undefined), { what: 'the requeued retry', timeoutMs: 30_000, intervalMs: 50 });

    expect(record.failures[0]).toEqual({ step: 'fail (busy)', action: 'trouble.fail', reason: 'ServerError', message: 'busy, come back later', retryable: true });
    // Each failure put the key on the timer for the delay the API asked for, and none for a backoff.
    expect(record.retries.length).toBeGreaterThanOrEqual(1);
    expect(record.retries.every((retry) => retry.key === key && retry.delayMs === RETRY_AFTER_MS)).toBe(true);

    const direct = await running.reconcileKey(key);
    expect(direct).toMatchObject({
      result: 'error',
      next: { next: 'requeueAfter', afterMs: RETRY_AFTER_MS, report: true },
      requeueAfterMs: RETRY_AFTER_MS,
      error: { api: 'trouble', reason: 'ServerError', retryAfterMs: RETRY_AFTER_MS },
    });
  });
});
