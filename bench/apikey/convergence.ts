// Convergence of 2,000 approved APIKeys through the real controller wired as the operator wires it, against a
// floor: a plain script that creates the same 2,000 enforcement Secrets (same labels, annotations and data)
// with the same concurrency, after listing the APIKeys and consumer Secrets once. A second plain script reads
// each consumer Secret by name instead, as the controller does. Then a full resync of the converged APIKeys.
// Targets: controller time at most 1.3 x the floor's; the resync makes no API writes.
import { randomBytes } from 'node:crypto';
import { isRight } from 'fp-ts/lib/Either.js';
import { coreTypes, isConditionTrue, type KubeObject } from '@keyward/core';
import { ContentType, KubeClient, TokenCache, keystoneClientPool, standardHandlers } from '@keyward/core/interpreter';
import { Controller } from '@keyward/core/runtime';
import { API_KEY_DATA_KEY, CONDITION_APPROVED, apiKeyController, type APIKey, apiKeyType, decodeAPIKey, enforcementSecret, enforcementSecretRef, managedLabels } from '@keyward/apikey-enforcement';
import type { Environment } from '@keyward/test-env';
import { requestsDuring } from '../support/api-server-requests.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitIdle, waitSettled } from '../support/idle.js';
import { inBatches, promisePool } from '../support/pool.js';
import { RequestTally, totals, type TallySnapshot } from '../support/tally.js';
import { measured, rounded, timed, within, type Span } from '../support/timing.js';
import { whenCount } from '../support/watch.js';

const API_KEYS = 2_000;
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;
const CONSUMERS = 'bench-consumers';
const CONVERGE_TIMEOUT_MS = 10 * 60_000;

interface Phase extends Span {
  readonly requests: TallySnapshot;
}

/**
 * Each APIKey with its own consumer Secret, approved through the status subresource as the devportal does,
 * 50 at a time. (Six thousand requests before anything is measured also warm the API server up.)
 */
async function approvedApiKeys(kube: KubeClient): Promise<void> {
  await createNamespace(kube, CONSUMERS);
  await inBatches(API_KEYS, 50, async (i) => {
    const name = `key-${String(i)}`;
    const ref = { type: apiKeyType, namespace: CONSUMERS, name };
    await kube.create({ type: coreTypes.secret, namespace: CONSUMERS, name }, { metadata: { name }, stringData: { [API_KEY_DATA_KEY]: randomBytes(16).toString('hex') } });
    await kube.create(ref, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name, namespace: CONSUMERS },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name }, planTier: 'gold', useCase: 'bench', requestedBy: { userId: `user-${String(i)}`, email: 'user@example.com' } },
    });
    await kube.patch(ref, {
      status: { conditions: [{ type: CONDITION_APPROVED, status: 'True', reason: 'Approved', message: 'by the benchmark', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    }, ContentType.mergePatch, 'status');
  });
}

/** The controller as the operator builds it (wiring.ts: shared clients, all namespaces). */
function operatorController(environment: Environment, enforcementNamespace: string, tally: RequestTally) {
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  const keystone = { keystoneClientFor: keystoneClientPool({ observer: tally.keystoneObserver }), tokens: new TokenCache() };
  const handlers = standardHandlers({ kube, ...keystone, reportingController: 'keyward.dev/operator', reportingInstance: 'bench' });
  const controller = new Controller(apiKeyController, { kube, handlers, keystone, namespace: undefined, concurrency: CONCURRENCY, config: { enforcementNamespace } });
  return { controller, close: () => { kube.close(); } };
}

/** Starts the controller with every APIKey already queued; times it until the last enforcement Secret exists, then resyncs. */
async function controllerPhase(environment: Environment, enforcementNamespace: string) {
  const tally = new RequestTally();
  const { controller, close } = operatorController(environment, enforcementNamespace, tally);
  const watcher = new KubeClient(environment.kubeConfig());
  const created = await whenCount(watcher, { type: coreTypes.secret, namespace: enforcementNamespace, labels: managedLabels }, API_KEYS, () => true);
  try {
    const span = await measured(async () => {
      await controller.start();
      await within(created.reached, CONVERGE_TIMEOUT_MS, `${String(API_KEYS)} enforcement Secrets`);
    });
    await waitSettled(controller);
    const converged = tally.snapshot();
    const resync = await requestsDuring(environment.info.kubernetes, [apiKeyType.plural, coreTypes.secret.plural], () => timed(async () => {
      controller.resync();
      await waitIdle(controller);
    }));
    return { converged: { ...span, requests: converged } satisfies Phase, resync: { seconds: rounded(resync.result, 2), apiServer: resync.requests } };
  } finally {
    await controller.stop();
    await created.stop();
    watcher.close();
    close();
  }
}

/** The approved APIKeys of the consumer namespace, as a plain script would find them. */
async function approvedIn(kube: KubeClient): Promise<APIKey[]> {
  const decoded = (await kube.listAll(apiKeyType, { namespace: CONSUMERS })).items.map(decodeAPIKey);
  return decoded.flatMap((result) => (isRight(result) && isConditionTrue(result.right.status.conditions, CONDITION_APPROVED) ? [result.right] : []));
}

/** The controller's own template, with the key in plain data (the template keeps it wrapped as sensitive). */
async function createEnforcementSecret(kube: KubeClient, apiKey: APIKey, enforcementNamespace: string, apiKeyBase64: string): Promise<void> {
  await kube.create(enforcementSecretRef(apiKey, enforcementNamespace), { ...enforcementSecret(apiKey, enforcementNamespace, apiKeyBase64), data: { [API_KEY_DATA_KEY]: apiKeyBase64 } });
}

function apiKeyData(secret: KubeObject | undefined): string {
  return (secret?.['data'] as Record<string, string> | undefined)?.[API_KEY_DATA_KEY] ?? '';
}

/** Times a plain script and counts its requests. */
async function plainScript(environment: Environment, script: (kube: KubeClient) => Promise<void>): Promise<Phase> {
  const tally = new RequestTally();
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  try {
    return { ...(await measured(() => script(kube))), requests: tally.snapshot() };
  } finally {
    kube.close();
  }
}

/** The floor: the same 2,000 Secrets with the least reading (APIKeys and consumer Secrets listed once each). */
function floorPhase(environment: Environment, enforcementNamespace: string): Promise<Phase> {
  return plainScript(environment, async (kube) => {
    const apiKeys = await approvedIn(kube);
    const consumers = new Map((await kube.listAll(coreTypes.secret, { namespace: CONSUMERS })).items.map((secret) => [secret.metadata.name, secret]));
    await promisePool(apiKeys, CONCURRENCY, (apiKey) => createEnforcementSecret(kube, apiKey, enforcementNamespace, apiKeyData(consumers.get(apiKey.spec.secretRef.name))));
  });
}

/** The floor reading as the controller reads: each consumer Secret by name (the operator never lists Secrets it does not own). */
function floorWithReadsPhase(environment: Environment, enforcementNamespace: string): Promise<Phase> {
  return plainScript(environment, async (kube) => {
    await promisePool(await approvedIn(kube), CONCURRENCY, async (apiKey) => {
      const consumer = await kube.get({ type: coreTypes.secret, namespace: CONSUMERS, name: apiKey.spec.secretRef.name });
      await createEnforcementSecret(kube, apiKey, enforcementNamespace, apiKeyData(consumer));
    });
  });
}

function phaseFigures(phase: Phase) {
  const { kubernetesWrites, kubernetesRequests } = totals(phase.requests);
  return { seconds: rounded(phase.seconds, 2), cpuSeconds: rounded(phase.cpuSeconds, 2), kubernetesWrites, kubernetesRequests, requests: phase.requests.kubernetes };
}

const environment = await startBenchEnvironment({ keystone: false });
const setup = new KubeClient(environment.kubeConfig());
try {
  await approvedApiKeys(setup);
  for (const namespace of ['kuadrant', 'kuadrant-floor', 'kuadrant-floor-reads']) await createNamespace(setup, namespace);
  const { converged, resync } = await controllerPhase(environment, 'kuadrant');
  const floor = await floorPhase(environment, 'kuadrant-floor');
  const floorWithReads = await floorWithReadsPhase(environment, 'kuadrant-floor-reads');

  console.log(JSON.stringify({
    benchmark: 'apikey-convergence',
    apiKeys: API_KEYS,
    concurrency: CONCURRENCY,
    mode: 'all APIKeys approved before the controller starts (queued by its first list)',
    controller: phaseFigures(converged),
    floor: phaseFigures(floor),
    floorWithReads: phaseFigures(floorWithReads),
    ratio: rounded(converged.seconds / floor.seconds, 2),
    ratioToFloorWithReads: rounded(converged.seconds / floorWithReads.seconds, 2),
    resync,
    targets: { ratio: 1.3, resyncWrites: 0 },
  }, null, 2));
} finally {
  setup.close();
  await environment.stop();
}
