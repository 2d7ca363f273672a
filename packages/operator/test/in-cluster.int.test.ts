// jest-cost: 505 s
// jest-exclusive: workload tier
// The operator installed as users install it, on the workload tier's kubelet: the image that
// tools/build-operator-image.sh builds from the repository, and deploy/helm/keyward installed with the real Helm into
// a namespace that enforces the restricted Pod Security Standard. Two replicas elect a leader; the pods reach the API
// server through the kubernetes Service with their own ServiceAccount's token (the chart's RBAC and nothing else),
// and Keystone and Keycloak on the node's address. The examples converge from the pods; the leader killed, another
// pod takes over; an upgrade, a rollback and an uninstall followed by a new install each hand over without a write;
// then the keystone-service example runs a Keystone in pods of its own, and its application credential is made against
// that Keystone, which the pods reach by its Service's name through the tier's cluster DNS; last, deploy/base applied
// with the real kubectl
// in place of the Helm release takes everything over without a write.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CoreV1Api } from '@kubernetes/client-node';
import { coreTypes, findCondition, type Condition, type KubeObject, type ResourceType } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { keycloakClientType, keycloakRealmType } from '@keyward/keycloak';
import { appCredType, keystoneType } from '@keyward/keystone-appcred';
import { API_PORT } from '@keyward/keystone-service';
import { KeystoneAdmin, createPodDatabase, kubeConfigFor, rememberSecret, waitFor, workloadEnvironment, type WorkloadEnvironment } from '@keyward/test-env';
import { applyBase, buildOperatorImage, example, helmRelease, importImage, isReady, killContainer, leaderPod, operatorPods, podMetric, publishKeystoneApi, scrape, type OperatorImage } from './in-cluster.js';
import type { Values } from './helm-chart.js';
import { SETTINGS_CONFIGMAP } from '../src/operator-settings.js';

const WAIT_MS = 180_000;
/** The examples' objects the operator manages by the time Helm changes the release: two appcreds, an APIKey, a realm, a client. */
const MANAGED_OBJECTS = 5;
/** What the keystone-service example adds: the Keystone and the application credential made against it. */
const KEYSTONE_SERVICE_OBJECTS = 2;
/** Where deploy/base runs the operator. */
const BASE_NAMESPACE = 'keyward-system';
/** The upgrade's image: the same image under another tag, so the Deployment rolls its pods and nothing else changes. */
const NEXT_TAG_SUFFIX = 'next';

let env: WorkloadEnvironment;
let kube: KubeClient;
let image: OperatorImage;
/** A bearer token the operator's metrics server lets in (see metricsScraperToken). */
let scraperToken = '';
const SCRAPER = 'keyward-metrics-scraper';
const SERVICE_ACCOUNT_TYPE: ResourceType = { group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true };
/** The release namespace, which enforces the restricted Pod Security Standard. */
const release = `keyward-${randomBytes(3).toString('hex')}`;
/** Where the operator runs: the Helm release's namespace, then deploy/base's. */
let operatorNamespace = release;
const serviceAccount = (): string => `system:serviceaccount:${operatorNamespace}:keyward`;
const figures: Record<string, number | string> = {};

const values = (tag: string): Values => ({
  image: { repository: image.repository, tag, pullPolicy: 'Never' },
  keycloak: { url: env.info.keycloak?.url ?? '', adminSecret: `${release}/keycloak-admin` },
});

async function conditionOf(type: ResourceType, namespace: string, name: string, condition: string): Promise<string | undefined> {
  const object = await kube.get({ type, namespace, name });
  return findCondition((object?.['status'] as { conditions?: Condition[] } | undefined)?.conditions, condition)?.status;
}

async function waitForReady(type: ResourceType, namespace: string, name: string): Promise<void> {
  await waitFor(async () => ((await conditionOf(type, namespace, name, 'Ready')) === 'True' ? true : undefined), { what: `${type.kind} ${namespace}/${name} to be Ready`, timeoutMs: WAIT_MS, intervalMs: 1_000 });
}

/**
 * Applies an example file's objects as a user would, with its placeholders (passwords, keys) replaced by fresh
 * secrets, and then by what `adjust` fills in from the environment.
 */
async function applyExample(path: string, adjust: (object: KubeObject) => KubeObject = (object) => object): Promise<KubeObject[]> {
  const objects = example(path).map(({ type, object }) => {
    const stringData = object['stringData'] as Record<string, string> | undefined;
    const secretData = stringData === undefined ? {} : { stringData: Object.fromEntries(Object.keys(stringData).map((key) => [key, rememberSecret(`${key}-${randomBytes(12).toString('hex')}`)])) };
    return { type, object: adjust({ ...object, ...secretData }) };
  });
  for (const { type, object } of objects) {
    await kube.apply({ type, namespace: object.metadata.namespace, name: object.metadata.name }, object);
  }
  return objects.map(({ object }) => object);
}

/** The operator pods' Deployment is available with both replicas of the wanted image, and a pod of it leads. */
async function waitForRollout(tag: string): Promise<string> {
  return waitFor(async () => {
    const pods = await operatorPods(kube, operatorNamespace);
    const current = pods.filter((pod) => pod.spec?.containers?.[0]?.image === `${image.repository}:${tag}`);
    if (pods.length !== 2 || current.length !== 2 || !current.every(isReady)) return undefined;
    const leader = await leaderPod(kube, operatorNamespace);
    return leader === undefined ? undefined : leader.metadata.name;
  }, { what: `two ready operator pods of tag ${tag}, one of them leading`, timeoutMs: WAIT_MS, intervalMs: 1_000 });
}

/**
 * What a quiet take-over must leave as it was: every Secret of the examples' namespaces, the credentials' ids, and
 * the operator's published settings.
 */
async function managedState(options: { readonly withSettings: boolean } = { withSettings: true }): Promise<Record<string, string>> {
  const settings = await kube.get({ type: coreTypes.configMap, namespace: operatorNamespace, name: SETTINGS_CONFIGMAP });
  const state: Record<string, string> = options.withSettings ? { 'published settings': settings?.metadata.resourceVersion ?? '' } : {};
  for (const namespace of ['openstack', 'team-a', 'kuadrant', 'identity']) {
    for (const secret of (await kube.list(coreTypes.secret, { namespace })).items) state[`Secret ${namespace}/${secret.metadata.name}`] = secret.metadata.resourceVersion ?? '';
  }
  for (const appcred of (await kube.listAll(appCredType)).items) {
    state[`credential of ${appcred.metadata.namespace ?? ''}/${appcred.metadata.name}`] = (appcred['status'] as { acID?: string } | undefined)?.acID ?? '';
  }
  return state;
}

/** The leader's count of reconciles once its queues are empty and it has reconciled each of the examples' objects. */
async function leaderSettled(objects: number): Promise<number> {
  return waitFor(async () => {
    const leader = await leaderPod(kube, operatorNamespace);
    if (leader === undefined) return undefined;
    const reconciles = await podMetric(leader, scraperToken, 'keyward_reconcile_total');
    const queued = await podMetric(leader, scraperToken, 'keyward_workqueue_depth');
    return reconciles >= objects && queued === 0 ? reconciles : undefined;
  }, { what: 'the leader to reconcile every object and empty its queues', timeoutMs: WAIT_MS, intervalMs: 2_000 });
}

/**
 * Writes the operator's ServiceAccount made since `since` (the audit log's request time). Left out: the leader
 * Lease, the token and access reviews its metrics server asks for (nothing stored), and the settings every
 * replica publishes for `keyward plan` at start, a server-side apply of what is already there, which changes
 * nothing (managedState holds that ConfigMap's resourceVersion).
 */
function writesSince(since: Date): string[] {
  return readFileSync(env.info.auditLog, 'utf8')
    .split('\n')
    .filter((line) => line.includes(serviceAccount()))
    .map((line) => JSON.parse(line) as { stage: string; verb: string; requestReceivedTimestamp: string; user: { username: string }; objectRef?: { resource?: string; namespace?: string; name?: string } })
    .filter((event) => event.user.username === serviceAccount() && event.stage === 'ResponseComplete' && new Date(event.requestReceivedTimestamp) >= since)
    .filter((event) => ['create', 'update', 'patch', 'delete'].includes(event.verb) && !['leases', 'tokenreviews', 'subjectaccessreviews'].includes(event.objectRef?.resource ?? ''))
    .map((event) => `${event.verb} ${event.objectRef?.resource ?? ''} ${event.objectRef?.namespace ?? ''}/${event.objectRef?.name ?? ''}`)
    .filter((write) => write !== `patch configmaps ${operatorNamespace}/${SETTINGS_CONFIGMAP}`);
}

beforeAll(async () => {
  const started = Date.now();
  env = await workloadEnvironment(undefined, { keystone: true, keycloak: true });
  figures['environment start (s)'] = Math.round((Date.now() - started) / 1000);
  kube = new KubeClient(kubeConfigFor(env.info));
  const built = Date.now();
  image = await buildOperatorImage();
  figures['image build or cache hit (s)'] = Math.round((Date.now() - built) / 1000);
  figures['image digest'] = image.digest;
  await importImage(env.info.workloads, image, [`${image.tag}-${NEXT_TAG_SUFFIX}`]);

  await kube.create({ type: coreTypes.namespace, name: release }, { metadata: { name: release, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
  // The chart's apikey-enforcement Role goes to the enforcement namespace, which must exist first (the chart's default).
  await kube.apply({ type: coreTypes.namespace, name: 'kuadrant' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kuadrant' } });
  await kube.apply({ type: coreTypes.namespace, name: 'openstack' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'openstack' } });
  // No Keystone URL in the operator's settings, as in a cluster: the appcred example's namespace has a KeystoneAPI
  // naming the environment's Keystone (what keystone-operator would publish), the keystone-service example's its Keystone.
  await publishKeystoneApi(kube, 'openstack', env.info.keystone?.url ?? '');
  const keycloak = env.info.keycloak;
  if (keycloak === undefined) throw new Error('the environment has no Keycloak');
  await kube.create({ type: coreTypes.secret, namespace: release, name: 'keycloak-admin' }, { metadata: { name: 'keycloak-admin' }, stringData: { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret } });
  scraperToken = await metricsScraperToken();
}, 30 * 60_000);

/**
 * A token of a ServiceAccount bound to keyward-metrics-reader, the ClusterRole the chart and deploy/base make
 * for scrapers: the operator serves its metrics over HTTPS to callers a TokenReview and a SubjectAccessReview let in.
 */
async function metricsScraperToken(): Promise<string> {
  const core = kubeConfigFor(env.info).makeApiClient(CoreV1Api);
  await kube.apply({ type: SERVICE_ACCOUNT_TYPE, namespace: 'default', name: SCRAPER }, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SCRAPER, namespace: 'default' } });
  await kube.apply(
    { type: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false }, name: SCRAPER },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: SCRAPER },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'keyward-metrics-reader' },
      subjects: [{ kind: 'ServiceAccount', name: SCRAPER, namespace: 'default' }],
    },
  );
  const request = await core.createNamespacedServiceAccountToken({ namespace: 'default', name: SCRAPER, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  return rememberSecret(request.status?.token ?? '');
}

afterAll(async () => {
  process.stderr.write(`in-cluster install figures: ${JSON.stringify(figures)}\n`);
  // The environment never started: beforeAll's error is the one to read.
  if ((env as WorkloadEnvironment | undefined) === undefined) return;
  // An attached environment outlives the run: the release goes (its ClusterRoles have fixed names), with its namespace.
  try {
    helmRelease(env.info.kubeconfig, release, 'uninstall');
  } catch {
    // Not installed (a test failed before, or the last one uninstalled it and failed to install it again).
  }
  await kube.delete({ type: coreTypes.namespace, name: release });
  kube.close();
  await env.stop();
}, 5 * 60_000);

describe('deploy/helm/keyward installed with Helm, the operator in pods', () => {
  it('becomes available with two replicas under the restricted Pod Security Standard, one of them leading', async () => {
    const started = Date.now();
    helmRelease(env.info.kubeconfig, release, 'install', values(image.tag));
    const leader = await waitForRollout(image.tag);
    figures['install to Ready (s)'] = Math.round((Date.now() - started) / 1000);
    expect((await operatorPods(kube, release)).map((pod) => pod.metadata.name)).toContain(leader);
  }, WAIT_MS + 60_000);

  it('serves its metrics through the Service over HTTPS to a scraper bound to keyward-metrics-reader, and to no one else', async () => {
    const service = await kube.get({ type: coreTypes.service, namespace: release, name: 'keyward-metrics' });
    const url = `https://${String((service?.['spec'] as { clusterIP?: string } | undefined)?.clusterIP)}:8080/metrics`;
    const allowed = await waitFor(async () => {
      const answer = await scrape(url, scraperToken);
      return answer.status === 200 ? answer : undefined;
    }, { what: 'the metrics through the Service', timeoutMs: 60_000, intervalMs: 1_000 });
    expect(allowed.body).toContain('keyward_reconcile_total');
    expect((await scrape(url, undefined)).status).toBe(401);
  }, 90_000);

  it('talks to the API server as its own ServiceAccount, with a token the ServiceAccount admission plugin gave its pods', () => {
    const requests = readFileSync(env.info.auditLog, 'utf8').split('\n').filter((line) => line.includes(`"username":"${serviceAccount()}"`));
    expect(requests.length).toBeGreaterThan(0);
  });

  it('converges the appcred example from the pods: a Keystone credential in a Secret', async () => {
    const keystone = env.info.keystone;
    if (keystone === undefined) throw new Error('the environment has no Keystone');
    const objects = await applyExample('appcred/appcred.yaml');
    const secret = objects.find((object) => object.kind === 'Secret');
    const appcred = objects.find((object) => object.kind === 'KeystoneApplicationCredential');
    const spec = appcred?.['spec'] as { userName: string; passwordSelector: string };
    const password = (await kube.get({ type: coreTypes.secret, namespace: 'openstack', name: secret?.metadata.name ?? '' }))?.['data'] as Record<string, string>;
    await (await KeystoneAdmin.login(keystone, rememberSecret)).ensureServiceUser({ userName: spec.userName, password: Buffer.from(password[spec.passwordSelector] ?? '', 'base64').toString('utf8') });
    await waitForReady(appCredType, 'openstack', appcred?.metadata.name ?? '');
  }, WAIT_MS + 60_000);

  it('converges the APIKey example from the pods: once approved, its enforcement Secret in kuadrant', async () => {
    const apiKey = (await applyExample('apikey/apikey.yaml')).find((object) => object.kind === 'APIKey');
    const name = apiKey?.metadata.name ?? '';
    await kube.patch({ type: apiKeyType, namespace: 'team-a', name }, { status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Approved', message: 'approved by the test', lastTransitionTime: new Date().toISOString() }] } }, ContentType.mergePatch, 'status');
    await waitFor(async () => ((await kube.get({ type: coreTypes.secret, namespace: 'kuadrant', name: enforcementSecretName('team-a', name) })) === undefined ? undefined : true), {
      what: 'the enforcement Secret', timeoutMs: WAIT_MS, intervalMs: 1_000,
    });
  }, WAIT_MS + 30_000);

  it('converges the Keycloak example from the pods: the realm and the client, whose credentials land in a Secret', async () => {
    const objects = await applyExample('keycloak/keycloak.yaml');
    const realm = objects.find((object) => object.kind === 'KeycloakRealm');
    const client = objects.find((object) => object.kind === 'KeycloakClient');
    await waitForReady(keycloakRealmType, realm?.metadata.namespace ?? '', realm?.metadata.name ?? '');
    await waitForReady(keycloakClientType, client?.metadata.namespace ?? '', client?.metadata.name ?? '');
  }, 2 * WAIT_MS);

  it('hands over when the leader pod is killed: another pod leads once the Lease expires and converges a change made meanwhile', async () => {
    const leader = await leaderPod(kube, release);
    if (leader === undefined) throw new Error('no leader');
    const killed = leader.metadata.name;
    const started = Date.now();
    // Killed, it cannot release the Lease; deleted, it cannot come back as the same pod.
    await killContainer(env.info.workloads, leader);
    await kubeConfigFor(env.info).makeApiClient(CoreV1Api).deleteNamespacedPod({ namespace: release, name: killed, gracePeriodSeconds: 0 });
    const appcred = example('appcred/appcred.yaml').find(({ object }) => object.kind === 'KeystoneApplicationCredential')?.object;
    await kube.apply({ type: appCredType, namespace: 'openstack', name: 'ac-meanwhile' }, { ...appcred, metadata: { name: 'ac-meanwhile', namespace: 'openstack' } });
    const successor = await waitFor(async () => {
      const now = await leaderPod(kube, release);
      return now !== undefined && now.metadata.name !== killed ? now.metadata.name : undefined;
    }, { what: 'another pod to lead', timeoutMs: WAIT_MS, intervalMs: 1_000 });
    figures['leader killed to a new leader (s)'] = Math.round((Date.now() - started) / 1000);
    expect(successor).not.toBe(killed);
    await waitForReady(appCredType, 'openstack', 'ac-meanwhile');
  }, 2 * WAIT_MS);

  /** Helm changes the release; the new leader takes over and writes nothing: no rotation, no Secret, no Keycloak call that writes. */
  async function quietTakeOver(change: () => void, tag: string, figure: string): Promise<void> {
    const before = await managedState();
    const previousLeader = (await leaderPod(kube, release))?.metadata.name;
    const since = new Date();
    change();
    const leader = await waitForRollout(tag);
    expect(leader).not.toBe(previousLeader);
    await leaderSettled(MANAGED_OBJECTS);
    const leaderObject = await leaderPod(kube, release);
    if (leaderObject === undefined) throw new Error('no leader');
    const applied = await podMetric(leaderObject, scraperToken, 'keyward_actions_total', { outcome: 'applied' });
    figures[`${figure}: actions applied`] = applied;
    figures[`${figure}: API writes`] = writesSince(since).length;
    expect(applied).toBe(0);
    expect(writesSince(since)).toEqual([]);
    expect(await managedState()).toEqual(before);
  }

  it('takes a helm upgrade to a new image tag quietly: leader handed over, zero writes', async () => {
    const next = `${image.tag}-${NEXT_TAG_SUFFIX}`;
    await quietTakeOver(() => helmRelease(env.info.kubeconfig, release, 'upgrade', values(next)), next, 'upgrade');
  }, 3 * WAIT_MS);

  it('takes a helm rollback quietly too', async () => {
    await quietTakeOver(() => helmRelease(env.info.kubeconfig, release, 'rollback'), image.tag, 'rollback');
  }, 3 * WAIT_MS);

  it('keeps the CRDs and the credentials on helm uninstall, and a new install takes over quietly', async () => {
    const before = await managedState();
    helmRelease(env.info.kubeconfig, release, 'uninstall');
    await waitFor(async () => ((await operatorPods(kube, release)).length === 0 ? true : undefined), { what: 'the operator pods to go', timeoutMs: WAIT_MS, intervalMs: 1_000 });
    for (const type of [appCredType, apiKeyType, keycloakRealmType, keycloakClientType]) {
      expect((await kube.list(type)).items.length).toBeGreaterThan(0);
    }
    expect(await managedState()).toEqual(before);
    const since = new Date();
    helmRelease(env.info.kubeconfig, release, 'install', values(image.tag));
    await waitForRollout(image.tag);
    await leaderSettled(MANAGED_OBJECTS);
    const leader = await leaderPod(kube, release);
    if (leader === undefined) throw new Error('no leader');
    figures['reinstall: actions applied'] = await podMetric(leader, scraperToken, 'keyward_actions_total', { outcome: 'applied' });
    expect(figures['reinstall: actions applied']).toBe(0);
    expect(writesSince(since)).toEqual([]);
    expect(await managedState()).toEqual(before);
  }, 3 * WAIT_MS);

  it('converges the keystone-service example from the pods: Keystone Ready in pods of its own, and a credential made against it by its Service name', async () => {
    const { workloads } = env.info;
    const { database } = workloads;
    if (database === undefined) throw new Error('the environment has no database for pods');
    const colon = workloads.images.keystone.lastIndexOf(':');
    const keystoneImage = { repository: workloads.images.keystone.slice(0, colon), tag: workloads.images.keystone.slice(colon + 1) };
    // The example's database is this environment's MariaDB as pods reach it, and its image the tier's Keystone image.
    const objects = await applyExample('keystone-service/keystone.yaml', (object) => {
      if (object.kind === 'Secret' && object.metadata.name === 'keystone-db') return { ...object, stringData: { username: database.user, password: database.password } };
      if (object.kind !== 'Keystone') return object;
      const spec = object['spec'] as { database: Record<string, unknown> };
      return { ...object, spec: { ...spec, image: keystoneImage, database: { ...spec.database, host: database.host, port: database.port } } };
    });
    const keystone = objects.find((object) => object.kind === 'Keystone');
    const namespace = keystone?.metadata.namespace ?? '';
    await createPodDatabase(kubeConfigFor(env.info), namespace, workloads, 'keystone', { name: 'keystone-db', key: 'password' });
    await waitForReady(keystoneType, namespace, keystone?.metadata.name ?? '');

    // The example's service user, made from the host through the Service's ClusterIP (kube-proxy answers there).
    const endpoint = ((await kube.get({ type: keystoneType, namespace, name: keystone?.metadata.name ?? '' }))?.['status'] as { endpoint?: string } | undefined)?.endpoint ?? '';
    expect(endpoint).toMatch(/^http:\/\/[a-z0-9-]+\.[a-z0-9-]+\.svc\.cluster\.local:/);
    const service = await kube.get({ type: coreTypes.service, namespace, name: keystone?.metadata.name ?? '' });
    const clusterIp = (service?.['spec'] as { clusterIP?: string } | undefined)?.clusterIP ?? '';
    const adminPassword = (objects.find((object) => object.kind === 'Secret' && object.metadata.name === 'keystone-admin')?.['stringData'] as { password: string }).password;
    const admin = await KeystoneAdmin.login({ url: `http://${clusterIp}:${String(API_PORT)}/v3`, username: 'admin', password: adminPassword, projectName: 'admin', domain: 'Default' }, rememberSecret);
    const credential = await applyExample('keystone-service/appcred.yaml');
    const appcred = credential.find((object) => object.kind === 'KeystoneApplicationCredential');
    const spec = appcred?.['spec'] as { userName: string; passwordSelector: string };
    const userPassword = (credential.find((object) => object.kind === 'Secret')?.['stringData'] as Record<string, string>)[spec.passwordSelector] ?? '';
    const user = await admin.ensureServiceUser({ userName: spec.userName, password: userPassword });
    // The pods reach that Keystone only by the endpoint's name: the credential is Ready once they resolved it.
    await waitForReady(appCredType, namespace, appcred?.metadata.name ?? '');
    const status = (await kube.get({ type: appCredType, namespace, name: appcred?.metadata.name ?? '' }))?.['status'] as { acID?: string; secretName?: string } | undefined;
    expect(status?.secretName).toBeDefined();
    expect(await admin.applicationCredentialIds(user.userId)).toContain(status?.acID);
  }, 2 * WAIT_MS);
});

describe('deploy/base applied with the real kubectl (apply --server-side -k), once the Helm release is gone', () => {
  it('takes over every example quietly: two ready pods in keyward-system, one leading, zero writes', async () => {
    helmRelease(env.info.kubeconfig, release, 'uninstall');
    await waitFor(async () => ((await operatorPods(kube, release)).length === 0 ? true : undefined), { what: 'the Helm release\'s pods to go', timeoutMs: WAIT_MS, intervalMs: 1_000 });
    operatorNamespace = BASE_NAMESPACE;
    const before = await managedState({ withSettings: false });
    // The Keycloak admin Secret goes beside the operator, where deploy/base's Role lets it read one.
    await kube.apply({ type: coreTypes.namespace, name: BASE_NAMESPACE }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: BASE_NAMESPACE, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
    const keycloak = env.info.keycloak;
    if (keycloak === undefined) throw new Error('the environment has no Keycloak');
    await kube.create({ type: coreTypes.secret, namespace: BASE_NAMESPACE, name: 'keycloak-admin' }, { metadata: { name: 'keycloak-admin' }, stringData: { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret } });
    const since = new Date();
    const started = Date.now();
    await applyBase(env.info.kubeconfig, image, {
      KEYWARD_KEYCLOAK_URL: keycloak.url,
      KEYWARD_KEYCLOAK_ADMIN_SECRET: `${BASE_NAMESPACE}/keycloak-admin`,
    });
    await waitForRollout(image.tag);
    figures['kubectl apply -k to Ready (s)'] = Math.round((Date.now() - started) / 1000);
    await leaderSettled(MANAGED_OBJECTS + KEYSTONE_SERVICE_OBJECTS);
    const leader = await leaderPod(kube, operatorNamespace);
    if (leader === undefined) throw new Error('no leader');
    figures['kubectl apply -k: actions applied'] = await podMetric(leader, scraperToken, 'keyward_actions_total', { outcome: 'applied' });
    expect(figures['kubectl apply -k: actions applied']).toBe(0);
    expect(writesSince(since)).toEqual([]);
    expect(await managedState({ withSettings: false })).toEqual(before);
  }, 3 * WAIT_MS);
});
