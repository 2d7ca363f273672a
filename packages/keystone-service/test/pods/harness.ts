// What the pod tests share: the environment with the workload tier, the Keystone controller with core's
// runtime, and ways to talk to the Keystone pods from the host: through the
// Service's ClusterIP (kube-proxy) or to one pod at its IP on the node bridge.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { CoreV1Api, type V1PodSpec } from '@kubernetes/client-node';
import { coreTypes, findCondition, type Condition, type KubeObject, type ObjectRef } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { keystoneRuntime, kubernetesRuntime, type KubeClient } from '@keyward/runtime/io';
import { appCredController, defaultAppCredConfig } from '@keyward/keystone-appcred';
import { Controller, createLogger, type KeyReconcile, type RuntimeLogger } from '@keyward/runtime/controller';
import { createPodDatabase, httpCall, kubeConfigFor, passwordAuthBody, testLogFile, waitFor, type WorkloadEnvironment } from '@keyward/test-env';
import { API_PORT, keystoneServiceController, keystoneType, names, type KeystoneAction } from '../../src/index.js';
import { podType } from '../../src/api.js';

/** The cluster's DNS domain the controller renders in-cluster URLs with. */
export const CLUSTER_DOMAIN = 'cluster.local';

/** Keystone pods start, migrate and roll in their own time on a loaded two-core machine. */
export const WAIT_MS = 6 * 60_000;

export const unique = (prefix: string): string => `${prefix}-${randomBytes(3).toString('hex')}`;

export const keystoneRef = (namespace: string, name: string): ObjectRef => ({ type: keystoneType, namespace, name });

export interface RunningController {
  /** Reconciles one Keystone now, as a resync would, and returns the plan it carried out. */
  readonly reconcile: (namespace: string, name: string) => Promise<KeyReconcile<KeystoneAction>>;
  readonly stop: () => Promise<void>;
}

export interface ControllerSetup {
  /** Watch one namespace; all when undefined. */
  readonly namespace?: string;
  /** Silent when undefined. */
  readonly logger?: RuntimeLogger;
  /** Reconciles at once; the runtime's default when undefined. */
  readonly concurrency?: number;
}

/**
 * The Keystone controller with core's runtime, as the operator wires it (not started), and what stops it and
 * its API clients. Its API check requests tokens at the Service's cluster DNS name: a process on the host
 * resolves it with resolveServiceNames.
 */
export function keystoneController(kube: KubeClient, setup: ControllerSetup = {}) {
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keystone-service', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
  const controller = new Controller(keystoneServiceController, {
    kube,
    apis,
    namespace: setup.namespace,
    config: { clusterDomain: CLUSTER_DOMAIN },
    backoff: { baseMs: 500, maxMs: 5_000 },
    ...(setup.logger === undefined ? {} : { logger: setup.logger }),
    ...(setup.concurrency === undefined ? {} : { concurrency: setup.concurrency }),
  });
  return {
    controller,
    stop: async () => {
      await controller.stop();
      apis.close();
    },
  };
}

/** The Keystone controller of one namespace, as the operator runs it. */
export async function startController(kube: KubeClient, namespace: string): Promise<RunningController> {
  const logger = createLogger({ level: 'debug', stream: createWriteStream(testLogFile(`keystone-service-${namespace}`), { flags: 'a' }) });
  const { controller, stop } = keystoneController(kube, { namespace, logger });
  await controller.start();
  return { reconcile: (ns, name) => controller.reconcileKey(`${ns}/${name}`), stop };
}

/** Never due while a test or benchmark runs, until it asks for a rotation. */
export const YEARLY = '0 0 1 1 *';

/** A Keystone of the workload tier's image against the environment's MariaDB, with the Secrets prepareNamespace creates. */
export function keystoneObject(env: WorkloadEnvironment, namespace: string, name: string, database: string, extra: Record<string, unknown> = {}): KubeObject {
  const access = env.info.workloads.database;
  return {
    apiVersion: 'keystone.openstack.c5c3.io/v1alpha1',
    kind: 'Keystone',
    metadata: { name, namespace },
    spec: {
      replicas: 2,
      image: imageSpec(env),
      database: { host: access?.host, port: access?.port, database, secretRef: { name: 'keystone-db' } },
      fernet: { rotationSchedule: YEARLY, maxActiveKeys: 5 },
      bootstrap: { adminPasswordSecretRef: { name: 'keystone-admin' } },
      ...extra,
    },
  };
}

/** The database name a namespace's Keystone uses. */
export const databaseOf = (namespace: string): string => `keystone_${namespace.replaceAll('-', '_')}`;

/**
 * A namespace ready for a Keystone: the Secrets `keystone-db` (the environment's user for pods, which may create
 * databases) and `keystone-admin`, and the database databaseOf(namespace).
 */
export async function prepareNamespace(env: WorkloadEnvironment, kube: KubeClient, namespace: string, adminPassword: string): Promise<void> {
  const access = env.info.workloads.database;
  if (access === undefined) throw new Error('the environment has no database for pods');
  await kube.create({ type: coreTypes.namespace, name: namespace }, { metadata: { name: namespace } });
  await kube.create({ type: coreTypes.secret, namespace, name: 'keystone-db' }, { metadata: { name: 'keystone-db' }, stringData: { username: access.user, password: access.password } });
  await kube.create({ type: coreTypes.secret, namespace, name: 'keystone-admin' }, { metadata: { name: 'keystone-admin' }, stringData: { password: adminPassword } });
  await createDatabase(env, namespace, databaseOf(namespace));
}

/** The KeystoneApplicationCredential controller of one namespace, finding its Keystone as the operator's default does. */
export async function startAppCredController(kube: KubeClient, namespace: string): Promise<{ stop: () => Promise<void> }> {
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keystone-appcred', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
  const logger = createLogger({ level: 'debug', stream: createWriteStream(testLogFile(`keystone-appcred-${namespace}`), { flags: 'a' }) });
  const controller = new Controller(appCredController, { kube, apis, namespace, config: defaultAppCredConfig, backoff: { baseMs: 500, maxMs: 5_000 }, logger });
  await controller.start();
  return {
    stop: async () => {
      await controller.stop();
      apis.close();
    },
  };
}

/** Actions of a reconcile's plan that change something in the cluster (not a requeue), as "k8s.create Job". */
export function writesOf(reconciled: KeyReconcile<KeystoneAction>): string[] {
  return (reconciled.plan?.steps ?? []).flatMap(({ action }) => {
    if (!action.kind.startsWith('k8s.')) return [];
    const ref = 'ref' in action ? action.ref : undefined;
    return [`${action.kind} ${ref?.type.kind ?? ''}`.trim()];
  });
}

/**
 * Creates a database for one Keystone, from a pod (the environment's MariaDB lets the pods' user in from the pod
 * subnet only). Its password reaches the pod through a Secret, which the Keystone object then names too.
 */
export async function createDatabase(env: WorkloadEnvironment, namespace: string, database: string): Promise<void> {
  await createPodDatabase(kubeConfigFor(env.info), namespace, env.info.workloads, database, { name: 'keystone-db', key: 'password' });
}

/** The Keystone image of the workload tier as the spec's repository and tag. */
export function imageSpec(env: WorkloadEnvironment): { repository: string; tag: string } {
  const image = env.info.workloads.images.keystone;
  const colon = image.lastIndexOf(':');
  return { repository: image.slice(0, colon), tag: image.slice(colon + 1) };
}

export function conditionOf(object: KubeObject | undefined, type: string): Condition | undefined {
  const status = object?.['status'];
  return findCondition(readConditions(typeof status === 'object' && status !== null ? (status as Record<string, unknown>)['conditions'] : undefined), type);
}

export function statusOf(object: KubeObject | undefined): Record<string, unknown> {
  const status = object?.['status'];
  return typeof status === 'object' && status !== null ? (status as Record<string, unknown>) : {};
}

/** Waits for the Keystone to be Ready at its current generation. */
export async function waitForReady(kube: KubeClient, ref: ObjectRef): Promise<KubeObject> {
  return waitFor(async () => {
    const object = await kube.get(ref);
    const ready = conditionOf(object, 'Ready');
    if (ready?.status !== 'True' || statusOf(object)['observedGeneration'] !== object?.metadata.generation) {
      throw new Error(`Ready ${ready?.status ?? 'unknown'}: ${ready?.message ?? 'no condition'}`);
    }
    return object;
  }, { what: `Keystone ${ref.namespace ?? ''}/${ref.name} to be Ready`, timeoutMs: WAIT_MS, intervalMs: 1_000 });
}

/** Waits until `test` holds for the object as stored, and returns it. */
export async function waitForObject(kube: KubeClient, ref: ObjectRef, what: string, test: (object: KubeObject | undefined) => boolean): Promise<KubeObject | undefined> {
  return waitFor(async () => {
    const object = await kube.get(ref);
    return test(object) ? { object } : undefined;
  }, { what, timeoutMs: WAIT_MS, intervalMs: 1_000 }).then((found) => found.object);
}

/** The ClusterIP of the Keystone's Service: kube-proxy answers on it from the host. */
export async function serviceUrl(kube: KubeClient, namespace: string, crName: string): Promise<string> {
  const service = await kube.get({ type: coreTypes.service, namespace, name: names.api(crName) });
  const spec = service?.['spec'] as { clusterIP?: string } | undefined;
  if (spec?.clusterIP === undefined) throw new Error(`Service ${names.api(crName)} has no ClusterIP`);
  return `http://${spec.clusterIP}:${String(API_PORT)}/v3`;
}

/** The API pods of a Keystone that are running, with their URLs on the node bridge. */
export async function apiPods(kube: KubeClient, namespace: string, crName: string): Promise<{ name: string; uid: string; url: string; restarts: number }[]> {
  const pods = await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': crName, 'app.kubernetes.io/component': 'api' } });
  return pods.items
    .filter((pod) => pod.metadata.deletionTimestamp === undefined && (pod['status'] as { phase?: string } | undefined)?.phase === 'Running')
    .map((pod) => {
      const status = pod['status'] as { podIP?: string; containerStatuses?: { restartCount?: number }[] };
      return { name: pod.metadata.name, uid: pod.metadata.uid ?? '', url: `http://${status.podIP ?? ''}:${String(API_PORT)}/v3`, restarts: status.containerStatuses?.[0]?.restartCount ?? 0 };
    });
}

/** POSTs an authentication; the token, or undefined when Keystone refuses the credentials. */
async function issueToken(url: string, body: string): Promise<string | undefined> {
  const response = await httpCall(`${url}/auth/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: 30_000 });
  if (response.status === 401) return undefined;
  if (response.status !== 201) throw new Error(`token request to ${url} answered ${String(response.status)}: ${response.body.slice(0, 300)}`);
  const token = response.headers['x-subject-token'];
  if (token === undefined) throw new Error('Keystone issued a token without X-Subject-Token');
  return token;
}

/** A token for the admin user, scoped to project admin; undefined when Keystone refuses the password. */
export function adminToken(url: string, password: string): Promise<string | undefined> {
  return issueToken(url, passwordAuthBody({ username: 'admin', password, projectName: 'admin', domain: 'Default' }));
}

/** A token for an application credential; undefined when Keystone refuses it. */
export function applicationCredentialToken(url: string, id: string, secret: string): Promise<string | undefined> {
  return issueToken(url, JSON.stringify({ auth: { identity: { methods: ['application_credential'], application_credential: { id, secret } } } }));
}

/** Whether the Keystone at `url` accepts `subject` as a valid token (checked with the `auth` token). */
export async function validates(url: string, auth: string, subject: string): Promise<boolean> {
  const response = await httpCall(`${url}/auth/tokens`, { method: 'GET', headers: { 'x-auth-token': auth, 'x-subject-token': subject }, timeoutMs: 30_000 });
  if (response.status === 200) return true;
  if (response.status === 404 || response.status === 401) return false;
  throw new Error(`token validation at ${url} answered ${String(response.status)}: ${response.body.slice(0, 300)}`);
}

/** The fernet keys as stored: index -> key (URL-safe base64 of 32 bytes). */
export async function fernetKeys(kube: KubeClient, namespace: string, crName: string): Promise<Map<number, string>> {
  const secret = await kube.get({ type: coreTypes.secret, namespace, name: names.fernetKeys(crName) });
  const data = (secret?.['data'] ?? {}) as Record<string, string>;
  return new Map(Object.entries(data).map(([index, value]) => [Number(index), Buffer.from(value, 'base64').toString('utf8')]));
}

/**
 * Whether a fernet token was signed with `key`: a token is version, time, IV, ciphertext and an HMAC-SHA256 of
 * all of them under the key's first 16 bytes. Keystone strips the base64 padding.
 */
export function signedWith(token: string, key: string): boolean {
  const raw = Buffer.from(token, 'base64url');
  const signingKey = Buffer.from(key, 'base64url').subarray(0, 16);
  const mac = createHmac('sha256', signingKey).update(raw.subarray(0, raw.length - 32)).digest();
  const sent = raw.subarray(raw.length - 32);
  return sent.length === mac.length && timingSafeEqual(mac, sent);
}

/**
 * Runs `script` once in a pod made from the Keystone Deployment's own pod template (its volumes, security
 * context and token setting), as a shell command instead of Keystone, and returns what it printed. `change`
 * may alter the pod spec first (a control pod that differs in one setting).
 */
export async function runInApiPodTemplate(env: WorkloadEnvironment, kube: KubeClient, namespace: string, crName: string, script: string, change: (spec: Record<string, unknown>) => Record<string, unknown> = (spec) => spec): Promise<string> {
  const deployment = await kube.get({ type: coreTypes.deployment, namespace, name: names.api(crName) });
  const template = (deployment?.['spec'] as { template: { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } } }).template;
  const [container] = template.spec.containers;
  const { startupProbe: _s, livenessProbe: _l, readinessProbe: _r, ...plain } = container ?? {};
  const name = unique('template-probe');
  const core = kubeConfigFor(env.info).makeApiClient(CoreV1Api);
  const spec = change({ ...template.spec, restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ ...plain, command: ['/bin/sh', '-c', script] }] });
  await core.createNamespacedPod({ namespace, body: { metadata: { name }, spec: spec as unknown as V1PodSpec } });
  try {
    await waitFor(async () => {
      const { status } = await core.readNamespacedPod({ name, namespace });
      return status?.phase === 'Succeeded' || status?.phase === 'Failed' ? true : undefined;
    }, { what: `pod ${name} to finish`, timeoutMs: 120_000, intervalMs: 500 });
    return await core.readNamespacedPodLog({ name, namespace });
  } finally {
    await core.deleteNamespacedPod({ name, namespace });
  }
}

/** The control characters (line breaks, escape) in a text, as their codes: a condition message has none. */
export function controlCharacters(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0)).filter((code) => code < 0x20 || code === 0x7f);
}
