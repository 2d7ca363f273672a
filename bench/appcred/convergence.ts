// Convergence of 200 KeystoneApplicationCredentials (`--crs` for more) created at once, through the real controller wired as the
// operator wires it, against a floor: a plain script that sends the same writes and Keystone calls with the
// same concurrency and no runtime. The floor runs once before and once after the controller, each on its own
// 200 CRs, and the ratio uses their mean, so neither side profits from a Keystone that warms up or slows down
// over the run. Then a full resync of the converged CRs.
// The controller's Kubernetes client has the operator's default limit (20 requests a second, burst 30), which
// with four writes per CR was what bounded it; the floor has none.
// Targets: controller time at most 1.3 x the floor's; at most 3 API writes per CR; the resync makes no API
// writes and no Keystone calls.
import { randomBytes } from 'node:crypto';
import { DAY_MS, formatTime } from '@keyward/kernel/model';
import { coreTypes, sensitive, type KubeObject } from '@keyward/kernel';
import { ContentType, KeystoneClient, KubeClient, keystoneRuntime, kubernetesRuntime, type KeystoneToken, type PasswordAuthRequest } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller } from '@keyward/runtime/controller';
import { ACIDSecretKey, ACSecretSecretKey, CONDITION_AC_READY, CONDITION_READY, CREDENTIAL_NAME_ANNOTATION, CR_FINALIZER, LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, appCredController, appCredType, defaultAppCredConfig, keystoneApiType, serviceOf } from '@keyward/keystone-appcred';
import { CONDITION_KEYSTONE_API_READY, SECRET_PROTECTION_FINALIZER, SERVICE_DOMAIN, SERVICE_PROJECT, credentialSecretName } from '../../packages/keystone-appcred/src/api.js';
import { computeSecurityHash } from '../../packages/keystone-appcred/src/security-hash.js';
import { credentialName, keystoneExpiry } from '../../packages/keystone-appcred/src/reconcile.js';
import { rotationEligibleAt } from '../../packages/keystone-appcred/src/rotation.js';
import type { Environment } from '@keyward/test-env';
import { kubeRateLimit } from '../../packages/operator/src/api-modules/kubernetes.js';
import { requestsDuring } from '../support/api-server-requests.js';
import { difference, sumOfVerbs, total } from '../support/counts.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitIdle, waitSettled } from '../support/idle.js';
import { promisePool } from '../support/pool.js';
import { sizes } from '../support/sizes.js';
import { RequestTally, totals, type TallySnapshot } from '../support/tally.js';
import { measured, rounded, timed, within, type Span } from '../support/timing.js';
import { whenCount } from '../support/watch.js';
import { PASSWORD_KEY, PASSWORD_SECRET, isReady, keystoneApi, namespaceWithCrs, serviceUser, type ServiceUser } from './setup.js';

const { crs: CRS } = sizes({ crs: 200 });
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;
/** The spec's defaults, which the CRs keep. */
const EXPIRATION_DAYS = 365;
const GRACE_PERIOD_DAYS = 182;
const ROLES = ['service'];
/** Keystone takes about a second per credential at this concurrency on a busy machine. */
const CONVERGE_TIMEOUT_MS = Math.max(10 * 60_000, CRS * 1_000);
/** The API writes a new credential needs: the CR's metadata (finalizer and name), its Secret, its status. */
const WRITES_PER_CR = 3;

interface Phase extends Span {
  readonly requests: TallySnapshot;
}

/** Requests that start Keystone's workers and the API server's Secret path, so the first floor does not pay for a cold start. */
async function warmUp(environment: Environment, keystoneUrl: string, user: ServiceUser): Promise<void> {
  const kube = new KubeClient(environment.kubeConfig());
  const keystone = new KeystoneClient({ baseUrl: keystoneUrl });
  try {
    await createNamespace(kube, 'bench-warm-up');
    const token = await keystone.authenticate(passwordLogin(user.userName, user.password));
    await promisePool(Array.from({ length: 20 }, (_, i) => i), CONCURRENCY, async (i) => {
      await keystone.createApplicationCredential(token.token, token.userId, { name: `warm-up-${String(i)}`, description: 'warm-up', roles: ROLES, unrestricted: false, expiresAt: undefined });
      await kube.create({ type: coreTypes.secret, namespace: 'bench-warm-up', name: `warm-up-${String(i)}` }, { metadata: { name: `warm-up-${String(i)}` }, stringData: { x: 'y' } });
    });
  } finally {
    kube.close();
  }
}

function passwordLogin(userName: string, password: string): PasswordAuthRequest {
  return { userName, userDomain: SERVICE_DOMAIN, projectName: SERVICE_PROJECT, projectDomain: SERVICE_DOMAIN, password: sensitive(password) };
}

/**
 * The controller as the operator builds it (wiring.ts: shared clients and token cache, the Kubernetes client's
 * default rate limit) when run with --namespaces for the one namespace, so the floors' CRs are not its
 * business. Without --keystone-url, as by default: Keystone is found through the namespace's KeystoneAPI.
 */
function operatorController(environment: Environment, namespace: string, tally: RequestTally) {
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest, rateLimit: kubeRateLimit({}) });
  const apis = apiSet(
    kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: 'bench' }),
    keystoneRuntime({ kube, client: { observer: tally.keystoneObserver } }),
    controlRuntime,
  );
  const controller = new Controller(appCredController, {
    kube, apis, namespace, concurrency: CONCURRENCY,
    config: defaultAppCredConfig,
  });
  return { controller, close: () => { apis.close(); kube.close(); } };
}

/** Starts the controller with every CR already queued; times it until the last CR is Ready, then resyncs. */
async function controllerPhase(environment: Environment, namespace: string) {
  const tally = new RequestTally();
  const { controller, close } = operatorController(environment, namespace, tally);
  const watcher = new KubeClient(environment.kubeConfig());
  const ready = await whenCount(watcher, { type: appCredType, namespace }, CRS, isReady);
  try {
    const span = await measured(async () => {
      await controller.start();
      await within(ready.reached, CONVERGE_TIMEOUT_MS, `${String(CRS)} CRs to be Ready`);
    });
    await waitSettled(controller);
    const converged = tally.snapshot();
    const resync = await requestsDuring(environment.info.kubernetes, [appCredType.plural, coreTypes.secret.plural, keystoneApiType.plural], () => timed(async () => {
      controller.resync();
      await waitIdle(controller);
    }));
    const keystoneDuringResync = difference(tally.snapshot().keystone, converged.keystone);
    return {
      converged: { ...span, requests: converged } satisfies Phase,
      resync: { seconds: rounded(resync.result, 2), apiServer: resync.requests, keystoneCalls: total(keystoneDuringResync), keystoneByCall: keystoneDuringResync },
    };
  } finally {
    await controller.stop();
    await ready.stop();
    watcher.close();
    close();
  }
}

/**
 * The floor: per CR, what the controller sends from creation to Ready, in the same order and with the same
 * concurrency: read the CR and add the finalizer with the credential's name (read-modify-write), read the
 * password, create the credential, store it in a Secret, write the status. One login is shared by all, as the
 * controller's token cache shares it.
 */
async function floorPhase(environment: Environment, keystoneUrl: string, namespace: string, user: ServiceUser): Promise<Phase> {
  const tally = new RequestTally();
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  const keystone = new KeystoneClient({ baseUrl: keystoneUrl, observer: tally.keystoneObserver });
  let login: Promise<KeystoneToken> | undefined;
  const session = (password: string): Promise<KeystoneToken> => (login ??= keystone.authenticate(passwordLogin(user.userName, password)));

  const convergeOne = async (listed: KubeObject): Promise<void> => {
    const ref = { type: appCredType, namespace, name: listed.metadata.name };
    // The finalizer and the name as the controller writes them: read, then one patch guarded by the resourceVersion read.
    const current = await kube.get(ref);
    const name = credentialName(ref.name, randomBytes(5));
    const recorded = await kube.patch(ref, { metadata: { resourceVersion: current?.metadata.resourceVersion ?? '', finalizers: [CR_FINALIZER], annotations: { [CREDENTIAL_NAME_ANNOTATION]: name } } }, ContentType.mergePatch);
    const token = await session(await readPassword(kube, namespace));
    const now = new Date();
    const expires = new Date(now.getTime() + EXPIRATION_DAYS * DAY_MS);
    const credential = await keystone.createApplicationCredential(token.token, token.userId, {
      name, description: `Created by a plain script for ${namespace}/${ref.name} (user: ${user.userName})`, roles: ROLES, unrestricted: false, expiresAt: keystoneExpiry(expires),
    });
    const secretName = credentialSecretName(serviceOf(ref.name), credential.id);
    await kube.create({ type: coreTypes.secret, namespace, name: secretName }, credentialSecret(listed, secretName, name, credential.id, credential.secret.reveal()));
    await kube.patch(ref, { status: finalStatus(credential.id, secretName, now, expires, recorded.metadata.generation) }, ContentType.mergePatch, 'status');
  };

  try {
    const span = await measured(async () => {
      const crs = (await kube.listAll(appCredType, { namespace })).items;
      await promisePool(crs, CONCURRENCY, convergeOne);
    });
    return { ...span, requests: tally.snapshot() };
  } finally {
    kube.close();
  }
}

/** Read when it is needed, as the controller's authenticate step does (a changed password is used at once). */
async function readPassword(kube: KubeClient, namespace: string): Promise<string> {
  const secret = await kube.get({ type: coreTypes.secret, namespace, name: PASSWORD_SECRET });
  return Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.[PASSWORD_KEY] ?? '', 'base64').toString('utf8');
}

/** The immutable, labelled, protected Secret the controller stores a credential in, owned by the CR. */
function credentialSecret(cr: KubeObject, name: string, credential: string, id: string, secret: string): Record<string, unknown> {
  const service = serviceOf(cr.metadata.name);
  return {
    apiVersion: 'v1', kind: 'Secret',
    metadata: {
      name, namespace: cr.metadata.namespace,
      labels: { [LABEL_APPLICATION_CREDENTIALS]: 'true', [LABEL_SERVICE]: service },
      annotations: { [CREDENTIAL_NAME_ANNOTATION]: credential },
      finalizers: [SECRET_PROTECTION_FINALIZER],
      ownerReferences: [{ apiVersion: cr.apiVersion, kind: cr.kind, name: cr.metadata.name, uid: cr.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    type: 'Opaque', immutable: true,
    stringData: { [ACIDSecretKey]: id, [ACSecretSecretKey]: secret },
  };
}

/** The status the controller writes once the credential is stored. */
function finalStatus(acID: string, secretName: string, now: Date, expires: Date, generation: number | undefined): Record<string, unknown> {
  const condition = (type: string, message: string) => ({ type, status: 'True', reason: 'Ready', message, lastTransitionTime: formatTime(now) });
  return {
    acID,
    secretName,
    createdAt: formatTime(now),
    expiresAt: formatTime(expires),
    rotationEligibleAt: formatTime(rotationEligibleAt(expires, GRACE_PERIOD_DAYS)),
    securityHash: computeSecurityHash({ roles: ROLES, unrestricted: false }),
    observedGeneration: generation ?? 1,
    conditions: [
      condition(CONDITION_READY, 'Setup complete'),
      condition(CONDITION_KEYSTONE_API_READY, 'KeystoneAPI ready'),
      condition(CONDITION_AC_READY, 'ApplicationCredential ready'),
    ],
  };
}

function phaseFigures(phase: Phase) {
  const kubernetesReads = sumOfVerbs(phase.requests.kubernetes, new Set(['get', 'list']));
  const counted = totals(phase.requests);
  return { seconds: rounded(phase.seconds, 2), cpuSeconds: rounded(phase.cpuSeconds, 2), ...counted, writesPerCr: rounded(counted.kubernetesWrites / CRS, 2), kubernetesReads, requests: phase.requests };
}

const environment = await startBenchEnvironment({ keystone: true });
const setup = new KubeClient(environment.kubeConfig());
try {
  const { keystoneUrl, user } = await serviceUser(environment.info);
  for (const namespace of ['bench-floor-before', 'bench-controller', 'bench-floor-after']) await namespaceWithCrs(setup, namespace, user, CRS);
  await keystoneApi(setup, 'bench-controller', keystoneUrl);
  await warmUp(environment, keystoneUrl, user);
  const before = await floorPhase(environment, keystoneUrl, 'bench-floor-before', user);
  const { converged, resync } = await controllerPhase(environment, 'bench-controller');
  const after = await floorPhase(environment, keystoneUrl, 'bench-floor-after', user);
  const floorSeconds = (before.seconds + after.seconds) / 2;

  console.log(JSON.stringify({
    benchmark: 'appcred-convergence',
    crs: CRS,
    concurrency: CONCURRENCY,
    controllerRateLimit: kubeRateLimit({}),
    mode: 'all CRs exist before the controller starts (created at once, queued by its first list)',
    controller: phaseFigures(converged),
    floor: { seconds: rounded(floorSeconds, 2), before: phaseFigures(before), after: phaseFigures(after) },
    ratio: rounded(converged.seconds / floorSeconds, 2),
    resync,
    targets: { ratio: 1.3, writesPerCr: WRITES_PER_CR, resyncWrites: 0, resyncKeystoneCalls: 0 },
  }, null, 2));
} finally {
  setup.close();
  await environment.stop();
}
