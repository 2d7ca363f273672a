// Resident memory of the operator (the image's bundle started as the image starts it, in its own process, every
// controller, all namespaces) with 200 converged KeystoneApplicationCredentials (`--crs` for more), before and
// after 5,000 unrelated Secrets appear in another namespace; then its start-up with them all converged: a new
// process, from its start until it has reconciled every CR once. Targets: at most 90 MiB with the 200 CRs
// (1.2 × the Go controller it replaces, which held 56 to 75 MB on the same 200) and at most 250 MiB with
// 10,000; the Secrets add at most 10 MiB, i.e. nothing caches Secrets it does not manage; the start-up writes
// nothing and calls Keystone never. Figures are compared after a forced full GC: as found, they differ by MiB
// with the time of the last one.
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import type { Environment } from '@keyward/test-env';
import { imageEntrypoint } from '../../packages/operator/test/image-entrypoint.js';
import { requestsDuring } from '../support/api-server-requests.js';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { OPERATOR_AS_RUN, SAMPLING, buildBundle, cpuSeconds, measure, metricSum, startOperator, statusMiB, stopAll, stopOperator, withOperatorOutput, type Operator } from '../support/operator-process.js';
import { inBatches } from '../support/pool.js';
import { sizes } from '../support/sizes.js';
import { rounded, timed, within } from '../support/timing.js';
import { whenCount } from '../support/watch.js';
import { isReady, namespaceWithCrs, serviceUser } from './setup.js';

const { crs: CRS } = sizes({ crs: 200 });
const UNRELATED_SECRETS = 5_000;
const SECRET_BYTES = 100;
/** After a change, before measuring: the operator's reactions to it, if any, are over by then. */
const SETTLE_MS = 15_000;
/** Converging takes Keystone about a second per credential at the operator's concurrency on a busy machine. */
const CONVERGE_TIMEOUT_MS = Math.max(10 * 60_000, CRS * 1_000);
const TARGET_RSS_MIB = CRS <= 200 ? 90 : 250;
const GO_CONTROLLER_RSS_MB = [56, 75];
const CONTROLLER = 'keystone-appcred';

async function unrelatedSecrets(kube: KubeClient, namespace: string): Promise<void> {
  await createNamespace(kube, namespace);
  await inBatches(UNRELATED_SECRETS, 50, (i) => {
    const name = `unrelated-${String(i)}`;
    return kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { value: 'x'.repeat(SECRET_BYTES) } });
  });
}

/** Polls the operator's metrics until it has reconciled `count` CRs (once each, or more) and its queue is empty. */
async function reconciledAll(operator: Operator, count: number): Promise<void> {
  for (;;) {
    const reconciled = await metricSum(operator, 'keyward_reconcile_total', { controller: CONTROLLER }).catch(() => 0);
    const queued = await metricSum(operator, 'keyward_workqueue_depth', { controller: CONTROLLER }).catch(() => 1);
    if (reconciled >= count && queued === 0) return;
    await sleep(200);
  }
}

/**
 * A second operator process started on the converged CRs, as after a restart or a rollout: from its start
 * until every CR was reconciled once, with the API server's and Keystone's requests meanwhile.
 */
async function startUp(environment: Environment, bundle: string, options: readonly string[]) {
  const operator = await startOperator(environment, bundle, options);
  try {
    const { result: seconds, requests } = await requestsDuring(environment.info.kubernetes, [appCredType.plural, coreTypes.secret.plural], () => timed(() => withOperatorOutput(operator, within(reconciledAll(operator, CRS), CONVERGE_TIMEOUT_MS, `${String(CRS)} reconciles`))));
    const keystoneCalls = await metricSum(operator, 'keyward_external_requests_total', { api: 'keystone' });
    return { seconds: rounded(seconds, 2), cpuSeconds: rounded(cpuSeconds(operator), 2), peakRssMiB: rounded(statusMiB(operator, 'VmHWM'), 1), apiServer: requests, keystoneCalls };
  } finally {
    await stopOperator(operator);
  }
}

const bundle = buildBundle();
const environment = await startBenchEnvironment({ keystone: true });
const kube = new KubeClient(environment.kubeConfig());
let operator: Operator | undefined;
try {
  const { keystoneUrl, user } = await serviceUser(environment.info);
  const options = ['--keystone-url', keystoneUrl];
  await namespaceWithCrs(kube, 'bench', user, CRS);
  const ready = await whenCount(kube, { type: appCredType, namespace: 'bench' }, CRS, isReady);
  const started = await startOperator(environment, bundle.path, options);
  operator = started;
  await withOperatorOutput(started, within(ready.reached, CONVERGE_TIMEOUT_MS, `${String(CRS)} CRs to be Ready`));
  await ready.stop();
  const converging = { peakRssMiB: rounded(statusMiB(started, 'VmHWM'), 1), cpuSeconds: rounded(cpuSeconds(started), 2) };

  await sleep(SETTLE_MS);
  const baseline = await measure(started);
  await unrelatedSecrets(kube, 'unrelated');
  await sleep(SETTLE_MS);
  const withSecrets = await measure(started);
  await stopOperator(started);
  operator = undefined;
  const restart = await startUp(environment, bundle.path, options);

  console.log(JSON.stringify({
    benchmark: 'appcred-memory',
    crs: CRS,
    unrelatedSecrets: { count: UNRELATED_SECRETS, dataBytes: SECRET_BYTES, namespace: 'unrelated' },
    operator: OPERATOR_AS_RUN,
    entrypoint: imageEntrypoint(),
    samples: `${SAMPLING}, ${String(SETTLE_MS / 1000)} s after each change`,
    // From its start until the CRs were Ready: the most it held while converging them, and its CPU time.
    converging,
    baseline,
    withSecrets,
    // What the operator holds with the CRs (the figure compared with the Go controller), and what the Secrets add.
    rssMiB: { afterGc: baseline.afterGc.rssMiB, asFound: baseline.asFound.rssMiB },
    deltaMiB: {
      afterGc: rounded(withSecrets.afterGc.rssMiB - baseline.afterGc.rssMiB, 1),
      asFound: rounded(withSecrets.asFound.rssMiB - baseline.asFound.rssMiB, 1),
    },
    // A new process on the converged CRs and the Secrets: list, cache, and one reconcile of each CR.
    restart,
    targets: { rssMiB: TARGET_RSS_MIB, goControllerRssMB: GO_CONTROLLER_RSS_MB, deltaMiBAfterGc: 10, restartWrites: 0, restartKeystoneCalls: 0 },
  }, null, 2));
} finally {
  await stopAll({ operator, kube, environment, bundle });
}
