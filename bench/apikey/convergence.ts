// Convergence of 2,000 approved APIKeys (`--api-keys` for more) through the real controller wired as the
// operator wires it, against a floor: a plain script that creates the same enforcement Secrets (same labels,
// annotations and data) with the same concurrency, after listing the APIKeys and consumer Secrets once. The
// floor runs once before and once after the controller, each into its own namespace, and the ratio uses their
// mean (the API server warms up and etcd grows as the phases run). Every phase ends when its client has the
// last "201 Created":
// no watch of the measurement loads the API server. After each controller phase, a full resync.
// The comparison runs twice: with the cluster and the client sharing every CPU, then with the cluster on one
// half of the CPUs and the client on the other, as on separate machines (see support/cpu-affinity.ts).
// Targets, on separate CPUs: controller time at most 1.3 x the floor's; the resync makes no API writes.
import { Writable } from 'node:stream';
import { isRight } from 'fp-ts/lib/Either.js';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { isConditionTrue } from '@keyward/kernel/model';
import { KubeClient, keystoneRuntime, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller, createLogger } from '@keyward/runtime/controller';
import { API_KEY_DATA_KEY, CONDITION_APPROVED, apiKeyController, type APIKey, apiKeyType, decodeAPIKey, enforcementSecret, enforcementSecretRef, managedLabels } from '@keyward/apikey-enforcement';
import type { Environment } from '@keyward/test-env';
import { approvedApiKeys } from './setup.js';
import { requestsDuring } from '../support/api-server-requests.js';
import { separateClusterFromClient } from '../support/cpu-affinity.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitIdle, waitSettled } from '../support/idle.js';
import { promisePool } from '../support/pool.js';
import { sizes } from '../support/sizes.js';
import { RequestTally, totals, type TallySnapshot } from '../support/tally.js';
import { measured, rounded, timed, within, type Span } from '../support/timing.js';

const { 'api-keys': API_KEYS } = sizes({ 'api-keys': 2_000 });
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;
const CONSUMERS = 'bench-consumers';
const CONVERGE_TIMEOUT_MS = Math.max(10 * 60_000, API_KEYS * 100);

interface Phase extends Span {
  readonly requests: TallySnapshot;
}

/** Log lines are formatted as the operator's are (JSON at info level), then dropped. */
const discardedLog = new Writable({ write: (_chunk, _encoding, done) => { done(); } });

/** The controller as the operator builds it (wiring.ts: shared clients, all namespaces, its logger). */
function operatorController(environment: Environment, enforcementNamespace: string, tally: RequestTally) {
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  // Every API module the operator has, Keystone's too, though this controller's plans never reach it.
  const apis = apiSet(
    kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: 'bench' }),
    keystoneRuntime({ kube, client: { observer: tally.keystoneObserver } }),
    controlRuntime,
  );
  const logger = createLogger({ stream: discardedLog });
  const controller = new Controller(apiKeyController, { kube, apis, logger, namespace: undefined, concurrency: CONCURRENCY, config: { enforcementNamespace } });
  return { controller, close: () => { apis.close(); kube.close(); } };
}

const SECRET_CREATED = 'create secrets 201';

/** Throws unless the namespace holds every enforcement Secret (checked after the clock stopped). */
async function expectEnforcementSecrets(kube: KubeClient, namespace: string): Promise<void> {
  const found = (await kube.listAll(coreTypes.secret, { namespace, labels: managedLabels })).items.length;
  if (found !== API_KEYS) throw new Error(`${namespace} holds ${String(found)} enforcement Secrets, not ${String(API_KEYS)}`);
}

/** Starts the controller with every APIKey already queued; times it until the last enforcement Secret exists, then resyncs. */
async function controllerPhase(environment: Environment, enforcementNamespace: string) {
  const tally = new RequestTally();
  const { controller, close } = operatorController(environment, enforcementNamespace, tally);
  const created = tally.whenCounted(SECRET_CREATED, API_KEYS);
  try {
    const span = await measured(async () => {
      await controller.start();
      await within(created, CONVERGE_TIMEOUT_MS, `${String(API_KEYS)} enforcement Secrets`);
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

/** The floor: the same Secrets with the least reading (APIKeys and consumer Secrets listed once each). */
function floorPhase(environment: Environment, enforcementNamespace: string): Promise<Phase> {
  return plainScript(environment, async (kube) => {
    const apiKeys = await approvedIn(kube);
    const consumers = new Map((await kube.listAll(coreTypes.secret, { namespace: CONSUMERS })).items.map((secret) => [secret.metadata.name, secret]));
    await promisePool(apiKeys, CONCURRENCY, (apiKey) => createEnforcementSecret(kube, apiKey, enforcementNamespace, apiKeyData(consumers.get(apiKey.spec.secretRef.name))));
  });
}

function phaseFigures(phase: Phase) {
  const { kubernetesWrites, kubernetesRequests } = totals(phase.requests);
  return { seconds: rounded(phase.seconds, 2), cpuSeconds: rounded(phase.cpuSeconds, 2), kubernetesWrites, kubernetesRequests, requests: phase.requests.kubernetes };
}

/** Floor before, controller, floor after, each into its own enforcement namespace named after `label`. */
async function comparison(environment: Environment, setup: KubeClient, label: string) {
  const namespaces = { before: `kuadrant-${label}-floor-before`, controller: `kuadrant-${label}`, after: `kuadrant-${label}-floor-after` };
  for (const namespace of Object.values(namespaces)) await createNamespace(setup, namespace);
  const before = await floorPhase(environment, namespaces.before);
  const { converged, resync } = await controllerPhase(environment, namespaces.controller);
  const after = await floorPhase(environment, namespaces.after);
  for (const namespace of Object.values(namespaces)) await expectEnforcementSecrets(setup, namespace);
  const floorSeconds = (before.seconds + after.seconds) / 2;
  return {
    controller: phaseFigures(converged),
    floor: { seconds: rounded(floorSeconds, 2), before: phaseFigures(before), after: phaseFigures(after) },
    ratio: rounded(converged.seconds / floorSeconds, 2),
    resync,
  };
}

const environment = await startBenchEnvironment({ keystone: false });
const setup = new KubeClient(environment.kubeConfig());
try {
  await approvedApiKeys(setup, CONSUMERS, API_KEYS);
  const sharedCpus = await comparison(environment, setup, 'shared');
  const pinning = separateClusterFromClient(environment);
  const separateCpus = pinning === undefined ? undefined : await comparison(environment, setup, 'separate');
  pinning?.undo();

  console.log(JSON.stringify({
    benchmark: 'apikey-convergence',
    apiKeys: API_KEYS,
    concurrency: CONCURRENCY,
    mode: 'all APIKeys approved before the controller starts (queued by its first list)',
    separateCpus: separateCpus === undefined ? 'not possible on this machine' : { cpus: pinning?.split, ...separateCpus },
    sharedCpus,
    targets: { ratio: 1.3, appliesTo: 'separateCpus', resyncWrites: 0 },
  }, null, 2));
} finally {
  setup.close();
  await environment.stop();
}
