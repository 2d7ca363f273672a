import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { createServer, type Server } from 'node:http';
import { adminKubeConfig, createTestNamespace, freeLoopbackPort, waitFor } from '@keyward/test-env';
import { coreTypes, sensitive, vocabulary, PlanBuilder, controlApi, keystoneApi, kubernetesApi, type ResourceType, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KeystoneAction, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { keystoneClientPool, keystoneRuntime } from '../../src/apis/keystone/io/runtime.js';
import { controlRuntime, apiSet } from '@keyward/kernel/interpreter';
import { Controller } from '../../src/controller/controller.js';

// A Keystone endpoint that is down when the objects are first reconciled and comes up later: the controller
// retries at once what waited for it, though each key's backoff asks it to wait ten minutes.
const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };
const TEN_MINUTES = 600_000;

let kube: KubeClient;
let namespace: string;
let port: number;
let keystone: Server | undefined;
const reconciles = new Map<string, number>();
const pool = keystoneClientPool();

type TestAction = KubernetesAction | KeystoneAction | ControlAction;

/** "needs-keystone" logs in to Keystone; "kube-fails" creates a ConfigMap in a namespace that does not exist. */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> = {
  name: 'recoveries-test',
  apis: vocabulary(kubernetesApi, keystoneApi, controlApi),
  primary: { type: widgets, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const name = primary.metadata.name;
    reconciles.set(name, (reconciles.get(name) ?? 0) + 1);
    const plan = new PlanBuilder<TestAction>();
    if (name === 'needs-keystone') {
      plan.add({ kind: 'keystone.authenticate', endpoint: `http://127.0.0.1:${String(port)}/v3`, userName: 'u', userDomain: 'Default', projectName: 'p', projectDomain: 'Default', password: sensitive('not-a-real-password') }, 'log in');
    } else {
      plan.add({ kind: 'k8s.create', ref: { type: coreTypes.configMap, namespace: 'no-such-namespace', name: 'x' }, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'no-such-namespace' } } }, 'fails');
    }
    return plan.build();
  },
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => new PlanBuilder<TestAction>().build(),
};

let controller: Controller<KubeObject, Record<string, never>, null, TestAction>;

/** Keystone, as far as this test needs it: the version document and a password login. */
function startKeystone(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/v3/auth/tokens') {
      response.writeHead(201, { 'content-type': 'application/json', 'x-subject-token': 'token' });
      response.end(JSON.stringify({ token: { expires_at: '2099-01-01T00:00:00.000000Z', user: { id: 'u-1' } } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: { id: 'v3.14' } }));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => { resolve(server); }));
}

const count = (name: string): number => reconciles.get(name) ?? 0;

beforeAll(async () => {
  port = await freeLoopbackPort();
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('recoveries');
  // The pool is the Keystone module's: its endpoints' recoveries reach the controller through the API set.
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), keystoneRuntime({ kube, clients: pool }), controlRuntime);
  controller = new Controller(definition, {
    kube, apis, config: null, namespace,
    backoff: { baseMs: TEN_MINUTES, maxMs: TEN_MINUTES },
  });
  await controller.start();
});

afterAll(async () => {
  await controller.stop();
  pool.close();
  kube.close();
  if (keystone !== undefined) await new Promise((resolve) => keystone?.close(resolve));
});

describe('a dependency that recovers', () => {
  it('retries at once the keys that failed on it, and no other', async () => {
    for (const name of ['needs-keystone', 'kube-fails']) {
      await kube.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
    }
    const idle = (): boolean => {
      const state = controller.queueState();
      return state.depth === 0 && state.inFlight === 0;
    };
    await waitFor(() => Promise.resolve(count('needs-keystone') === 1 && count('kube-fails') === 1 && idle() && !pool(`http://127.0.0.1:${String(port)}/v3`).availability.available ? true : undefined), { what: 'both widgets to fail once', timeoutMs: 30_000, intervalMs: 100 });

    keystone = await startKeystone();
    await waitFor(() => Promise.resolve(count('needs-keystone') === 2 && idle() ? true : undefined), { what: 'the Keystone widget to be retried', timeoutMs: 30_000, intervalMs: 100 });

    // A recovery wakes every key it wakes at once, so by the time the queue is idle again a wrongly woken
    // key would have been reconciled as well.
    expect(count('kube-fails')).toBe(1);
    expect(pool(`http://127.0.0.1:${String(port)}/v3`).availability.available).toBe(true);
  });
});
