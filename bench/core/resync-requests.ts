// Requests a full resync of 1,000 converged objects sends to the API server, counted by the API server itself
// (apiserver_request_total). Target: zero writes and zero reads (everything is served from the informer cache).
import { right } from 'fp-ts/lib/Either.js';
import { PlanBuilder, kubernetesApi, vocabulary, type ControllerDefinition, type KubeObject, type ResourceType } from '@keyward/kernel';
import { addStatusIfChanged, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { requestsDuring } from '../support/api-server-requests.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitIdle, waitSettled } from '../support/idle.js';
import { inBatches } from '../support/pool.js';
import { rounded, timed } from '../support/timing.js';

const OBJECTS = 1_000;
const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };

/**
 * A converging controller: it records a phase in status, nothing else. (Only fields the CRD's status schema
 * has: the API server prunes others, and a reconciler that states a pruned field writes on every reconcile.)
 */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null, KubernetesAction> = {
  name: 'bench-widgets',
  apis: vocabulary(kubernetesApi),
  primary: { type: widgets, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const plan = new PlanBuilder<KubernetesAction>();
    const ref = { type: widgets, namespace: primary.metadata.namespace, name: primary.metadata.name };
    addStatusIfChanged(plan, ref, primary['status'] as Record<string, unknown> | undefined, { phase: 'Ready' });
    return plan.build();
  },
  reportFailure: () => new PlanBuilder<KubernetesAction>().build(),
  reportInvalid: () => new PlanBuilder<KubernetesAction>().build(),
};

const environment = await startBenchEnvironment({ keystone: false });
const kube = new KubeClient(environment.kubeConfig());
try {
  const namespace = 'bench';
  await createNamespace(kube, namespace);
  await inBatches(OBJECTS, 50, (i) => {
    const name = `w-${String(i)}`;
    return kube.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
  });
  const controller = new Controller(definition, {
    kube, config: null, namespace, concurrency: 4,
    apis: apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/bench', reportingInstance: 'bench' }), controlRuntime),
  });
  const convergeSeconds = await timed(async () => {
    await controller.start();
    await waitSettled(controller);
  });
  const resync = await requestsDuring(environment.info.kubernetes, [widgets.plural], () => timed(async () => {
    controller.resync();
    await waitIdle(controller);
  }));
  await controller.stop();

  console.log(JSON.stringify({
    benchmark: 'resync-requests',
    objects: OBJECTS,
    convergeSeconds: rounded(convergeSeconds, 1),
    resyncSeconds: rounded(resync.result, 2),
    requestsDuringResync: resync.requests,
    targets: { writes: 0, reads: 0 },
  }, null, 2));
} finally {
  kube.close();
  await environment.stop();
}
