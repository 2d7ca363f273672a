// jest-cost: 480 s
// jest-exclusive: workload tier
// The Keystone controller with core's runtime, proven with real Keystone pods on the workload tier's kubelet
// against the environment's MariaDB: Ready with two API pods; the admin user authenticates through the Service;
// a fernet rotation reaches every pod without a restart, old tokens still valid; a config change rolls the pods
// and removes the old ConfigMap; a KeystoneApplicationCredential beside it finds it through the Keystone object
// and gets a working credential; a password change re-runs bootstrap and nothing else; a resync writes nothing;
// a broken db_sync is reported with its log; an API that answers but refuses password tokens is not Ready; pods get
// no API access; deletion removes everything.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { AuthorizationV1Api } from '@kubernetes/client-node';
import { coreTypes, type KubeObject, type ObjectRef } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { KeystoneAdmin, kubeConfigFor, rememberSecret, resolveServiceNames, waitFor, workloadEnvironment, type WorkloadEnvironment } from '@keyward/test-env';
import { appCredType } from '@keyward/keystone-appcred';
import { names } from '../../src/index.js';
import { podType } from '../../src/api.js';
import {
  WAIT_MS,
  adminToken,
  applicationCredentialToken,
  apiPods,
  YEARLY,
  conditionOf,
  databaseOf,
  fernetKeys,
  imageSpec,
  keystoneObject,
  keystoneRef,
  controlCharacters,
  createDatabase,
  prepareNamespace,
  runInApiPodTemplate,
  serviceUrl,
  signedWith,
  startAppCredController,
  startController,
  statusOf,
  unique,
  validates,
  waitForObject,
  waitForReady,
  writesOf,
  type RunningController,
} from './harness.js';

const CR = 'identity';
/** A Keystone whose database does not exist, so its db_sync fails. */
const BROKEN = 'broken';
/** A Keystone that serves /v3 (its pods are ready) but takes no password logins, so it issues no admin token. */
const REFUSING = 'refusing';

let env: WorkloadEnvironment;
let kube: KubeClient;
let namespace: string;
let controller: RunningController;
let undoServiceNames: () => void;
let adminPassword = rememberSecret(`admin-${randomBytes(12).toString('hex')}`);
const ref = (): ObjectRef => keystoneRef(namespace, CR);

async function jobUid(name: string): Promise<string | undefined> {
  return (await kube.get({ type: coreTypes.job, namespace, name }))?.metadata.uid;
}

const keystone = (name: string, database: string, extra: Record<string, unknown> = {}): KubeObject => keystoneObject(env, namespace, name, database, extra);

beforeAll(async () => {
  env = await workloadEnvironment();
  kube = new KubeClient(kubeConfigFor(env.info));
  namespace = unique('ks-pods');
  // Keystone connects as the environment's user for pods, which may create databases.
  await prepareNamespace(env, kube, namespace, adminPassword);
  // The controller checks the API, and the credentials' controller finds Keystone, at the in-cluster URL: here
  // on the host, the Service's name resolves as cluster DNS would resolve it for a pod.
  undoServiceNames = resolveServiceNames(kubeConfigFor(env.info));
  controller = await startController(kube, namespace);
}, 15 * 60_000);

afterAll(async () => {
  await controller.stop();
  undoServiceNames();
  kube.close();
  await env.stop();
}, 5 * 60_000);

describe('a Keystone object run as real pods', () => {
  it('becomes Ready, and the admin user authenticates through the Service with the password from the Secret', async () => {
    // The Keystones of later cases start now, so that they get where those cases look while this one starts: the
    // one whose db_sync fails, and the one that refuses password tokens (on a database of its own).
    await kube.create(keystoneRef(namespace, BROKEN), keystone(BROKEN, 'no_such_database', { replicas: 1 }));
    const refusing = createDatabase(env, namespace, `${databaseOf(namespace)}_${REFUSING}`).then(() => kube.create(
      keystoneRef(namespace, REFUSING),
      keystone(REFUSING, `${databaseOf(namespace)}_${REFUSING}`, { replicas: 1, extraConfig: { auth: { methods: 'external' } } }),
    ));
    await kube.create(ref(), keystone(CR, databaseOf(namespace)));
    const ready = await waitForReady(kube, ref());
    await refusing;
    for (const type of ['SecretsReady', 'FernetKeysReady', 'CredentialKeysReady', 'DatabaseReady', 'DeploymentReady', 'KeystoneAPIReady', 'BootstrapReady']) {
      expect(conditionOf(ready, type)?.status).toBe('True');
    }
    expect(statusOf(ready)['endpoint']).toBe(`http://${CR}.${namespace}.svc.cluster.local:5000/v3`);
    // What the controller proved: a token issued through the Service to the admin user.
    expect(conditionOf(ready, 'KeystoneAPIReady')).toMatchObject({ reason: 'TokenIssued', message: `http://${CR}.${namespace}.svc.cluster.local:5000/v3 issued a token to admin` });
    const url = await serviceUrl(kube, namespace, CR);
    expect(await adminToken(url, adminPassword)).toEqual(expect.any(String));
    expect(await adminToken(url, `${adminPassword}-wrong`)).toBeUndefined();
    expect(await apiPods(kube, namespace, CR)).toHaveLength(2);
  }, WAIT_MS + 60_000);

  it('makes no writes when a converged Keystone is resynced', async () => {
    const resynced = await controller.reconcile(namespace, CR);
    expect(resynced.error).toBeUndefined();
    expect(writesOf(resynced)).toEqual([]);
  }, 60_000);

  it('is not Ready while its API answers but refuses password tokens, says what Keystone said, and warns once', async () => {
    const refusingRef = keystoneRef(namespace, REFUSING);
    const refused = await waitForObject(kube, refusingRef, 'KeystoneAPIReady to report the refused token', (object) => conditionOf(object, 'KeystoneAPIReady')?.status === 'False');
    // Its pods are ready (they answer /v3) and bootstrap made the admin user: only the token is missing.
    expect(conditionOf(refused, 'DeploymentReady')?.status).toBe('True');
    expect(conditionOf(refused, 'BootstrapReady')?.status).toBe('True');
    const api = conditionOf(refused, 'KeystoneAPIReady');
    expect(api?.reason).toBe('TokenRefused');
    expect(api?.message).toContain(`http://${REFUSING}.${namespace}.svc.cluster.local:5000/v3 issued no token to admin: Unauthorized: `);
    expect(api?.message).not.toContain(adminPassword);
    expect(controlCharacters(api?.message ?? '')).toEqual([]);
    expect(conditionOf(refused, 'Ready')).toMatchObject({ status: 'False', reason: 'TokenRefused' });
    // Checked again on a resync: still refused, and nothing written, no second Warning.
    const resynced = await controller.reconcile(namespace, REFUSING);
    expect(resynced.error).toBeUndefined();
    expect(writesOf(resynced)).toEqual([]);
    const warnings = (await kube.listAll(coreTypes.event, { namespace })).items.filter((event) => event['reason'] === 'TokenRefused' && (event['regarding'] as { name?: string } | undefined)?.name === REFUSING);
    expect(warnings.map((event) => event['type'])).toEqual(['Warning']);
    await kube.delete(refusingRef);
  }, WAIT_MS + 60_000);

  it('serves a KeystoneApplicationCredential beside it: found through the Keystone object, a credential that logs in', async () => {
    // The credential's controller reads the in-cluster URL from the Keystone's status (resolved as in beforeAll).
    const appCred = await startAppCredController(kube, namespace);
    try {
      const url = await serviceUrl(kube, namespace, CR);
      const admin = await KeystoneAdmin.login({ url, username: 'admin', password: adminPassword, projectName: 'admin', domain: 'Default' }, rememberSecret);
      const servicePassword = rememberSecret(`svc-${randomBytes(12).toString('hex')}`);
      await admin.ensureServiceUser({ userName: 'barbican', password: servicePassword });
      await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { BarbicanPassword: servicePassword } });
      const ref = { type: appCredType, namespace, name: 'ac-barbican' };
      await kube.create(ref, {
        apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-barbican', namespace },
        spec: { secret: 'osp-secret', passwordSelector: 'BarbicanPassword', userName: 'barbican', roles: ['service'] },
      });
      const ready = await waitForObject(kube, ref, 'the application credential to be Ready', (object) => conditionOf(object, 'Ready')?.status === 'True');
      const secretName = statusOf(ready)['secretName'] as string;
      const data = (await kube.get({ type: coreTypes.secret, namespace, name: secretName }))?.['data'] as Record<string, string>;
      const [id, secret] = ['AC_ID', 'AC_SECRET'].map((key) => rememberSecret(Buffer.from(data[key] ?? '', 'base64').toString()));
      expect(await applicationCredentialToken(url, id ?? '', secret ?? '')).toEqual(expect.any(String));
    } finally {
      await appCred.stop();
    }
  }, WAIT_MS);

  it('rotates the fernet keys: every pod issues tokens with the new primary key without a restart, and a token from before still validates', async () => {
    const url = await serviceUrl(kube, namespace, CR);
    const before = await adminToken(url, adminPassword) ?? '';
    const podsBefore = await apiPods(kube, namespace, CR);
    const keysBefore = await fernetKeys(kube, namespace, CR);
    const rotatedBefore = statusOf(await kube.get(ref()))['lastFernetRotation'];
    await kube.patch(ref(), { spec: { fernet: { rotationSchedule: '* * * * *' } } }, ContentType.mergePatch);
    await waitForObject(kube, ref(), 'a fernet rotation', (object) => statusOf(object)['lastFernetRotation'] !== rotatedBefore);
    await kube.patch(ref(), { spec: { fernet: { rotationSchedule: YEARLY } } }, ContentType.mergePatch);
    const keys = await fernetKeys(kube, namespace, CR);
    const primary = keys.get(Math.max(...keys.keys())) ?? '';
    // Keystone's algorithm: the staged key 0 became the primary at a new index.
    expect(primary).toBe(keysBefore.get(0));
    expect(Math.max(...keys.keys())).toBeGreaterThan(Math.max(...keysBefore.keys()));
    for (const pod of podsBefore) {
      // The kubelet refreshes Secret volumes on its own schedule: each pod signs with the new primary once it has it.
      await waitFor(async () => (signedWith(await adminToken(pod.url, adminPassword) ?? '', primary) ? true : undefined), {
        what: `pod ${pod.name} to issue tokens with the new primary key`, timeoutMs: WAIT_MS, intervalMs: 5_000,
      });
      const fresh = await adminToken(pod.url, adminPassword) ?? '';
      for (const other of podsBefore) {
        expect(await validates(other.url, fresh, before)).toBe(true);
        expect(await validates(other.url, before, fresh)).toBe(true);
      }
    }
    expect(await apiPods(kube, namespace, CR)).toEqual(podsBefore);
  }, 2 * WAIT_MS);

  it('rolls the pods on a config change and removes the superseded ConfigMap, without re-running bootstrap', async () => {
    const oldConfig = statusOf(await kube.get(ref()))['configMapName'] as string;
    const bootstrap = await jobUid(names.bootstrapJob(CR));
    const podsBefore = (await apiPods(kube, namespace, CR)).map((pod) => pod.uid);
    await kube.patch(ref(), { spec: { extraConfig: { token: { expiration: '7200' } } } }, ContentType.mergePatch);
    const ready = await waitForReady(kube, ref());
    const newConfig = statusOf(ready)['configMapName'] as string;
    expect(newConfig).not.toBe(oldConfig);
    const configMap = await kube.get({ type: coreTypes.configMap, namespace, name: newConfig });
    expect((configMap?.['data'] as Record<string, string>)['keystone.conf']).toContain('expiration = 7200');
    await waitForObject(kube, { type: coreTypes.configMap, namespace, name: oldConfig }, `ConfigMap ${oldConfig} to be removed`, (object) => object === undefined);
    const pods = await apiPods(kube, namespace, CR);
    expect(pods.map((pod) => pod.uid).filter((uid) => podsBefore.includes(uid))).toEqual([]);
    expect(await jobUid(names.bootstrapJob(CR))).toBe(bootstrap);
    // Through the Service: right after a roll, kube-proxy may still send a connection to a pod that is stopping.
    const url = await serviceUrl(kube, namespace, CR);
    expect(await waitFor(() => adminToken(url, adminPassword), { what: 'a token through the Service after the roll', timeoutMs: 60_000, intervalMs: 1_000 })).toEqual(expect.any(String));
  }, WAIT_MS + 60_000);

  it('re-runs bootstrap, and only bootstrap, when the admin password changes', async () => {
    const url = await serviceUrl(kube, namespace, CR);
    const bootstrap = await jobUid(names.bootstrapJob(CR));
    const dbSync = await jobUid(names.dbSyncJob(CR));
    const deployment = await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) });
    const oldPassword = adminPassword;
    adminPassword = rememberSecret(`admin-${randomBytes(12).toString('hex')}`);
    await kube.patch({ type: coreTypes.secret, namespace, name: 'keystone-admin' }, { stringData: { password: adminPassword } }, ContentType.mergePatch);
    await waitForObject(kube, { type: coreTypes.job, namespace, name: names.bootstrapJob(CR) }, 'a new bootstrap Job', (job) => job !== undefined && job.metadata.uid !== bootstrap);
    await waitFor(async () => (conditionOf(await kube.get(ref()), 'BootstrapReady')?.status === 'True' && (await adminToken(url, adminPassword)) !== undefined ? true : undefined), {
      what: 'bootstrap to set the new password', timeoutMs: WAIT_MS, intervalMs: 2_000,
    });
    expect(await adminToken(url, oldPassword)).toBeUndefined();
    expect(await jobUid(names.dbSyncJob(CR))).toBe(dbSync);
    const after = await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) });
    expect(after?.metadata.generation).toBe(deployment?.metadata.generation);
  }, WAIT_MS + 60_000);

  it('grants the pods nothing: no ServiceAccount token, and no access to the key Secrets', async () => {
    const deployment = await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) });
    const podSpec = (deployment?.['spec'] as { template: { spec: { automountServiceAccountToken?: boolean; serviceAccountName?: string } } }).template.spec;
    expect(podSpec.automountServiceAccountToken).toBe(false);
    const reviews = kubeConfigFor(env.info).makeApiClient(AuthorizationV1Api);
    const user = `system:serviceaccount:${namespace}:${podSpec.serviceAccountName ?? 'default'}`;
    for (const secret of [names.fernetKeys(CR), names.credentialKeys(CR)]) {
      for (const verb of ['get', 'update', 'patch']) {
        const review = await reviews.createSubjectAccessReview({
          body: { spec: { user, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`], resourceAttributes: { namespace, verb, resource: 'secrets', name: secret } } },
        });
        expect({ secret, verb, allowed: review.status?.allowed }).toEqual({ secret, verb, allowed: false });
      }
    }
  }, 60_000);

  it('mounts no ServiceAccount token in its pods, and their key files are 0440, root and group 42424', async () => {
    const api = (await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/component': 'api' } })).items;
    expect(api.length).toBeGreaterThan(0);
    for (const pod of api) {
      const spec = pod['spec'] as { volumes?: { name: string; projected?: unknown }[]; containers: { volumeMounts?: { mountPath: string }[] }[] };
      expect(spec.volumes?.filter((volume) => volume.projected !== undefined)).toEqual([]);
      expect(spec.containers.flatMap((c) => c.volumeMounts ?? []).map((m) => m.mountPath)).not.toContain('/var/run/secrets/kubernetes.io/serviceaccount');
    }
    const script = 'stat -L -c "%a %u %g" /etc/keystone/fernet-keys/0 /etc/keystone/credential-keys/0; if [ -e /var/run/secrets/kubernetes.io/serviceaccount/token ]; then echo token; else echo no-token; fi';
    expect((await runInApiPodTemplate(env, kube, namespace, CR, script)).trim().split('\n')).toEqual(['440 0 42424', '440 0 42424', 'no-token']);
    // The same pod with the default token setting gets one: the ServiceAccount admission plugin is on.
    const withToken = await runInApiPodTemplate(env, kube, namespace, CR, script, ({ automountServiceAccountToken: _off, ...spec }) => spec);
    expect(withToken.trim().split('\n').at(-1)).toBe('token');
  }, 5 * 60_000);

  it('does not run bootstrap again when its completed Job is deleted', async () => {
    const bootstrap = names.bootstrapJob(CR);
    expect(statusOf(await kube.get(ref()))['bootstrapRunKey']).toEqual(expect.any(String));
    await kube.delete({ type: coreTypes.job, namespace, name: bootstrap });
    await waitForObject(kube, { type: coreTypes.job, namespace, name: bootstrap }, `Job ${bootstrap} to be removed`, (job) => job === undefined);
    const resynced = await controller.reconcile(namespace, CR);
    expect(writesOf(resynced)).toEqual([]);
    expect(await jobUid(bootstrap)).toBeUndefined();
    expect(conditionOf(await kube.get(ref()), 'BootstrapReady')?.status).toBe('True');
  }, 2 * 60_000);

  it('is not Ready while a broken configuration crash-loops its new pod, says why, and recovers when it is fixed', async () => {
    await kube.patch(ref(), { spec: { extraConfig: { token: { expiration: '7200', provider: 'no-such-provider' } } } }, ContentType.mergePatch);
    const stuck = await waitForObject(kube, ref(), 'DeploymentReady to report the crashing pod', (object) => conditionOf(object, 'DeploymentReady')?.reason === 'CrashLoopBackOff');
    expect(conditionOf(stuck, 'Ready')?.status).toBe('False');
    const message = conditionOf(stuck, 'DeploymentReady')?.message ?? '';
    // uWSGI exits 0 when Keystone does not load, so the kubelet keeps no log for it: the reason and pod are what is known.
    expect(message).toMatch(/^the rollout is stuck: pod identity-[a-z0-9]+-[a-z0-9]+: CrashLoopBackOff: .* \(1 of 2 pods updated, 2 available, 2 old pods left\)$/);
    expect(controlCharacters(message)).toEqual([]);
    // The old pods serve on.
    expect(await adminToken(await serviceUrl(kube, namespace, CR), adminPassword)).toEqual(expect.any(String));
    await kube.patch(ref(), { spec: { extraConfig: { token: { expiration: '7200', provider: null } } } }, ContentType.mergePatch);
    await waitForReady(kube, ref());
  }, 2 * WAIT_MS);

  it('keeps the database URL that worked in its pods while db_sync fails with a new one', async () => {
    const connection = async () => ((await kube.get({ type: coreTypes.secret, namespace, name: names.dbConnection(CR) }))?.['data'] as Record<string, string>)['connection'];
    const before = await connection();
    const template = JSON.stringify(((await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) }))?.['spec'] as { template: unknown }).template);
    await kube.patch(ref(), { spec: { database: { database: 'no_such_db' } } }, ContentType.mergePatch);
    const failed = await waitForObject(kube, ref(), 'db_sync to fail with the new database', (object) => conditionOf(object, 'DatabaseReady')?.reason === 'JobFailed');
    expect(conditionOf(failed, 'DatabaseReady')?.message).toContain(`delete Job ${names.dbSyncJob(CR)}`);
    expect(await connection()).toBe(before);
    expect(JSON.stringify(((await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) }))?.['spec'] as { template: unknown }).template)).toBe(template);
    // A replacement pod gets the URL that works, and serves.
    const [victim] = await apiPods(kube, namespace, CR);
    await kube.delete({ type: podType, namespace, name: victim?.name ?? '' });
    await waitFor(async () => {
      const pods = (await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/component': 'api' } })).items;
      const ready = pods.filter((pod) => pod.metadata.deletionTimestamp === undefined && ((pod['status'] as { containerStatuses?: { ready?: boolean }[] } | undefined)?.containerStatuses?.[0]?.ready ?? false));
      return ready.length === 2 && !ready.some((pod) => pod.metadata.name === victim?.name) ? true : undefined;
    }, { what: 'a ready replacement pod', timeoutMs: WAIT_MS, intervalMs: 2_000 });
    await kube.patch(ref(), { spec: { database: { database: databaseOf(namespace) } } }, ContentType.mergePatch);
    await waitForReady(kube, ref());
  }, 2 * WAIT_MS);

  it("reports an upgrade whose image cannot be pulled with the pod's reason, and calls it off when the tag is set back", async () => {
    const image = imageSpec(env);
    // A newer release than the installed 2022.2, in an image that does not exist: the upgrade's first Job cannot start.
    await kube.patch(ref(), { spec: { image: { ...image, tag: '2099.1-no-such-image' } } }, ContentType.mergePatch);
    const stuck = await waitForObject(kube, ref(), 'DatabaseReady to report the image', (object) => ['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull'].includes(conditionOf(object, 'DatabaseReady')?.reason ?? ''));
    expect(conditionOf(stuck, 'DatabaseReady')?.message).toContain(`upgrading from 2022.2 to 2099.1: db_sync --expand Job ${names.upgradeJob(CR, 'expand')} cannot run: pod`);
    await kube.patch(ref(), { spec: { image } }, ContentType.mergePatch);
    const back = await waitForReady(kube, ref());
    expect(statusOf(back)).toMatchObject({ installedRelease: '2022.2' });
    expect(statusOf(back)['targetRelease']).toBeUndefined();
    // The Job that could never run is gone with the upgrade.
    await waitForObject(kube, { type: coreTypes.job, namespace, name: names.upgradeJob(CR, 'expand') }, 'the stuck expand Job to be deleted', (object) => object === undefined);
  }, 2 * WAIT_MS);

  it('reports a failed db_sync with the end of its log, and does not retry it blindly', async () => {
    const failed = await waitForObject(kube, keystoneRef(namespace, BROKEN), 'DatabaseReady to report the failed Job', (object) => conditionOf(object, 'DatabaseReady')?.reason === 'JobFailed');
    const message = conditionOf(failed, 'DatabaseReady')?.message ?? '';
    expect(message).toContain(`db_sync Job ${names.dbSyncJob(BROKEN)} failed; its log ends with:`);
    expect(message).toContain('no_such_database');
    // One line, no colour, none of Python's shutdown noise.
    expect(controlCharacters(message)).toEqual([]);
    expect(message).not.toContain('Exception ignored');
    expect(message).not.toContain(env.info.workloads.database?.password ?? '');
    expect(conditionOf(failed, 'Ready')?.status).toBe('False');
    const job = await kube.get({ type: coreTypes.job, namespace, name: names.dbSyncJob(BROKEN) });
    expect(await kube.get({ type: coreTypes.deployment, namespace, name: names.api(BROKEN) })).toBeUndefined();
    // Reconciled again (as a resync would), the failed Job stays: it is not re-run until the image or config changes.
    // (A status write may still come from a cache that has not yet seen the status just read back.)
    expect(writesOf(await controller.reconcile(namespace, BROKEN)).filter((write) => write !== 'k8s.status Keystone')).toEqual([]);
    expect((await kube.get({ type: coreTypes.job, namespace, name: names.dbSyncJob(BROKEN) }))?.metadata.uid).toBe(job?.metadata.uid);
    await kube.delete(keystoneRef(namespace, BROKEN));
  }, WAIT_MS + 60_000);

  it('removes everything it made when the Keystone is deleted', async () => {
    await kube.delete(ref());
    const gone = async (type: ObjectRef['type'], name: string) => {
      await waitForObject(kube, { type, namespace, name }, `${type.kind} ${name} to be removed`, (object) => object === undefined);
    };
    await gone(keystoneRef(namespace, CR).type, CR);
    for (const [type, name] of [
      [coreTypes.deployment, names.api(CR)],
      [coreTypes.service, names.api(CR)],
      [coreTypes.secret, names.fernetKeys(CR)],
      [coreTypes.secret, names.credentialKeys(CR)],
      [coreTypes.secret, names.dbConnection(CR)],
      [coreTypes.job, names.dbSyncJob(CR)],
      [coreTypes.job, names.bootstrapJob(CR)],
    ] as const) await gone(type, name);
    await waitFor(async () => ((await apiPods(kube, namespace, CR)).length === 0 ? true : undefined), { what: 'the API pods to go', timeoutMs: WAIT_MS, intervalMs: 2_000 });
    const configMaps = await kube.list(coreTypes.configMap, { namespace, labels: { 'keystone.openstack.c5c3.io/config-of': CR } });
    expect(configMaps.items).toEqual([]);
  }, WAIT_MS + 60_000);
});
