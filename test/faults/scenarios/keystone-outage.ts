// Keystone down for 60 s (short: 20 s) just as every KeystoneApplicationCredential needs it for a rotation.
// Targets: while it is down, the operator's connections fall to its probes (at most one per 10 s in the last
// third of the outage, and far fewer per 5 s than in the first 5 s); a retry refused before it reaches Keystone
// sends nothing to the API server either; every CR rotated and Ready within 30 s of Keystone's return; no
// orphaned or extra credential.
import { setTimeout as sleep } from 'node:timers/promises';
import { auditAppCreds, rotatedSince, settle, settled, type AppCredSnapshot } from '../support/appcred-audit.js';
import { createAppCreds, expireAppCreds } from '../support/appcreds.js';
import { namespaceWithPassword, progress, scenarioNamespace, startFaultEnvironment } from '../support/environment.js';
import { startKeystoneProxy, type ProxyConnection } from '../support/keystone-proxy.js';
import { actionsSent, freePort, scrape } from '../support/metrics.js';
import { startOperator, stopGently, type OperatorProcess } from '../support/operator.js';
import { scenarioOptions } from '../support/options.js';
import { atMost, exactly, report, result, withinSeconds } from '../support/result.js';

const options = scenarioOptions();
const size = options.mode === 'short' ? { crs: 12, outageMs: 20_000 } : { crs: 30, outageMs: 60_000 };
const namespace = scenarioNamespace('faults-keystone-outage');
const names = Array.from({ length: size.crs }, (_, i) => `ac-outage-${String(i)}`);
const BUCKET_MS = 5_000;
/** The Keystone client's longest wait between probes of an endpoint that is down. */
const PROBE_INTERVAL_MS = 10_000;
const READY_WITHIN_S = 30;

/** Connections accepted in each 5 s of the outage that began at `fromMs`. */
function perBucket(connections: readonly ProxyConnection[], fromMs: number): number[] {
  const counts = Array.from({ length: Math.ceil(size.outageMs / BUCKET_MS) }, () => 0);
  for (const { atMs } of connections) {
    const index = Math.floor((atMs - fromMs) / BUCKET_MS);
    if (index >= 0 && index < counts.length) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

const between = (connections: readonly ProxyConnection[], fromMs: number, toMs: number): number =>
  connections.filter(({ atMs }) => atMs >= fromMs && atMs < toMs).length;

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

const started = performance.now();
const fault = await startFaultEnvironment('keystone-outage');
const proxy = await startKeystoneProxy(fault.keystoneUrl);
let operator: OperatorProcess | undefined;
try {
  await namespaceWithPassword(fault, namespace);
  await createAppCreds(fault, namespace, names);
  const metricsPort = await freePort();
  operator = startOperator(fault.info, [
    '--namespaces', namespace, '--keystone-url', proxy.url, '--no-leader-elect', '--metrics-bind-address', `127.0.0.1:${String(metricsPort)}`, '--no-metrics-secure', '--health-bind-address', '0', '--concurrency', '4',
  ]);
  const patchesSent = async (): Promise<number> => actionsSent(await scrape(metricsPort), 'k8s.patch');
  const creation = (await settle(fault, { namespace, names })).audit;
  const before = (await auditAppCreds(fault, namespace, names)).statuses;

  progress(`${String(size.crs)} CRs Ready; Keystone down for ${String(size.outageMs / 1000)} s, every CR rotating`);
  const patchesBefore = await patchesSent();
  proxy.down();
  const downAt = performance.now();
  await expireAppCreds(fault, namespace, names);
  await sleep(size.outageMs - (performance.now() - downAt));
  const patchesDuringOutage = (await patchesSent()) - patchesBefore;
  proxy.up();
  const upAt = performance.now();
  progress('Keystone back; waiting for every CR to rotate');

  const rotated = (snapshot: AppCredSnapshot): boolean => rotatedSince(before, snapshot, names) === names.length;
  const recovery = await settle(fault, { namespace, names, done: (snapshot) => settled(snapshot) && rotated(snapshot), timeoutMs: 180_000, intervalMs: 250 });
  const readyAfterMs = performance.now() - upAt;
  const liveAfter = await fault.liveCredentials('ac-outage-');

  const connections = proxy.connections;
  const outageBuckets = perBucket(connections, downAt);
  const lastThirdMs = size.outageMs / 3;
  const lastThird = between(connections, upAt - lastThirdMs, upAt);
  const firstFiveS = outageBuckets[0] ?? 0;
  // The buckets that lie wholly in the last third.
  const busiestOfLastThird = Math.max(0, ...outageBuckets.slice(Math.ceil((size.outageMs - lastThirdMs) / BUCKET_MS)));

  const output = result('keystone-outage', options.mode, started, {
    crs: size.crs,
    outageS: size.outageMs / 1000,
    connectionsPer5sDuringOutage: outageBuckets,
    connectionsDuringOutage: between(connections, downAt, upAt),
    connectionsInLastThird: lastThird,
    lastThirdS: seconds(lastThirdMs),
    connectionsFromReturnUntilReady: between(connections, upAt, upAt + readyAfterMs),
    patchesDuringOutage,
    allReadyAfterReturnS: seconds(readyAfterMs),
    creation,
    recovery: recovery.audit,
    liveCredentialsAfter: liveAfter.length,
  }, [
    exactly('CRs not Ready before the outage', creation.notReady, 0),
    // Probes come every 10 s once the outage is 15 s old; one more for a probe at the edge of the third.
    atMost('connections in the last third of the outage (probes, one per 10 s)', lastThird, Math.ceil(lastThirdMs / PROBE_INTERVAL_MS) + 1),
    atMost('connections in the busiest 5 s of the last third (a third of the first 5 s at most)', busiestOfLastThird, Math.floor(firstFiveS / 3)),
    // Each retry logs in first: refused without a request while Keystone is down, it patches nothing.
    exactly('PATCHes of the CRs while Keystone is down', patchesDuringOutage, 0),
    withinSeconds("seconds from Keystone's return until every CR is rotated and Ready", seconds(readyAfterMs), READY_WITHIN_S),
    exactly('CRs not rotated', names.length - rotatedSince(before, recovery, names), 0),
    exactly('CRs not Ready after the outage', recovery.audit.notReady, 0),
    exactly('orphaned credentials', recovery.audit.orphanedCredentials, 0),
    exactly('extra credentials', recovery.audit.extraCredentials, 0),
    exactly('Secrets beyond current and previous', recovery.audit.extraSecrets, 0),
    atMost('live credentials per CR after rotation (current and previous)', liveAfter.length, 2 * size.crs),
  ]);
  report(output);
} finally {
  if (operator !== undefined) await stopGently(operator);
  await proxy.close();
  await fault.stop();
}
