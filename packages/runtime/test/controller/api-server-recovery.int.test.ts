import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { startEnvironment, waitFor, type Environment } from '@keyward/test-env';
import { coreTypes, vocabulary, PlanBuilder, controlApi, kubernetesApi, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { keystoneClientPool, keystoneRuntime } from '../../src/apis/keystone/io/runtime.js';
import { controlRuntime, apiSet, type HandlerTable } from '@keyward/kernel/interpreter';
import { Controller } from '../../src/controller/controller.js';

// The API server goes away just as an orphan is being removed, as when it stops right after a delete: the
// removal fails, and the key's backoff asks it to wait ten minutes. Once the API server is back and the
// controller's informers are accepted again, the removal is retried at once: a revoked key must not keep
// working until a backoff or the resync runs out.
const TEN_MINUTES = 600_000;
const NAMESPACE = 'default';
const OWNER_LABEL = 'recovery-test/owner';

type TestAction = KubernetesAction | ControlAction;

function ownerOf(secret: KubeObject): string | undefined {
  const owner = secret.metadata.labels?.[OWNER_LABEL];
  return owner === undefined ? undefined : `${NAMESPACE}/${owner}`;
}

/** ConfigMaps own the Secrets labelled with their name; a Secret whose ConfigMap is gone is an orphan. */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> = {
  name: 'api-server-recovery-test',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: { type: coreTypes.configMap, decode: (object) => right(object) },
  secondary: () => [{
    type: coreTypes.secret,
    labels: { 'app.kubernetes.io/managed-by': 'recovery-test' },
    mapToPrimary: (secret) => {
      const owner = ownerOf(secret);
      return owner === undefined ? [] : [owner];
    },
  }],
  observe: () => ({}),
  reconcile: () => new PlanBuilder<TestAction>().build(),
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => new PlanBuilder<TestAction>().build(),
  orphans: {
    watch: 0,
    ownerOf,
    orphaned: (secret) => {
      const plan = new PlanBuilder<TestAction>();
      plan.add({ kind: 'k8s.delete', ref: { type: coreTypes.secret, namespace: NAMESPACE, name: secret.metadata.name } }, 'its ConfigMap is gone');
      return plan.build();
    },
  },
};

let env: Environment;
let kube: KubeClient;
let controller: Controller<KubeObject, Record<string, never>, null, TestAction>;
let deletes = 0;
const pool = keystoneClientPool();

beforeAll(async () => {
  env = await startEnvironment({ ownership: 'session', keystone: false, log: () => undefined });
  kube = new KubeClient(env.kubeConfig());
  // Both exist before the controller starts, so it has seen the owner before it sees what it owns.
  await kube.create({ type: coreTypes.configMap, namespace: NAMESPACE, name: 'owner' }, { metadata: { name: 'owner' } });
  await kube.create({ type: coreTypes.secret, namespace: NAMESPACE, name: 'owned' }, {
    metadata: { name: 'owned', labels: { 'app.kubernetes.io/managed-by': 'recovery-test', [OWNER_LABEL]: 'owner' } },
  });
  const kubernetes = kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' });
  const { handlers } = kubernetes;
  // The first removal finds the API server gone: it is stopped just before the request goes out.
  const withOutage: HandlerTable<KubernetesAction> = {
    ...handlers,
    'k8s.delete': async (action, context) => {
      deletes++;
      if (deletes === 1) await env.stopComponent('kube-apiserver', { graceMs: 1_000 });
      return handlers['k8s.delete'](action, context);
    },
  };
  const apis = apiSet({ ...kubernetes, handlers: withOutage }, keystoneRuntime({ kube, clients: pool }), controlRuntime);
  controller = new Controller(definition, {
    kube, apis, config: null, namespace: NAMESPACE,
    backoff: { baseMs: TEN_MINUTES, maxMs: TEN_MINUTES },
    burstWatches: false,
  });
  await controller.start();
}, 180_000);

afterAll(async () => {
  await controller.stop();
  pool.close();
  kube.close();
  await env.stop();
});

describe('an API server that goes away during an orphan removal', () => {
  it('retries the removal as soon as the controller is accepted again, not at the end of its backoff', async () => {
    await kube.delete({ type: coreTypes.configMap, namespace: NAMESPACE, name: 'owner' });
    // Failed, and waiting out its backoff.
    const waiting = (): boolean => {
      const state = controller.queueState();
      return deletes > 0 && state.depth === 0 && state.inFlight === 0;
    };
    await waitFor(() => Promise.resolve(waiting() ? true : undefined), { what: 'the removal to fail', timeoutMs: 60_000, intervalMs: 100 });
    const failed = deletes;

    await env.startComponent('kube-apiserver');
    const gone = await waitFor(
      async () => ((await kube.get({ type: coreTypes.secret, namespace: NAMESPACE, name: 'owned' })) === undefined ? true : undefined),
      { what: 'the orphan to be removed', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(gone).toBe(true);
    expect(deletes).toBe(failed + 1);
  });
});
