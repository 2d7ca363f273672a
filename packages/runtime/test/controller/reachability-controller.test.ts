import { afterEach, describe, expect, it } from '@jest/globals';
import { right } from 'fp-ts/lib/Either.js';
import { freeLoopbackPort, waitFor } from '@keyward/test-env';
import { PlanBuilder, controlApi, coreTypes, kubernetesApi, vocabulary, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { type ControlAction, type KubernetesAction } from '@keyward/kernel/plan';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { Controller } from '../../src/controller/controller.js';
import { ApiServerReachability } from '../../src/controller/reachability.js';
import { FakeApiServer } from './fake-api-server.js';
import { loopbackKubeConfig } from './loopback-cluster.js';
import { recordingLogger } from './recording-logger.js';

// The API server goes away while a controller watches: its informers retry every few hundred milliseconds, and
// each retry must not be a warning of its own; the reachability log says it once, and once when it is back.

type TestAction = KubernetesAction | ControlAction;

const definition: ControllerDefinition<KubeObject, Record<string, never>, null, TestAction> = {
  name: 'reachability-test',
  apis: vocabulary(kubernetesApi, controlApi),
  primary: { type: coreTypes.configMap, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: () => new PlanBuilder<TestAction>().build(),
  reportFailure: () => new PlanBuilder<TestAction>().build(),
  reportInvalid: () => new PlanBuilder<TestAction>().build(),
};

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('a controller whose API server goes away', () => {
  it('tells the reachability log, which warns once and says when the server answers again; its informers\' retries are debug lines', async () => {
    const server = new FakeApiServer(await freeLoopbackPort());
    await server.up();
    const kube = new KubeClient(loopbackKubeConfig(server.port, 'http'));
    const lines: string[] = [];
    const logger = recordingLogger(lines, ['debug', 'info', 'warn', 'error']);
    const reachability = new ApiServerReachability(logger, { server: `http://127.0.0.1:${String(server.port)}` });
    const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), controlRuntime);
    const controller = new Controller(definition, { kube, apis, config: null, namespace: 'default', burstWatches: false, logger, reachability });
    cleanup = async () => {
      await controller.stop();
      kube.close();
      await server.down();
    };
    await controller.start();
    await waitFor(() => Promise.resolve(server.watchesAccepted === 1 ? true : undefined), { what: 'the watch', timeoutMs: 20_000, intervalMs: 20 });

    await server.down();
    const retries = (): number => lines.filter((line) => line.startsWith('debug: configmaps in default: the watch failed')).length;
    await waitFor(() => Promise.resolve(retries() >= 3 ? true : undefined), { what: 'three retries of the watch', timeoutMs: 20_000, intervalMs: 20 });
    await server.up();
    await waitFor(() => Promise.resolve(lines.includes('info: the Kubernetes API server answers again') ? true : undefined), { what: 'the watch to be accepted again', timeoutMs: 20_000, intervalMs: 20 });

    expect(lines.filter((line) => line.startsWith('warn:') || line.includes('Kubernetes API server'))).toEqual([
      'warn: cannot reach the Kubernetes API server; retrying',
      'info: the Kubernetes API server answers again',
    ]);
  }, 30_000);
});
