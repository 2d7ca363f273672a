import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { left, right } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { coreTypes, vocabulary, PlanBuilder, controlApi, kubernetesApi, type ResourceType, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { keystoneClientPool, keystoneRuntime } from '../../src/apis/keystone/io/runtime.js';
import { controlRuntime, apiSet } from '@keyward/kernel/interpreter';
import { Controller } from '../../src/controller/controller.js';

const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };

let kube: KubeClient;
let namespace: string;
const seen = new Map<string, number[]>();
let invalidCalls = 0;
const pool = keystoneClientPool();

type TestAction = KubernetesAction | ControlAction;

/**
 * A controller whose behaviour depends on the Widget's name: "requeue" asks to be checked again in 2 s,
 * "failing" creates a ConfigMap in a namespace that does not exist (so every attempt fails), "invalid"
 * is rejected by decode.
 */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> = {
  name: 'runtime-test',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: { type: widgets, decode: (object) => (object.metadata.name === 'invalid' ? left({ message: 'spec.size: nope', problems: [] }) : right(object)) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const times = seen.get(primary.metadata.name) ?? [];
    times.push(Date.now());
    seen.set(primary.metadata.name, times);
    const plan = new PlanBuilder<TestAction>();
    if (primary.metadata.name === 'requeue') plan.add({ kind: 'control.requeueAfter', afterMs: 2_000 }, 'check again');
    if (primary.metadata.name === 'failing') {
      plan.add({ kind: 'k8s.create', ref: { type: coreTypes.configMap, namespace: 'no-such-namespace', name: 'x' }, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'no-such-namespace' } } }, 'fails');
    }
    return plan.build();
  },
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => {
    invalidCalls += 1;
    return new PlanBuilder<TestAction>().build();
  },
};

let controller: Controller<KubeObject, Record<string, never>, null, TestAction>;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('runtime');
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), keystoneRuntime({ kube, clients: pool }), controlRuntime);
  controller = new Controller(definition, {
    kube, apis, config: null, namespace,
    backoff: { baseMs: 100, maxMs: 800 },
  });
  await controller.start();
});

afterAll(async () => {
  await controller.stop();
  pool.close();
  kube.close();
});

async function createWidget(name: string): Promise<void> {
  await kube.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
}

const gaps = (times: readonly number[]): number[] => times.slice(1).map((t, i) => t - (times[i] ?? t));

describe('the controller runtime against the real API server', () => {
  it('honours requeueAfter: the next reconcile comes no earlier than asked', async () => {
    // How close to the due time it comes is a matter of load, measured in bench/, not asserted here.
    await createWidget('requeue');
    await waitFor(async () => Promise.resolve((seen.get('requeue')?.length ?? 0) >= 3 ? true : undefined), { what: 'three reconciles', timeoutMs: 20_000 });
    for (const gap of gaps(seen.get('requeue') ?? []).slice(0, 2)) expect(gap).toBeGreaterThanOrEqual(2_000);
  });

  it('retries failures with exponential backoff, never earlier than it says', async () => {
    await createWidget('failing');
    await waitFor(async () => Promise.resolve((seen.get('failing')?.length ?? 0) >= 7 ? true : undefined), { what: 'seven attempts', timeoutMs: 30_000 });
    const intervals = gaps(seen.get('failing') ?? []);
    // 100, 200, 400, 800, 800, ... ms, plus the time each attempt takes.
    expect(intervals[0]).toBeGreaterThanOrEqual(100);
    expect(intervals[2]).toBeGreaterThanOrEqual(400);
    expect(intervals[3]).toBeGreaterThanOrEqual(800);
    // That the delay stops growing at the cap is proven with fake timers in work-queue.test.ts; here only that
    // the real timers never retry earlier than the backoff says.
    for (const interval of intervals.slice(4, 6)) expect(interval).toBeGreaterThanOrEqual(800);
  });

  it('does not retry an invalid object until it changes', async () => {
    await createWidget('invalid');
    await waitFor(async () => Promise.resolve(invalidCalls >= 1 ? true : undefined), { what: 'the invalid spec to be reported', timeoutMs: 10_000 });
    controller.resync();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(invalidCalls).toBe(1);
    await kube.patch({ type: widgets, namespace, name: 'invalid' }, { spec: { size: 0 } }, 'application/merge-patch+json');
    await waitFor(async () => Promise.resolve(invalidCalls >= 2 ? true : undefined), { what: 'a new generation to be checked again', timeoutMs: 10_000 });
  });
});
