// Convergence of KeycloakRealms and their KeycloakClients (one namespace per realm, its clients beside it)
// through both controllers wired as the operator wires them, at the default rate limits and the operator's
// default concurrency, against a floor: a plain script making the same Keycloak writes (and the reads it cannot
// do without: each client's secret) and the same Kubernetes writes, through the same admin client, limiter
// and concurrency, with no runtime. The floor runs once before and once after the controllers, each on its own
// objects, and the ratio uses their mean. Then a full resync of the converged objects.
// Targets: controller time at most 1.3 x the floor's; the resync reads Keycloak and writes nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { isLeft } from 'fp-ts/lib/Either.js';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import { CLIENT_FINALIZER, CREDENTIALS_KEYS, REALM_FINALIZER, credentialsSecretName, decodeRealm, keycloakClientType, keycloakRealmType, type KeycloakConfig } from '@keyward/keycloak';
import { desiredRealm } from '../../packages/keycloak/src/realm/desired.js';
import { keycloakCall } from '../../packages/keycloak/src/server.js';
import { ownershipAttributes } from '../../packages/keycloak/src/ownership.js';
import { realmEndpoints } from '../../packages/keycloak/src/endpoints.js';
import { defaultKeycloakRateLimits, keycloakRateLimiter, keycloakRuntime } from '@keyward/keycloak/io';
import type { Environment } from '@keyward/test-env';
import { requestsDuring } from '../support/api-server-requests.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitIdle, waitSettled } from '../support/idle.js';
import { inBatches, promisePool } from '../support/pool.js';
import { RequestTally, totals } from '../support/tally.js';
import { sizes } from '../support/sizes.js';
import { measured, rounded, timed, within } from '../support/timing.js';
import { whenEachNamespace } from '../support/watch.js';
import { KeycloakTally, requestsBetween, summary } from './requests.js';
import { OPERATOR_NAMESPACE, createClient, createRealm, isReady, keycloakConfig, keycloakControllers } from './setup.js';

/**
 * 50 realms and 500 clients by default (`--realms`, `--clients-per-realm`), in each of the three phases (floor,
 * controllers, floor), each creating its own realms: Keycloak creates a realm in about a second of its CPU here.
 */
const { realms: REALMS, 'clients-per-realm': CLIENTS_PER_REALM } = sizes({ realms: 50, 'clients-per-realm': 10 });
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;
const CONVERGE_TIMEOUT_MS = Math.max(15 * 60_000, REALMS * CLIENTS_PER_REALM * 1_000);
const API_VERSION = 'vriesdemichael.github.io/v1';

const namespacesOf = (prefix: string): string[] => Array.from({ length: REALMS }, (_, i) => `${prefix}-${String(i + 1).padStart(3, '0')}`);
const realmNameOf = (namespace: string): string => `realm-${namespace}`;
const clientName = (i: number): string => `app-${String(i + 1).padStart(2, '0')}`;

/** Each namespace with its realm (granting the namespace) and its clients. */
async function createObjects(kube: KubeClient, prefix: string): Promise<string[]> {
  const namespaces = namespacesOf(prefix);
  for (const namespace of namespaces) {
    await createNamespace(kube, namespace);
    await createRealm(kube, namespace, realmNameOf(namespace), [namespace]);
    await inBatches(CLIENTS_PER_REALM, CLIENTS_PER_REALM, (i) => createClient(kube, namespace, clientName(i), { namespace, name: realmNameOf(namespace) }));
  }
  return namespaces;
}

/** Starts both controllers with every object queued; times them until every realm and client is Ready, then resyncs. */
async function controllerPhase(environment: Environment, kube: KubeClient, config: KeycloakConfig) {
  const namespaces = await createObjects(kube, 'ctl');
  const tally = new KeycloakTally();
  const kubeTally = new RequestTally();
  const controllers = keycloakControllers(environment, config, {
    limiter: keycloakRateLimiter(), concurrency: CONCURRENCY, keycloakObserver: tally.observer, onKubeRequest: kubeTally.onKubeRequest,
  });
  const realms = await whenEachNamespace(kube, keycloakRealmType, new Map(namespaces.map((n) => [n, 1])), isReady);
  const clients = await whenEachNamespace(kube, keycloakClientType, new Map(namespaces.map((n) => [n, CLIENTS_PER_REALM])), isReady);
  try {
    const span = await measured(async () => {
      await controllers.realms.start();
      await controllers.clients.start();
      await within(Promise.all([realms.all, clients.all]), CONVERGE_TIMEOUT_MS, 'every realm and client to be Ready');
    });
    const atReady = tally.snapshot();
    await waitSettled(controllers.realms);
    await waitSettled(controllers.clients);
    const settled = tally.snapshot();
    const kubeSettled = kubeTally.snapshot();
    const resync = await requestsDuring(environment.info.kubernetes, [keycloakRealmType.plural, keycloakClientType.plural, coreTypes.secret.plural], () => timed(async () => {
      controllers.realms.resync();
      controllers.clients.resync();
      await waitIdle(controllers.realms);
      await waitIdle(controllers.clients);
    }));
    const resyncKeycloak = requestsBetween(tally.snapshot(), settled);
    const objects = REALMS * (1 + CLIENTS_PER_REALM);
    return {
      converged: { seconds: rounded(span.seconds, 2), cpuSeconds: rounded(span.cpuSeconds, 2), keycloakUntilReady: summary(atReady), keycloakUntilSettled: summary(settled), kubernetes: totals({ kubernetes: kubeSettled.kubernetes, keystone: {} }) },
      resync: {
        seconds: rounded(resync.result, 2),
        keycloak: resyncKeycloak,
        keycloakReadsPerObject: rounded(resyncKeycloak.reads / objects, 2),
        apiServer: { writes: resync.requests.writes, reads: resync.requests.reads },
      },
    };
  } finally {
    await realms.stop();
    await clients.stop();
    await controllers.stop();
  }
}

/**
 * The floor: what the controllers must send, and no more. Per realm: the finalizer, the realm created with
 * the controller's own representation (desiredRealm), the Ready status. Per client, once its realm exists:
 * the finalizer, the client created with the body the controller sends, its secret read, the credentials
 * Secret, the Ready status. Realms and clients each at CONCURRENCY at once, as the two controllers run, through
 * the same admin client, token cache and limiter (default limits) as the controllers'.
 */
async function floorPhase(environment: Environment, kube: KubeClient, config: KeycloakConfig, prefix: string) {
  const namespaces = await createObjects(kube, prefix);
  const tally = new KeycloakTally();
  const kubeTally = new RequestTally();
  const client = new KubeClient(environment.kubeConfig(), { onRequest: kubeTally.onKubeRequest });
  const runtime = keycloakRuntime({ kube: client, limiter: keycloakRateLimiter(), observer: tally.observer });
  try {
    const span = await measured(async () => {
      const realms = (await client.listAll(keycloakRealmType)).items.filter((realm) => namespaces.includes(realm.metadata.namespace ?? ''));
      const clients = (await client.listAll(keycloakClientType)).items.filter((c) => namespaces.includes(c.metadata.namespace ?? ''));
      const created = new Map<string, { resolve: () => void; promise: Promise<void> }>();
      for (const namespace of namespaces) {
        let resolve: () => void = () => undefined;
        const promise = new Promise<void>((done) => { resolve = done; });
        created.set(namespace, { resolve, promise });
      }
      await Promise.all([
        promisePool(realms, CONCURRENCY, async (realm) => {
          await createRealmAsController(client, runtime.admin, config, realm);
          created.get(realm.metadata.namespace ?? '')?.resolve();
        }),
        promisePool(clients, CONCURRENCY, async (object) => {
          await created.get(object.metadata.namespace ?? '')?.promise;
          await createClientAsController(client, runtime.admin, config, object);
        }),
      ]);
    });
    return { seconds: rounded(span.seconds, 2), cpuSeconds: rounded(span.cpuSeconds, 2), keycloak: summary(tally.snapshot()), kubernetes: totals(kubeTally.snapshot()) };
  } finally {
    runtime.close?.();
    client.close();
  }
}

type Admin = ReturnType<typeof keycloakRuntime>['admin'];

function callFor(config: KeycloakConfig, namespace: string) {
  const call = keycloakCall(config, namespace);
  if (call === undefined) throw new Error('Keycloak is not configured');
  return call;
}

/**
 * A write as a plain script sends it to a slow server: again after an error that says to try again (a busy
 * Keycloak times out a realm's creation it then completes, or its breaker holds requests back for a while),
 * where an answer 409 to a later try counts as done.
 */
async function sendUntilDone(admin: Admin, call: ReturnType<typeof callFor>, request: Parameters<Admin['send']>[1]) {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await admin.send(call, attempt === 1 ? request : { ...request, accept: [...(request.accept ?? []), 409] });
      return response.status === 409 && attempt > 1 ? { ...response, status: 201 } : response;
    } catch (error) {
      if (!(error instanceof KeywardError) || !error.retryable || attempt >= 30) throw error;
      await sleep(2_000);
    }
  }
}

/** Realms created (and left) before anything is measured, so that neither side pays for a cold Keycloak. */
async function warmUp(environment: Environment, config: KeycloakConfig): Promise<void> {
  const kube = new KubeClient(environment.kubeConfig());
  const runtime = keycloakRuntime({ kube, limiter: keycloakRateLimiter() });
  try {
    await promisePool(Array.from({ length: 8 }, (_, i) => `warm-up-${String(i)}`), CONCURRENCY, async (realm) => {
      await sendUntilDone(runtime.admin, callFor(config, OPERATOR_NAMESPACE), { method: 'POST', path: '/realms', operation: 'create_realm', description: `create realm ${realm}`, body: { realm, enabled: true }, accept: [409] });
    });
  } finally {
    runtime.close?.();
    kube.close();
  }
}

function expectStatus(status: number, expected: number, what: string): void {
  if (status !== expected) throw new Error(`${what}: HTTP ${String(status)}`);
}

const readyStatus = (object: KubeObject, extra: Record<string, unknown>) => ({
  status: {
    observedGeneration: object.metadata.generation ?? 1,
    conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'created by a plain script', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), observedGeneration: object.metadata.generation ?? 1 }],
    ...extra,
  },
});

async function createRealmAsController(kube: KubeClient, admin: Admin, config: KeycloakConfig, object: KubeObject): Promise<void> {
  const decoded = decodeRealm(object);
  if (isLeft(decoded)) throw new Error(`realm ${object.metadata.name}: ${decoded.left.message}`);
  const namespace = object.metadata.namespace ?? '';
  const ref = { type: keycloakRealmType, namespace, name: object.metadata.name };
  await kube.patch(ref, { metadata: { finalizers: [REALM_FINALIZER] } }, ContentType.mergePatch);
  const realm = decoded.right.spec.realmName;
  const response = await sendUntilDone(admin, callFor(config, namespace), { method: 'POST', path: '/realms', operation: 'create_realm', description: `create realm ${realm}`, body: desiredRealm(decoded.right).fields });
  expectStatus(response.status, 201, `create realm ${realm}`);
  await kube.patch(ref, readyStatus(object, { realmName: realm }), ContentType.mergePatch, 'status');
}

async function createClientAsController(kube: KubeClient, admin: Admin, config: KeycloakConfig, object: KubeObject): Promise<void> {
  const namespace = object.metadata.namespace ?? '';
  const name = object.metadata.name;
  const spec = object['spec'] as { clientId: string; redirectUris: string[]; webOrigins: string[] };
  const realm = realmNameOf(namespace);
  const call = callFor(config, namespace);
  const ref = { type: keycloakClientType, namespace, name };
  await kube.patch(ref, { metadata: { finalizers: [CLIENT_FINALIZER] } }, ContentType.mergePatch);
  const body = {
    clientId: spec.clientId, redirectUris: spec.redirectUris, webOrigins: spec.webOrigins, standardFlowEnabled: true,
    attributes: { 'pkce.code.challenge.method': 'S256', ...ownershipAttributes({ namespace, name }) },
  };
  const created = await sendUntilDone(admin, call, { method: 'POST', path: `/realms/${realm}/clients`, operation: 'create_client', description: `create client ${spec.clientId}`, body });
  expectStatus(created.status, 201, `create client ${spec.clientId}`);
  const id = (created.headers['location'] ?? '').split('/').pop() ?? '';
  const secret = await admin.send(call, { method: 'GET', path: `/realms/${realm}/clients/${id}/client-secret`, operation: 'get_client_secret', description: `read the secret of ${spec.clientId}` });
  expectStatus(secret.status, 200, `read the secret of ${spec.clientId}`);
  const url = config.keycloakUrl ?? '';
  const endpoints = realmEndpoints(url, realm);
  const secretName = credentialsSecretName(name);
  await kube.create({ type: coreTypes.secret, namespace, name: secretName }, {
    apiVersion: 'v1', kind: 'Secret',
    metadata: { name: secretName, namespace, ownerReferences: [{ apiVersion: API_VERSION, kind: 'KeycloakClient', name, uid: object.metadata.uid, controller: true, blockOwnerDeletion: true }] },
    type: 'Opaque',
    stringData: {
      [CREDENTIALS_KEYS.clientId]: spec.clientId,
      [CREDENTIALS_KEYS.clientSecret]: (secret.body as { value?: string } | undefined)?.value ?? '',
      [CREDENTIALS_KEYS.keycloakUrl]: url,
      [CREDENTIALS_KEYS.realm]: realm,
      [CREDENTIALS_KEYS.tokenEndpoint]: endpoints.token,
      [CREDENTIALS_KEYS.userinfoEndpoint]: endpoints.userinfo,
      [CREDENTIALS_KEYS.jwksEndpoint]: endpoints.jwks,
      [CREDENTIALS_KEYS.issuer]: endpoints.issuer,
    },
  });
  await kube.patch(ref, readyStatus(object, { realm, clientUuid: id, secretName }), ContentType.mergePatch, 'status');
}

/** Drops the floor's objects (their finalizers first), so the controllers' informers do not list them. */
async function removeObjects(kube: KubeClient, prefix: string): Promise<void> {
  for (const namespace of namespacesOf(prefix)) {
    for (const type of [keycloakClientType, keycloakRealmType]) {
      for (const object of (await kube.listAll(type, { namespace })).items) {
        const ref = { type, namespace, name: object.metadata.name };
        await kube.patch(ref, { metadata: { finalizers: null } }, ContentType.mergePatch);
        await kube.delete(ref);
      }
    }
  }
}

const environment = await startBenchEnvironment({ keystone: false, keycloak: true });
const setup = new KubeClient(environment.kubeConfig());
try {
  const config = await keycloakConfig(setup, environment);
  await warmUp(environment, config);
  const before = await floorPhase(environment, setup, config, 'floor-a');
  await removeObjects(setup, 'floor-a');
  const controller = await controllerPhase(environment, setup, config);
  const after = await floorPhase(environment, setup, config, 'floor-b');
  const floorSeconds = (before.seconds + after.seconds) / 2;

  console.log(JSON.stringify({
    benchmark: 'keycloak-convergence',
    realms: REALMS,
    clientsPerRealm: CLIENTS_PER_REALM,
    concurrency: CONCURRENCY,
    limits: defaultKeycloakRateLimits,
    mode: 'every realm and client exists before the controllers start (queued by their first lists); one namespace per realm, its clients beside it',
    controller: controller.converged,
    floor: { seconds: rounded(floorSeconds, 2), before, after },
    ratio: rounded(controller.converged.seconds / floorSeconds, 2),
    resync: controller.resync,
    targets: { ratio: 1.3, resyncKeycloakWrites: 0, resyncApiWrites: 0 },
  }, null, 2));
} finally {
  setup.close();
  await environment.stop();
}

