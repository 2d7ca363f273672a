// Apply to Ready for one Keystone object (real Keystone pods on the workload tier, against the environment's
// MariaDB): the Keystone controller with core's runtime, wired as the operator wires it and watching every
// namespace, from the object's creation until its Ready condition is True at its generation; against a floor: a
// plain script creating the object and then the same objects the controller would (rendered by the package's own
// pure functions), in the controller's order and with the same waits (db_sync Job Complete, Deployment
// Available, bootstrap Job Complete), then a Ready status. Each phase has a namespace and database of its own,
// and the one before is deleted (its pods gone) first. The floor runs once before and once after the controller;
// the ratio uses their mean; an unmeasured floor run before them all warms the node's caches. Target: controller time at most 1.3 x the floor's.
import { isLeft } from 'fp-ts/lib/Either.js';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { coreTypes, type KubeObject, type ResourceType, sensitive, type Sensitive } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { KEY_BYTES, initialRepository, keysFrom } from '../../packages/keystone-service/src/fernet.js';
import { bootstrapRunKey, connectionHash, dbSyncRunKey } from '../../packages/keystone-service/src/run-keys.js';
import { configData } from '../../packages/keystone-service/src/reconcile.js';
import { deploymentReady } from '../../packages/keystone-service/src/rollout.js';
import { configMapName } from '../../packages/keystone-service/src/config-map.js';
import { connectionUrl } from '../../packages/keystone-service/src/keystone-conf.js';
import { decodeKeystone, internalEndpoint, keystoneType, names } from '@keyward/keystone-service';
import * as objects from '../../packages/keystone-service/src/objects.js';
import { podDisruptionBudgetType } from '../../packages/keystone-service/src/api.js';
import type { Environment, WorkloadEnvironment } from '@keyward/test-env';
import { formatTime } from '@keyward/kernel/model';
import { resolveTemplate, type ObjectTemplate } from '@keyward/kernel/plan';
import { CLUSTER_DOMAIN, conditionOf, databaseOf, keystoneController, keystoneObject, keystoneRef, prepareNamespace } from '../../packages/keystone-service/test/pods/harness.js';
import { difference } from '../support/counts.js';
import { waitSettled } from '../support/idle.js';
import { RequestTally, totals } from '../support/tally.js';
import { measured, rounded, within } from '../support/timing.js';
import { whenCount } from '../support/watch.js';
import { CONVERGE_TIMEOUT_MS, CR, adminPassword, isReady, progress, removeNamespace, startWorkloadEnvironment, whenObject } from './setup.js';

const REPLICAS = 1;
/** Steps whose end both sides report, with the Keystone condition that marks it for the controller. */
const STEP_MARKS = [['dbSync', 'DatabaseReady'], ['deployment', 'DeploymentReady'], ['bootstrap', 'BootstrapReady']] as const;
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;

const keystoneOf = (workloads: WorkloadEnvironment, namespace: string): KubeObject => keystoneObject(workloads, namespace, CR, databaseOf(namespace), { replicas: REPLICAS });

/** The controller, started before the object exists; timed from its creation until Ready. */
async function controllerPhase(environment: Environment, workloads: WorkloadEnvironment, setup: KubeClient, namespace: string) {
  const tally = new RequestTally();
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  const { controller, stop } = keystoneController(kube, { concurrency: CONCURRENCY });
  await controller.start();
  const started = tally.snapshot();
  // When each step's condition was first seen True, from the object's creation.
  const steps: Record<string, number> = {};
  let t0 = 0;
  const ready = await whenCount(setup, { type: keystoneType, namespace }, 1, (object) => {
    for (const [step, condition] of STEP_MARKS) {
      if (steps[step] === undefined && conditionOf(object, condition)?.status === 'True') steps[step] = rounded((performance.now() - t0) / 1000, 2);
    }
    return isReady(object);
  });
  try {
    const span = await measured(async () => {
      t0 = performance.now();
      await setup.create(keystoneRef(namespace, CR), keystoneOf(workloads, namespace));
      await within(ready.reached, CONVERGE_TIMEOUT_MS, `Keystone ${namespace}/${CR} to be Ready`);
    });
    await waitSettled(controller);
    const counted = difference(tally.snapshot().kubernetes, started.kubernetes);
    return {
      seconds: rounded(span.seconds, 2),
      cpuSeconds: rounded(span.cpuSeconds, 2),
      steps,
      // Until settled, after the informers' first lists (those are in informerStart).
      kubernetes: { ...totals({ kubernetes: counted, keystone: {} }), byRequest: counted },
      informerStart: totals(started),
    };
  } finally {
    await ready.stop();
    await stop();
    kube.close();
  }
}

/** A template as the controller's interpreter sends it: sensitive values revealed (a floor has no outputs to wait for). */
function body(template: ObjectTemplate) {
  return resolveTemplate(template, () => {
    throw new Error('the floor renders no template with outputs');
  });
}

function secretValue(secret: KubeObject | undefined, key: string): string {
  const data = (secret?.['data'] ?? {}) as Record<string, string>;
  return Buffer.from(data[key] ?? '', 'base64').toString('utf8');
}

const asSecretValues = (repository: Readonly<Record<string, string>>): Record<string, Sensitive> =>
  Object.fromEntries(Object.entries(repository).map(([index, key]) => [index, sensitive(key)]));

/**
 * The floor: the Keystone object (its uid owns everything, as with the controller), the two Secrets it names
 * read, then created in the controller's order: the fernet and credential key Secrets, the ConfigMap, the
 * connection Secret, the db_sync Job (until Complete), the Deployment, Service and PodDisruptionBudget (until the
 * Deployment is Available as the controller reads it), the bootstrap Job (until Complete), and a Ready status.
 * Each wait is a watch started before the write it waits for, as the controller's informers see the change.
 */
async function floorPhase(environment: Environment, workloads: WorkloadEnvironment, namespace: string) {
  const tally = new RequestTally();
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  const create = (type: ResourceType, template: ObjectTemplate, name: string) => kube.create({ type, namespace, name }, body(template));
  const until = async (type: ResourceType, name: string, test: (object: KubeObject) => boolean, write: () => Promise<unknown>) => {
    const arrival = await whenObject(kube, type, namespace, name, test);
    try {
      await write();
      await within(arrival.reached, CONVERGE_TIMEOUT_MS, `${type.kind} ${namespace}/${name}`);
    } finally {
      await arrival.stop();
    }
  };
  const complete = (object: KubeObject) => conditionOf(object, 'Complete')?.status === 'True';
  const steps: Record<string, number> = {};
  let t0 = 0;
  const mark = (step: (typeof STEP_MARKS)[number][0]) => { steps[step] = rounded((performance.now() - t0) / 1000, 2); };
  try {
    const span = await measured(async () => {
      t0 = performance.now();
      const stored = await kube.create(keystoneRef(namespace, CR), keystoneOf(workloads, namespace));
      const decoded = decodeKeystone(stored);
      if (isLeft(decoded)) throw new Error(`the Keystone does not decode: ${decoded.left.message}`);
      const cr = decoded.right;
      const { fernet, credentialKeys, bootstrap } = cr.spec;
      const [dbSecret, adminSecret] = await Promise.all([
        kube.get({ type: coreTypes.secret, namespace, name: cr.spec.database.secretRef.name }),
        kube.get({ type: coreTypes.secret, namespace, name: bootstrap.adminPasswordSecretRef.name }),
      ]);
      const dbUsername = secretValue(dbSecret, 'username');
      const dbPassword = secretValue(dbSecret, 'password');
      const password = secretValue(adminSecret, bootstrap.adminPasswordSecretRef.key);

      const material = randomBytes(KEY_BYTES * (fernet.maxActiveKeys + credentialKeys.maxActiveKeys));
      const now = formatTime(new Date());
      await create(coreTypes.secret, objects.keySecret(cr, names.fernetKeys(CR), asSecretValues(initialRepository(keysFrom(material, fernet.maxActiveKeys))), now), names.fernetKeys(CR));
      await create(coreTypes.secret, objects.keySecret(cr, names.credentialKeys(CR), asSecretValues(initialRepository(keysFrom(material, credentialKeys.maxActiveKeys, fernet.maxActiveKeys))), now), names.credentialKeys(CR));

      const data = configData(cr, dbUsername, undefined, CLUSTER_DOMAIN);
      const configName = configMapName(names.configBase(CR), data);
      await create(coreTypes.configMap, objects.configMap(cr, configName, data), configName);
      const url = connectionUrl(cr.spec, { namespace, dbUsername, clusterDomain: CLUSTER_DOMAIN }, dbPassword);
      // The floor knows the URL works: straight into the Secret the pods use.
      await create(coreTypes.secret, objects.connectionSecret(cr, names.dbConnection(CR), sensitive(url)), names.dbConnection(CR));
      const urlHash = connectionHash(cr.metadata.uid, sensitive(url));

      const syncKey = dbSyncRunKey(objects.imageOf(cr), configName, urlHash);
      await until(coreTypes.job, names.dbSyncJob(CR), complete, () => create(coreTypes.job, objects.dbSyncJob(cr, syncKey, configName, names.dbConnection(CR)), names.dbSyncJob(CR)));
      mark('dbSync');

      const api = names.api(CR);
      await until(coreTypes.deployment, api, (object) => deploymentReady(object, cr.spec.replicas).status === 'True', async () => {
        await create(coreTypes.deployment, objects.deployment(cr, configName, urlHash, cr.spec.replicas), api);
        await create(coreTypes.service, objects.service(cr), api);
        await create(podDisruptionBudgetType, objects.podDisruptionBudget(cr), api);
      });
      mark('deployment');

      const endpoint = internalEndpoint(CR, namespace, CLUSTER_DOMAIN);
      const bootKey = bootstrapRunKey(cr.metadata.uid, sensitive(password));
      const bootstrapJob = objects.bootstrapJob(cr, bootKey, configName, { internal: endpoint, public: bootstrap.publicEndpoint ?? endpoint });
      await until(coreTypes.job, names.bootstrapJob(CR), complete, () => create(coreTypes.job, bootstrapJob, names.bootstrapJob(CR)));
      mark('bootstrap');

      const generation = stored.metadata.generation ?? 1;
      await kube.patch(keystoneRef(namespace, CR), {
        status: {
          observedGeneration: generation,
          endpoint,
          configMapName: configName,
          conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'created by a plain script', lastTransitionTime: formatTime(new Date()), observedGeneration: generation }],
        },
      }, ContentType.mergePatch, 'status');
    });
    return { seconds: rounded(span.seconds, 2), cpuSeconds: rounded(span.cpuSeconds, 2), steps, kubernetes: totals(tally.snapshot()) };
  } finally {
    kube.close();
  }
}

const { environment, workloads } = await startWorkloadEnvironment();
const setup = new KubeClient(environment.kubeConfig());
try {
  const phase = async <T>(name: string, run: (namespace: string) => Promise<T>): Promise<T> => {
    const namespace = `ks-${name}`;
    await prepareNamespace(workloads, setup, namespace, adminPassword());
    progress(`${name}: namespace and database ready`);
    const result = await run(namespace);
    progress(`${name}: ${JSON.stringify(result)}`);
    await removeNamespace(setup, namespace);
    return result;
  };
  // Unmeasured: the first Keystone on a fresh node pays for cold caches (image layers, Python's modules).
  const warmUp = await phase('warm-up', (namespace) => floorPhase(environment, workloads, namespace));
  const before = await phase('floor-a', (namespace) => floorPhase(environment, workloads, namespace));
  const controller = await phase('controller', (namespace) => controllerPhase(environment, workloads, setup, namespace));
  const after = await phase('floor-b', (namespace) => floorPhase(environment, workloads, namespace));
  const floorSeconds = (before.seconds + after.seconds) / 2;

  console.log(JSON.stringify({
    benchmark: 'keystone-service-convergence',
    keystones: 1,
    replicas: REPLICAS,
    concurrency: CONCURRENCY,
    image: workloads.info.workloads.images.keystone,
    mode: 'one Keystone object created while the controller (all namespaces) runs, until Ready at its generation; the floor creates the same objects in the same order with the same waits; each phase in a fresh namespace and database, the previous namespace gone',
    controller,
    floor: { seconds: rounded(floorSeconds, 2), before, after },
    ratio: rounded(controller.seconds / floorSeconds, 2),
    // A floor run first, not counted: the first Keystone on a fresh node pays for cold caches.
    warmUpSeconds: warmUp.seconds,
    targets: { ratio: 1.3 },
  }, null, 2));
} finally {
  setup.close();
  await environment.stop();
}
