// Five converged Keystone objects (replicas 1, each in its own namespace with its own database, real pods on the
// workload tier) under the Keystone controller with core's runtime, in this process, watching every namespace:
// a full resync (every key reconciled again) writes nothing and re-runs no Job; and what the controller's memory
// grows by per Keystone object (its informers cache the objects' Secrets, ConfigMaps, Deployment, Service,
// PodDisruptionBudget, Jobs, ReplicaSets and pods). The memory is this process's, which runs the controller and
// little else: the namespaces and databases are made before the baseline, and figures are taken after a forced
// full GC, with none, one and five Keystones. Targets: 0 writes and 0 Job re-runs on resync; each Keystone
// after the first adds at most 1 MiB of RSS (and of heap).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { keystoneType, names } from '@keyward/keystone-service';
import { podDisruptionBudgetType } from '../../packages/keystone-service/src/api.js';
import { databaseOf, keystoneController, keystoneObject, keystoneRef, prepareNamespace, writesOf } from '../../packages/keystone-service/test/pods/harness.js';
import { requestsDuring } from '../support/api-server-requests.js';
import { difference } from '../support/counts.js';
import { waitSettled } from '../support/idle.js';
import { RequestTally, totals } from '../support/tally.js';
import { measured, median, rounded, within } from '../support/timing.js';
import { whenEachNamespace } from '../support/watch.js';
import { CONVERGE_TIMEOUT_MS, CR, adminPassword, isReady, progress, startWorkloadEnvironment } from './setup.js';

const KEYSTONES = 5;
const REPLICAS = 1;
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const CONCURRENCY = 4;
const SAMPLES = 5;
const SAMPLE_INTERVAL_MS = 1_000;
/**
 * After the forced collection, before sampling: most memory goes back at once, but V8's memory reducer gives
 * back a few more MiB some twenty seconds later.
 */
const AFTER_GC_MS = 30_000;
const MIB = 1024 * 1024;
/** Per Keystone object, of RSS and of used heap. */
const TARGET_MIB_PER_OBJECT = 1;
/** Kinds the controller writes: the API server's own counts of requests for them during the resync. */
const WRITTEN = [keystoneType, coreTypes.secret, coreTypes.configMap, coreTypes.deployment, coreTypes.service, coreTypes.job, podDisruptionBudgetType].map((type) => type.plural);

interface Memory {
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
}

/** Medians of samples taken after two full collections. */
async function measureMemory(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  await sleep(500);
  gc();
  await sleep(AFTER_GC_MS);
  const rss: number[] = [];
  const heap: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const usage = process.memoryUsage();
    rss.push(usage.rss / MIB);
    heap.push(usage.heapUsed / MIB);
    await sleep(SAMPLE_INTERVAL_MS);
  }
  return { rssMiB: rounded(median(rss), 2), heapUsedMiB: rounded(median(heap), 2) };
}

const { environment, workloads } = await startWorkloadEnvironment();
const setup = new KubeClient(environment.kubeConfig());
const namespaces = Array.from({ length: KEYSTONES }, (_, i) => `ks-resync-${String(i + 1)}`);
try {
  for (const namespace of namespaces) await prepareNamespace(workloads, setup, namespace, adminPassword());
  progress(`${String(KEYSTONES)} namespaces and databases ready`);

  const tally = new RequestTally();
  const kube = new KubeClient(environment.kubeConfig(), { onRequest: tally.onKubeRequest });
  const { controller, stop } = keystoneController(kube, { concurrency: CONCURRENCY });
  await controller.start();
  try {
    const empty = await measureMemory();
    progress(`controller without Keystones: ${JSON.stringify(empty)}`);

    // One Keystone first, then the other four: what the first costs includes code run for the first time (the
    // reconcile, the interpreter's paths, watch connections); what each further one adds is the cost per object.
    const converge = async (some: readonly string[]) => {
      const ready = await whenEachNamespace(setup, keystoneType, new Map(some.map((namespace) => [namespace, 1])), isReady);
      const span = await measured(async () => {
        for (const namespace of some) await setup.create(keystoneRef(namespace, CR), keystoneObject(workloads, namespace, CR, databaseOf(namespace), { replicas: REPLICAS }));
        await within(ready.all, CONVERGE_TIMEOUT_MS, `${String(some.length)} Keystones to be Ready`);
      });
      await ready.stop();
      await waitSettled(controller, 5_000);
      progress(`${String(some.length)} Keystones Ready in ${String(rounded(span.seconds, 1))} s`);
      return span;
    };
    await converge(namespaces.slice(0, 1));
    const one = await measureMemory();
    progress(`controller with 1 Keystone: ${JSON.stringify(one)}`);
    const converging = await converge(namespaces.slice(1));
    const converged = await measureMemory();
    progress(`controller with ${String(KEYSTONES)} Keystones: ${JSON.stringify(converged)}`);

    const jobUids = async () => Promise.all(namespaces.flatMap((namespace) => [names.dbSyncJob(CR), names.bootstrapJob(CR)].map(async (name) => (await setup.get({ type: coreTypes.job, namespace, name }))?.metadata.uid ?? 'missing')));
    const jobsBefore = await jobUids();
    const before = tally.snapshot();
    let seconds = 0;
    const resync = await requestsDuring(environment.info.kubernetes, WRITTEN, async () => {
      const started = performance.now();
      const reconciled = await Promise.all(namespaces.map((namespace) => controller.reconcileKey(`${namespace}/${CR}`)));
      seconds = (performance.now() - started) / 1000;
      return reconciled;
    });
    const client = difference(tally.snapshot().kubernetes, before.kubernetes);
    const jobsAfter = await jobUids();
    const planWrites = resync.result.flatMap(writesOf);
    const errors = resync.result.flatMap((reconciled) => (reconciled.error === undefined ? [] : [reconciled.error.message]));
    const perObject = (from: Memory, to: Memory, count: number) => ({ heapUsed: rounded((to.heapUsedMiB - from.heapUsedMiB) / count, 3), rss: rounded((to.rssMiB - from.rssMiB) / count, 3) });

    console.log(JSON.stringify({
      benchmark: 'keystone-service-resync-memory',
      keystones: KEYSTONES,
      replicas: REPLICAS,
      concurrency: CONCURRENCY,
      image: workloads.info.workloads.images.keystone,
      mode: 'the controller in this process (core runtime, all namespaces); each Keystone in its own namespace and database; resync: every key reconciled again once all are Ready and the controller has settled',
      // Time: the four Keystones after the first, created at once, until all are Ready. Requests: all five, from
      // the controller's start (its informers' first lists included) until it settled.
      converged: { keystones: KEYSTONES - 1, seconds: rounded(converging.seconds, 1), cpuSeconds: rounded(converging.cpuSeconds, 2), kubernetes: { ...totals(before), byRequest: before.kubernetes } },
      resync: {
        seconds: rounded(seconds, 2),
        planWrites: planWrites.length,
        planSteps: [...new Set(resync.result.flatMap((reconciled) => (reconciled.plan?.steps ?? []).map((step) => step.action.kind)))],
        errors,
        client: { ...totals({ kubernetes: client, keystone: {} }), byRequest: client },
        apiServer: { writes: resync.requests.writes, reads: resync.requests.reads, byRequest: resync.requests.byRequest },
        jobReruns: jobsAfter.filter((uid, i) => uid !== jobsBefore[i]).length,
      },
      memory: {
        samples: `median of ${String(SAMPLES)}, ${String(SAMPLE_INTERVAL_MS)} ms apart, ${String(AFTER_GC_MS / 1000)} s after two forced full GCs`,
        withoutKeystones: empty,
        withOneKeystone: one,
        withKeystones: converged,
        // What each Keystone after the first adds (the figure the target applies to), and the mean from none.
        perFurtherKeystoneMiB: perObject(one, converged, KEYSTONES - 1),
        perKeystoneFromNoneMiB: perObject(empty, converged, KEYSTONES),
      },
      targets: { resyncWrites: 0, resyncJobReruns: 0, rssMiBPerKeystone: TARGET_MIB_PER_OBJECT, heapMiBPerKeystone: TARGET_MIB_PER_OBJECT },
    }, null, 2));
  } finally {
    await stop();
    kube.close();
  }
} finally {
  setup.close();
  await environment.stop();
}
