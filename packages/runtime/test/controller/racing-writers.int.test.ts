import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { vocabulary, PlanBuilder, controlApi, kubernetesApi, type ResourceType, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { keystoneClientPool, keystoneRuntime, type KeystoneClientPool } from '../../src/apis/keystone/io/runtime.js';
import { controlRuntime, apiSet, KeywardError, type HandlerTable } from '@keyward/kernel/interpreter';
import { Controller } from '../../src/controller/controller.js';
import { recordingLogger } from './recording-logger.js';

const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const WRITERS = 'keyward.dev/writers';

type TestAction = KubernetesAction | ControlAction;

/**
 * Each writer adds its name to a list kept in an annotation: a read-modify-write that loses the other
 * writer's entry if it ever writes from a stale read. The patch carries the resourceVersion it was
 * computed from, so a stale write is refused with a Conflict instead.
 */
function writer(name: string, failures: string[]): ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> {
  return {
    name: `writer-${name}`,
    apis: vocabulary(kubernetesApi, controlApi),
    primary: { type: widgets, decode: (object) => right(object) },
    secondary: () => [],
    observe: () => ({}),
    reconcile: ({ primary }) => {
      const plan = new PlanBuilder<TestAction>();
      const current = (primary.metadata.annotations?.[WRITERS] ?? '').split(',').filter((entry) => entry !== '');
      if (current.includes(name)) return plan.build();
      const ref = { type: widgets, namespace: primary.metadata.namespace, name: primary.metadata.name };
      plan.add(
        { kind: 'k8s.patch', ref, patch: { type: 'merge', body: { metadata: { annotations: { [WRITERS]: [...current, name].join(',') } } } }, precondition: { resourceVersion: primary.metadata.resourceVersion ?? '' } },
        `${name} adds itself to the writers`,
      );
      return plan.build();
    },
    reportFailure: (_primary, failure) => {
      failures.push(`${name}: ${failure.reason}`);
      return new PlanBuilder<TestAction>().build();
    },
    reportInvalid: () => new PlanBuilder<TestAction>().build(),
  };
}

/** Patches wait at a barrier until both writers have one ready, so both are sent from the same read. */
function withPatchBarrier(handlers: HandlerTable<KubernetesAction>, barrier: { arrived: number; open: Promise<void>; release: () => void }, conflicts: string[], name: string): HandlerTable<KubernetesAction> {
  return {
    ...handlers,
    'k8s.patch': async (action, context) => {
      barrier.arrived += 1;
      if (barrier.arrived >= 2) barrier.release();
      await barrier.open;
      try {
        return await handlers['k8s.patch'](action, context);
      } catch (error) {
        if (error instanceof KeywardError && error.reason === 'Conflict') conflicts.push(name);
        throw error;
      }
    },
  };
}

let kube: KubeClient;
let namespace: string;
const controllers: Controller<KubeObject, Record<string, never>, null, TestAction>[] = [];
const pools: KeystoneClientPool[] = [];

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('race');
});

afterAll(async () => {
  for (const controller of controllers) await controller.stop();
  for (const pool of pools) pool.close();
  kube.close();
});

describe('two writers racing on one object', () => {
  it('loses neither write: the stale one is refused with a Conflict, retried from a fresh read, and not reported as a failure', async () => {
    await kube.create({ type: widgets, namespace, name: 'contested' }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name: 'contested' }, spec: { size: 1, limit: 2 } });
    let release = (): void => undefined;
    const barrier = { arrived: 0, open: new Promise<void>((resolve) => { release = resolve; }), release: () => { release(); } };
    const conflicts: string[] = [];
    const failures: string[] = [];
    const warnings: string[] = [];
    for (const name of ['alpha', 'beta']) {
      const pool = keystoneClientPool();
      pools.push(pool);
      const kubernetes = kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: name });
      const apis = apiSet({ ...kubernetes, handlers: withPatchBarrier(kubernetes.handlers, barrier, conflicts, name) }, keystoneRuntime({ kube, clients: pool }), controlRuntime);
      const controller = new Controller(writer(name, failures), {
        kube, apis, config: null, namespace,
        logger: recordingLogger(warnings, ['warn', 'error']),
        backoff: { baseMs: 50, maxMs: 400 },
      });
      controllers.push(controller);
    }
    await Promise.all(controllers.map((controller) => controller.start()));

    const writers = await waitFor(async () => {
      const object = await kube.get({ type: widgets, namespace, name: 'contested' });
      const value = object?.metadata.annotations?.[WRITERS] ?? '';
      return value.split(',').length === 2 ? value : undefined;
    }, { what: 'both writers to be recorded', timeoutMs: 20_000, intervalMs: 100 });

    expect(writers.split(',').sort()).toEqual(['alpha', 'beta']);
    // Both patches left the barrier with the same resourceVersion: exactly one was refused.
    expect(conflicts).toHaveLength(1);
    expect(failures).toEqual([]);
    // An expected Conflict is retried quietly: nothing for an operator to look at.
    expect(warnings).toEqual([]);
    // And the list stays as it is: neither writer has anything left to do.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await kube.get({ type: widgets, namespace, name: 'contested' }))?.metadata.annotations?.[WRITERS]).toBe(writers);
  });
});
