// jest-cost: 420 s
// jest-exclusive: workload tier
// The production Keystone with real pods. Its pods run with the settings production gives them (resources, a
// PriorityClass, a topology spread, a grace period). It is upgraded across real OpenStack releases: from Debian
// bookworm's packages (Keystone 22, OpenStack 2022.2) to trixie's (Keystone 27, 2025.1) by expand, migrate, a
// rolling update and contract. A migration that fails stops it with the old pods serving; once fixed it goes
// on; a client issuing and validating tokens through the Service the whole time sees no failed request, and a
// token from before the upgrade still validates on the new pods. Then its trust_flush CronJob runs on the new
// release, policy overrides that Keystone's validator refuses never reach its pods, and an autoscaler scales
// it without Keyward taking the scale back.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { coreTypes, type KubeObject, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { importNextKeystoneImage, kubeConfigFor, podHostPattern, rememberSecret, resolveServiceNames, runPodSql, testLogFile, workloadEnvironment, type WorkloadEnvironment } from '@keyward/test-env';
import { names } from '../../src/index.js';
import { cronJobType, horizontalPodAutoscalerType, podType } from '../../src/api.js';
import { WAIT_MS, adminToken, writesOf, apiPods, conditionOf, databaseOf, imageSpec, keystoneObject, keystoneRef, prepareNamespace, runInApiPodTemplate, serviceUrl, startController, statusOf, unique, validates, waitForObject, waitForReady, type RunningController } from './harness.js';
import { withTokenTraffic } from './traffic.js';

const CR = 'production';
const PRIORITY = `identity-${randomBytes(3).toString('hex')}`;
const priorityClassType: ResourceType = { group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false };
const ref = (): ObjectRef => keystoneRef(namespace, CR);

let env: WorkloadEnvironment;
let kube: KubeClient;
let namespace: string;
let controller: RunningController | undefined;
let undoServiceNames: (() => void) | undefined;
let nextImage: Promise<string> | undefined;
const adminPassword = rememberSecret(`admin-${randomBytes(12).toString('hex')}`);
/** Keystone's own database user, with privileges on its database only, so the test can take one away. */
const dbUser = `ks_${randomBytes(3).toString('hex')}`;
const dbPassword = rememberSecret(randomBytes(18).toString('hex'));

const account = (): string => `'${dbUser}'@'${podHostPattern().replaceAll('%', '%%')}'`;
const sql = (statements: readonly string[]) =>
  runPodSql(kubeConfigFor(env.info), namespace, env.info.workloads, statements, { name: 'keystone-db', key: 'password' }, [
    { name: 'KEYSTONE_DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'keystone-upgrade-db', key: 'password' } } },
  ]);

const imageOf = (object: KubeObject | undefined): string | undefined =>
  (object?.['spec'] as { template?: { spec?: { containers?: { image?: string }[] } } } | undefined)?.template?.spec?.containers?.[0]?.image;

const configMapOf = (object: KubeObject | undefined): string | undefined =>
  (object?.['spec'] as { template?: { spec?: { volumes?: { configMap?: { name?: string } }[] } } } | undefined)?.template?.spec?.volumes?.[0]?.configMap?.name;

const podImages = async (): Promise<string[]> =>
  (await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/component': 'api' } })).items
    .filter((pod) => pod.metadata.deletionTimestamp === undefined)
    .map((pod) => (pod['spec'] as { containers: { image: string }[] }).containers[0]?.image ?? '');

/**
 * What the upgrade and its pods go through, second by second, for the test's log: the phase, and each API pod
 * with its image's tag, whether it is ready and whether it is stopping.
 */
function recordTimeline(): { stop: () => Promise<string[]> } {
  const lines: string[] = [];
  const state = { running: true, last: '' };
  const loop = (async () => {
    while (state.running) {
      const [keystone, pods] = await Promise.all([kube.get(ref()), kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/component': 'api' } })]);
      const described = pods.items.map((pod) => {
        const image = (pod['spec'] as { containers: { image: string }[] }).containers[0]?.image ?? '';
        const ready = conditionOf(pod, 'Ready')?.status === 'True' ? 'ready' : 'not ready';
        return `${pod.metadata.name} ${image.slice(image.lastIndexOf(':') + 1, image.lastIndexOf(':') + 7)} ${ready}${pod.metadata.deletionTimestamp === undefined ? '' : ' stopping'}`;
      });
      const phase = statusOf(keystone)['upgradePhase'];
      const now = `phase ${typeof phase === 'string' ? phase : 'none'}; ${described.sort().join(', ')}`;
      if (now !== state.last) lines.push(`${new Date().toISOString()} ${now}`);
      state.last = now;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  return {
    stop: async () => {
      state.running = false;
      await loop;
      return lines;
    },
  };
}

beforeAll(async () => {
  env = await workloadEnvironment();
  kube = new KubeClient(kubeConfigFor(env.info));
  namespace = unique('ks-upgrade');
  // Built (or found in the cache) and imported while the first release starts.
  nextImage = importNextKeystoneImage(env.info.workloads.containerdAddress, testLogFile('keystone-next-image'));
  nextImage.catch(() => undefined);
  await prepareNamespace(env, kube, namespace, adminPassword);
  await kube.create({ type: coreTypes.secret, namespace, name: 'keystone-upgrade-db' }, { metadata: { name: 'keystone-upgrade-db' }, stringData: { username: dbUser, password: dbPassword } });
  const database = databaseOf(namespace);
  await sql([`CREATE USER ${account()} IDENTIFIED BY %(KEYSTONE_DB_PASSWORD)s`, `GRANT ALL PRIVILEGES ON \`${database}\`.* TO ${account()}`]);
  undoServiceNames = resolveServiceNames(kubeConfigFor(env.info));
  controller = await startController(kube, namespace);
}, 15 * 60_000);

afterAll(async () => {
  await kube.delete({ type: priorityClassType, name: PRIORITY }).catch(() => undefined);
  await controller?.stop();
  undoServiceNames?.();
  kube.close();
  await nextImage?.catch(() => undefined);
  await env.stop();
}, 5 * 60_000);

describe('a production Keystone with real pods', () => {
  it('runs its API pods with the resources, priority, spread, grace period and uWSGI workers of its spec', async () => {
    await kube.create({ type: priorityClassType, name: PRIORITY }, { metadata: { name: PRIORITY }, value: 1_000_000, description: 'identity' });
    await kube.create(ref(), keystoneObject(env, namespace, CR, databaseOf(namespace), {
      database: { host: env.info.workloads.database?.host, port: env.info.workloads.database?.port, database: databaseOf(namespace), secretRef: { name: 'keystone-upgrade-db' } },
      resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '1Gi' } },
      priorityClassName: PRIORITY,
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }],
      terminationGracePeriodSeconds: 40,
      uwsgi: { processes: 3, harakiri: 120 },
      trustFlush: { schedule: '0 3 * * *' },
    }));
    const installed = await waitForReady(kube, ref());
    expect(statusOf(installed)).toMatchObject({ installedRelease: '2022.2' });
    const pods = (await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/component': 'api' } })).items;
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      const spec = pod['spec'] as { priority?: number; priorityClassName?: string; terminationGracePeriodSeconds?: number; topologySpreadConstraints?: unknown[]; containers: { resources?: unknown; lifecycle?: unknown; command?: string[] }[] };
      expect(spec).toMatchObject({ priorityClassName: PRIORITY, priority: 1_000_000, terminationGracePeriodSeconds: 40 });
      expect(spec.topologySpreadConstraints).toEqual([{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': CR, 'app.kubernetes.io/managed-by': 'keyward', 'app.kubernetes.io/component': 'api' } } }]);
      expect(spec.containers[0]?.resources).toEqual({ requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '1Gi' } });
      expect(spec.containers[0]?.lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '10'] } } });
      expect(spec.containers[0]?.command?.slice(-6)).toEqual(['--processes', '3', '--threads', '1', '--harakiri', '120']);
      expect((pod['status'] as { qosClass?: string }).qosClass).toBe('Burstable');
    }
  }, WAIT_MS + 60_000);

  it('is upgraded to the next release with no failed request, after a failed migration kept the old pods serving', async () => {
    const bookworm = imageSpec(env);
    expect(bookworm.tag).toMatch(/^2022\.2-/);

    const url = await serviceUrl(kube, namespace, CR);
    const admin = await adminToken(url, adminPassword);
    const before = await adminToken(url, adminPassword);
    if (admin === undefined || before === undefined) throw new Error('the admin password was refused');
    const timeline = recordTimeline();
    const { result: { upgraded, trixie }, counts } = await withTokenTraffic({ url, password: adminPassword, auth: admin, subject: before }, async () => {
      // The migration fails: Keystone's user may no longer alter its tables.
      await sql([`REVOKE ALTER ON \`${databaseOf(namespace)}\`.* FROM ${account()}`]);
      const next = await nextImage;
      if (next === undefined) throw new Error('the next release\'s image was not asked for');
      const tag = next.slice(next.lastIndexOf(':') + 1);
      expect(tag).toMatch(/^2025\.1-/);
      await kube.patch(ref(), { spec: { image: { repository: bookworm.repository, tag } } }, ContentType.mergePatch);
      const failed = await waitForObject(kube, ref(), 'the failed expand to be reported', (object) => conditionOf(object, 'DatabaseReady')?.reason === 'JobFailed');
      expect(statusOf(failed)).toMatchObject({ installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Expanding' });
      expect(conditionOf(failed, 'DatabaseReady')?.message).toContain(`upgrading from 2022.2 to 2025.1: db_sync --expand Job ${names.upgradeJob(CR, 'expand')} failed`);
      expect(conditionOf(failed, 'DatabaseReady')?.message).toContain('ALTER command denied');
      expect(imageOf(await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) }))).toBe(`${bookworm.repository}:${bookworm.tag}`);
      expect(await podImages()).toEqual([`${bookworm.repository}:${bookworm.tag}`, `${bookworm.repository}:${bookworm.tag}`]);
      expect(await kube.get({ type: coreTypes.job, namespace, name: names.upgradeJob(CR, 'migrate') })).toBeUndefined();

      // Fixed, and the failed Job deleted: the upgrade goes on.
      await sql([`GRANT ALTER ON \`${databaseOf(namespace)}\`.* TO ${account()}`]);
      await kube.delete({ type: coreTypes.job, namespace, name: names.upgradeJob(CR, 'expand') });
      const done = await waitForObject(kube, ref(), 'the upgrade to 2025.1 to finish', (object) => statusOf(object)['installedRelease'] === '2025.1' && conditionOf(object, 'Ready')?.status === 'True');
      return { upgraded: done, trixie: next };
    });
    expect(statusOf(upgraded)['targetRelease']).toBeUndefined();
    expect(statusOf(upgraded)['upgradePhase']).toBeUndefined();

    // Each step ran once, in order, with the new image.
    const jobs = await Promise.all((['expand', 'migrate', 'contract'] as const).map((step) => kube.get({ type: coreTypes.job, namespace, name: names.upgradeJob(CR, step) })));
    for (const job of jobs) {
      expect(imageOf(job)).toBe(trixie);
      expect(conditionOf(job, 'Complete')?.status).toBe('True');
    }
    const started = jobs.map((job) => Date.parse(job?.metadata.creationTimestamp ?? ''));
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    expect(await podImages()).toEqual([trixie, trixie]);
    // The schema is at the new release's head.
    expect((await runInApiPodTemplate(env, kube, namespace, CR, `keystone-manage --config-dir=/etc/keystone/keystone.conf.d/ db_sync --check >/dev/null 2>&1; echo "check $?"`)).trim().split('\n').at(-1)).toBe('check 0');

    // No request failed, through the failed migration, the rollout and the contraction; and there were many.
    appendFileSync(testLogFile('keystone-upgrade'), [...(await timeline.stop()), ...counts.failures, `requests through the Service during the upgrade: ${JSON.stringify({ issued: counts.issued, validated: counts.validated, failed: counts.failures.length })}`, ''].join('\n'));
    expect(counts.failures).toEqual([]);
    expect(counts.issued).toBeGreaterThan(20);
    expect(counts.validated).toBeGreaterThan(20);
    // A token from before the upgrade validates on every new pod.
    const pods = await apiPods(kube, namespace, CR);
    expect(pods).toHaveLength(2);
    for (const pod of pods) expect(await validates(pod.url, admin, before)).toBe(true);
  }, 2 * WAIT_MS + 120_000);

  it('runs keystone-manage trust_flush from its CronJob on the new release', async () => {
    const cronJob = await kube.get({ type: cronJobType, namespace, name: names.trustFlush(CR) });
    const spec = cronJob?.['spec'] as { schedule: string; timeZone: string; suspend: boolean; jobTemplate: { metadata: Record<string, unknown>; spec: Record<string, unknown> } } | undefined;
    if (spec === undefined) throw new Error('the trust_flush CronJob is missing');
    expect(spec).toMatchObject({ schedule: '0 3 * * *', timeZone: 'Etc/UTC', suspend: false });
    // What the CronJob runs at 03:00, run now, as kubectl create job --from=cronjob/... does.
    const jobRef = { type: coreTypes.job, namespace, name: 'trust-flush-now' };
    await kube.create(jobRef, { metadata: { name: 'trust-flush-now', labels: spec.jobTemplate.metadata['labels'] as Record<string, string> }, spec: spec.jobTemplate.spec });
    const job = await waitForObject(kube, jobRef, 'the trust_flush Job to finish', (object) => conditionOf(object, 'Complete')?.status === 'True' || conditionOf(object, 'Failed')?.status === 'True');
    expect(conditionOf(job, 'Complete')?.status).toBe('True');
    expect(imageOf(job)).toMatch(/:2025\.1-/);
    await kube.delete(jobRef);
  }, WAIT_MS);

  it("refuses policy overrides Keystone's validator refuses before any pod gets them, and takes them once fixed", async () => {
    const running = statusOf(await kube.get(ref()))['configMapName'];
    await kube.patch(ref(), { spec: { policyOverrides: { rules: { 'identity:list_userz': 'role:admin' } } } }, ContentType.mergePatch);
    const refused = await waitForObject(kube, ref(), 'the policy overrides to be refused', (object) => conditionOf(object, 'DeploymentReady')?.reason === 'PolicyInvalid');
    expect(conditionOf(refused, 'DeploymentReady')?.message).toContain('Unknown rule found in policy file: identity:list_userz');
    expect(conditionOf(refused, 'Ready')).toMatchObject({ status: 'False', reason: 'PolicyInvalid' });
    // The pods run the configuration they ran before, and the status still names it.
    expect(statusOf(refused)['configMapName']).toBe(running);
    expect(configMapOf(await kube.get({ type: coreTypes.deployment, namespace, name: names.api(CR) }))).toBe(running);

    // A merge patch: the misspelt rule is taken out (null) and the right one put in.
    await kube.patch(ref(), { spec: { policyOverrides: { rules: { 'identity:list_userz': null, 'identity:list_users': 'role:admin' } } } }, ContentType.mergePatch);
    const fixed = await waitForReady(kube, ref());
    expect(statusOf(fixed)['configMapName']).not.toBe(running);
    const policy = await runInApiPodTemplate(env, kube, namespace, CR, 'cat /etc/keystone/keystone.conf.d/policy.yaml');
    expect(policy.trim()).toBe('"identity:list_users": "role:admin"');
  }, 2 * WAIT_MS);

  it('leaves its replicas to an autoscaler when asked, and takes them back when no longer', async () => {
    const hpaRef = { type: horizontalPodAutoscalerType, namespace, name: names.api(CR) };
    // Below the floor, the autoscaler scales up without any metric: the way to see it act here.
    await kube.patch(ref(), { spec: { autoscaling: { minReplicas: 3, maxReplicas: 4 } } }, ContentType.mergePatch);
    await waitForObject(kube, hpaRef, 'the autoscaler', (object) => object !== undefined);
    // The autoscaler changes no generation of the Keystone: wait for the status to count the third pod.
    const scaled = await waitForObject(kube, ref(), 'three API pods ready', (object) => conditionOf(object, 'DeploymentReady')?.message === '3 pods ready');
    expect(conditionOf(scaled, 'Ready')?.status).toBe('True');
    expect(await apiPods(kube, namespace, CR)).toHaveLength(3);
    // Keyward does not take the autoscaler's scale back: a resync writes nothing.
    const resynced = await controller?.reconcile(namespace, CR);
    expect(resynced?.error).toBeUndefined();
    expect(resynced === undefined ? undefined : writesOf(resynced)).toEqual([]);

    await kube.patch(ref(), { spec: { autoscaling: null } }, ContentType.mergePatch);
    await waitForObject(kube, hpaRef, 'the autoscaler to be deleted', (object) => object === undefined);
    // Ready as soon as the scale-down is asked for (as kubectl rollout status is); the count follows.
    const back = await waitForObject(kube, ref(), 'two API pods again', (object) => conditionOf(object, 'DeploymentReady')?.message === '2 pods ready');
    expect(conditionOf(back, 'Ready')?.status).toBe('True');
    expect(await apiPods(kube, namespace, CR)).toHaveLength(2);
  }, 2 * WAIT_MS);
});
