// Requests a full resync of 1,000 converged objects sends to the API server, counted by the API server itself
// (apiserver_request_total). Target: zero writes and zero reads (everything is served from the informer cache).
import { right } from 'fp-ts/lib/Either.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PlanBuilder, addStatusIfChanged, type ControllerDefinition, type KubeObject, type ResourceType } from '@keyward/core';
import { KubeClient, standardHandlers, keystoneClientPool, TokenCache } from '@keyward/core/interpreter';
import { Controller } from '@keyward/core/runtime';
import { httpCall, startEnvironment } from '@keyward/test-env';

const OBJECTS = 1_000;
const widgets: ResourceType = { group: 'smoke.keyward.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true };

/**
 * A converging controller: it records a phase in status, nothing else. (Only fields the CRD's status schema
 * has: the API server prunes others, and a reconciler that states a pruned field writes on every reconcile.)
 */
const definition: ControllerDefinition<KubeObject, Record<string, never>, null> = {
  name: 'bench-widgets',
  primary: { type: widgets, decode: (object) => right(object) },
  secondary: () => [],
  observe: () => ({}),
  reconcile: ({ primary }) => {
    const plan = new PlanBuilder();
    const ref = { type: widgets, namespace: primary.metadata.namespace, name: primary.metadata.name };
    addStatusIfChanged(plan, ref, primary['status'] as Record<string, unknown> | undefined, { phase: 'Ready' });
    return plan.build();
  },
  failed: () => new PlanBuilder().build(),
  invalid: () => new PlanBuilder().build(),
};

/** Requests for widgets the API server has counted so far, by verb. */
async function widgetRequests(server: string, token: string, ca: string): Promise<Record<string, number>> {
  const metrics = await httpCall(`${server}/metrics`, { headers: { authorization: `Bearer ${token}` }, ca, timeoutMs: 30_000 });
  const counts: Record<string, number> = {};
  for (const line of metrics.body.split('\n')) {
    if (!line.startsWith('apiserver_request_total{') || !line.includes('resource="widgets"')) continue;
    const verb = /verb="([A-Z]+)"/.exec(line)?.[1] ?? '?';
    counts[verb] = (counts[verb] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const changed: Record<string, number> = {};
  for (const [verb, n] of Object.entries(after)) if (n !== (before[verb] ?? 0)) changed[verb] = n - (before[verb] ?? 0);
  return changed;
}

const environment = await startEnvironment({
  ownership: 'session',
  keystone: false,
  crdFolders: [fileURLToPath(new URL('../../test/fixtures/crds', import.meta.url))],
  log: () => undefined,
});
const kube = new KubeClient(environment.kubeConfig());
const { kubernetes } = environment.info;
try {
  const namespace = 'bench';
  await kube.create({ type: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }, name: namespace }, { metadata: { name: namespace } });
  for (let i = 0; i < OBJECTS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, OBJECTS - i) }, (_, j) => {
      const name = `w-${String(i + j)}`;
      return kube.create({ type: widgets, namespace, name }, { apiVersion: 'smoke.keyward.dev/v1', kind: 'Widget', metadata: { name }, spec: { size: 1, limit: 2 } });
    }));
  }
  const keystone = { keystoneClientFor: keystoneClientPool(), tokens: new TokenCache() };
  const controller = new Controller(definition, {
    kube, keystone, config: null, namespace, concurrency: 4,
    handlers: standardHandlers({ kube, ...keystone, reportingController: 'keyward.dev/bench', reportingInstance: 'bench' }),
  });
  const convergeStarted = Date.now();
  await controller.start();
  const idle = async (): Promise<void> => {
    for (;;) {
      const state = controller.queueState();
      if (state.depth === 0 && state.inFlight === 0) return;
      await sleep(50);
    }
  };
  await idle();
  // Our own status writes come back as watch events and are reconciled once more: wait for those too.
  await sleep(2_000);
  await idle();
  const convergeSeconds = (Date.now() - convergeStarted) / 1000;

  const before = await widgetRequests(kubernetes.server, kubernetes.token, kubernetes.caPem);
  const resyncStarted = Date.now();
  controller.resync();
  await idle();
  const resyncSeconds = (Date.now() - resyncStarted) / 1000;
  await sleep(1_000);
  const during = difference(await widgetRequests(kubernetes.server, kubernetes.token, kubernetes.caPem), before);
  await controller.stop();

  const writes = ['POST', 'PUT', 'PATCH', 'DELETE', 'APPLY'].reduce((sum, verb) => sum + (during[verb] ?? 0), 0);
  const reads = ['GET', 'LIST'].reduce((sum, verb) => sum + (during[verb] ?? 0), 0);
  console.log(JSON.stringify({
    benchmark: 'resync-requests',
    objects: OBJECTS,
    convergeSeconds: Number(convergeSeconds.toFixed(1)),
    resyncSeconds: Number(resyncSeconds.toFixed(2)),
    requestsDuringResync: { writes, reads, byVerb: during },
    targets: { writes: 0, reads: 0 },
  }, null, 2));
} finally {
  kube.close();
  await environment.stop();
}
