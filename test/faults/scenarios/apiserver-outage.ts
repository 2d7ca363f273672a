// The API server stopped for 20 s (short: 8 s) right around deletes of APIKeys and KeystoneApplicationCredentials,
// a few rounds with the operator as the only replica, then a few with leader election. A revoked API key must
// not keep working: each deleted APIKey's enforcement Secret must go soon after the API server is back, and
// each deleted CR must be released by its finalizer. With leader election the leader cannot renew during the
// outage and exits (status 1, by design); a supervisor starts it again as a Deployment would.
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes, type ResourceType } from '@keyward/kernel';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { appCredType } from '@keyward/keystone-appcred';
import { isStored, waitFor } from '@keyward/test-env';
import { createApprovedApiKeys, enforcedApiKeys } from '../support/apikeys.js';
import { auditAppCreds, settle } from '../support/appcred-audit.js';
import { createAppCreds } from '../support/appcreds.js';
import { namespaceWithPassword, progress, startOwnFaultEnvironment, type OwnFaultEnvironment } from '../support/environment.js';
import { scenarioOptions } from '../support/options.js';
import { removed, timeRemovals, totals, type Removed } from '../support/removals.js';
import { exactly, report, result, withinSeconds, type Target } from '../support/result.js';
import { Supervisor, type SupervisorCounts } from '../support/supervisor.js';

const options = scenarioOptions();
const size = options.mode === 'short'
  ? { apiKeys: 40, appCreds: 8, rounds: 3, keysPerRound: 5, downMs: 8_000 }
  : { apiKeys: 160, appCreds: 16, rounds: 6, keysPerRound: 10, downMs: 20_000 };
/** How long after the deletes returned the API server is stopped: at once, while the operator acts on them, after. */
const STOP_DELAYS_MS = [0, 300, 1_000];
/** An enforcement Secret or CR still there this long after the API server's return counts as a missed delete. */
const MISSED_AFTER_MS = 60_000;
const CONSUMERS = 'faults-outage-consumers';
const APPCREDS = 'faults-outage-appcreds';
const ENFORCEMENT = 'faults-outage-enforcement';
const LEASES = 'faults-outage-leases';
const MODES = ['no-leader-elect', 'leader-elect'] as const;
type Mode = (typeof MODES)[number];

const keyNames = Array.from({ length: size.apiKeys }, (_, i) => `outage-key-${String(i)}`);
const appCredNames = Array.from({ length: size.appCreds }, (_, i) => `ac-outage-${String(i)}`);

interface Round {
  readonly stopDelayMs: number;
  /** From the stop until the process was gone. */
  readonly stoppingMs: number;
  /** From the start until /readyz answered: the "return" that latencies count from. The outage is downMs plus this. */
  readonly startingMs: number;
  /** The enforcement Secrets of the deleted APIKeys; pendingAtFault: still stored once the API server was gone. */
  readonly secrets: Removed;
  /** The deleted CRs, held by their finalizer until the operator releases them. */
  readonly appCreds: Removed;
}

function operatorArgs(fault: OwnFaultEnvironment, mode: Mode): string[] {
  const election = mode === 'leader-elect' ? ['--lease-namespace', LEASES] : ['--no-leader-elect'];
  return ['--namespaces', `${CONSUMERS},${APPCREDS}`, '--enforcement-namespace', ENFORCEMENT, '--keystone-url', fault.keystoneUrl, '--metrics-bind-address', '0', '--health-bind-address', '0', ...election];
}

/** Where kube-apiserver stores an object in etcd. */
function storageKey(type: ResourceType, namespace: string, name: string): string {
  return `/registry/${type.group === '' ? '' : `${type.group}/`}${type.plural}/${namespace}/${name}`;
}

/** How many of `keys` etcd holds. */
async function stored(fault: OwnFaultEnvironment, keys: readonly string[]): Promise<number> {
  const held = await Promise.all(keys.map((key) => isStored(fault.info.etcdUrl, key)));
  return held.filter(Boolean).length;
}

/** The CRs of `names` that still exist (being deleted included: their finalizer holds them). */
async function presentAppCreds(fault: OwnFaultEnvironment): Promise<ReadonlySet<string>> {
  return new Set((await fault.kube.listAll(appCredType, { namespace: APPCREDS })).items.map((object) => object.metadata.name));
}

/** Until every live APIKey has its enforcement Secret and every live CR has settled (Ready, nothing pending). */
async function converged(fault: OwnFaultEnvironment, keys: readonly string[], appCreds: readonly string[]): Promise<void> {
  await waitFor(async () => {
    const enforced = await enforcedApiKeys(fault, ENFORCEMENT);
    return keys.every((name) => enforced.has(`${CONSUMERS}/${name}`)) ? true : undefined;
  }, { what: 'every enforcement Secret', timeoutMs: 300_000, intervalMs: 1_000 });
  await settle(fault, { namespace: APPCREDS, names: appCreds });
}

/** Deletes a batch, stops the API server `stopDelayMs` later, keeps it down, starts it and times the removals. */
async function outageRound(fault: OwnFaultEnvironment, keys: readonly string[], appCreds: readonly string[], stopDelayMs: number): Promise<Round> {
  await Promise.all([
    ...keys.map((name) => fault.kube.delete({ type: apiKeyType, namespace: CONSUMERS, name })),
    ...appCreds.map((name) => fault.kube.delete({ type: appCredType, namespace: APPCREDS, name })),
  ]);
  await sleep(stopDelayMs);
  // Stopped at once (SIGKILL right after SIGTERM), as a crash or a partition ends it: no request in flight
  // completes and no open watch delivers another event.
  const stopping = performance.now();
  await fault.env.stopComponent('kube-apiserver', { graceMs: 0 });
  const stopped = performance.now();
  const [secretsPending, appCredsPending] = await Promise.all([
    stored(fault, keys.map((name) => storageKey(coreTypes.secret, ENFORCEMENT, enforcementSecretName(CONSUMERS, name)))),
    stored(fault, appCreds.map((name) => storageKey(appCredType, APPCREDS, name))),
  ]);
  await sleep(size.downMs - (stopped - stopping));
  await fault.env.startComponent('kube-apiserver');
  const returned = performance.now();
  const within = { withinMs: MISSED_AFTER_MS };
  const [secrets, crs] = await Promise.all([
    timeRemovals(keys.map((name) => `${CONSUMERS}/${name}`), () => enforcedApiKeys(fault, ENFORCEMENT), returned, within),
    timeRemovals(appCreds, () => presentAppCreds(fault), returned, within),
  ]);
  return {
    stopDelayMs,
    stoppingMs: Math.round(stopped - stopping),
    startingMs: Math.round(returned - stopping - size.downMs),
    secrets: removed(keys.length, secretsPending, secrets),
    appCreds: removed(appCreds.length, appCredsPending, crs),
  };
}

interface ModeRun {
  readonly mode: Mode;
  readonly rounds: readonly Round[];
  readonly supervisor: SupervisorCounts;
  /** Live APIKeys without their enforcement Secret, and live CRs not Ready, once the rounds are over. */
  readonly liveKeysUnenforced: number;
  readonly liveAppCredsNotReady: number;
}

/** Runs the rounds of one mode on the objects left by the previous one, each round deleting the next batch. */
async function runMode(fault: OwnFaultEnvironment, mode: Mode, batch: { keys: string[]; appCreds: string[] }): Promise<ModeRun> {
  const supervisor = new Supervisor(fault.info, operatorArgs(fault, mode));
  supervisor.start();
  const rounds: Round[] = [];
  try {
    await converged(fault, batch.keys, batch.appCreds);
    for (let round = 0; round < size.rounds; round++) {
      const stopDelayMs = STOP_DELAYS_MS[round % STOP_DELAYS_MS.length] ?? 0;
      const keys = batch.keys.splice(0, size.keysPerRound);
      const appCreds = batch.appCreds.splice(0, 1);
      const outcome = await outageRound(fault, keys, appCreds, stopDelayMs);
      rounds.push(outcome);
      const { secrets } = outcome;
      progress(`${mode} round ${String(round + 1)}/${String(size.rounds)}: stop ${String(stopDelayMs)} ms after the deletes, ${String(secrets.pendingAtFault)}/${String(secrets.deleted)} Secrets left; gone at most ${String(Math.max(0, ...secrets.removalMs))} ms after the return, ${String(secrets.missed.length)} missed`);
    }
    await converged(fault, batch.keys, batch.appCreds).catch(() => undefined);
    const enforced = await enforcedApiKeys(fault, ENFORCEMENT);
    const audit = (await auditAppCreds(fault, APPCREDS, batch.appCreds)).audit;
    return {
      mode,
      rounds,
      supervisor: supervisor.counts(),
      liveKeysUnenforced: batch.keys.filter((name) => !enforced.has(`${CONSUMERS}/${name}`)).length,
      liveAppCredsNotReady: audit.notReady,
    };
  } finally {
    await supervisor.stop();
  }
}

function summary(run: ModeRun): Record<string, unknown> {
  const roundFigures = (r: Removed): Record<string, unknown> => ({ deleted: r.deleted, pendingAtFault: r.pendingAtFault, removalMaxMs: Math.max(0, ...r.removalMs), missed: r.missed });
  return {
    rounds: run.rounds.map((r) => ({ stopDelayMs: r.stopDelayMs, stoppingMs: r.stoppingMs, startingMs: r.startingMs, secrets: roundFigures(r.secrets), appCreds: roundFigures(r.appCreds) })),
    secrets: totals(run.rounds.map((r) => r.secrets)),
    appCreds: totals(run.rounds.map((r) => r.appCreds)),
    restarts: run.supervisor.restarts,
    lostLeadershipExits: run.supervisor.lostLeadershipExits,
    crashes: run.supervisor.crashes,
    liveKeysUnenforced: run.liveKeysUnenforced,
    liveAppCredsNotReady: run.liveAppCredsNotReady,
  };
}

/**
 * Removal latency targets, in seconds after the API server's return (/readyz), and why. As the only replica:
 * while nothing answers, each informer retries at least every 2 s (reconnectMaxMs), so it asks again within
 * 2 s of the return, often before /readyz; the watch cache answers 429 for a few seconds after a start, which
 * is retried from 0.2 s doubling; the relist after the return turns the deletes it missed into 'deleted' events,
 * and a key whose removal failed during the outage is retried as soon as an informer is accepted again. That is
 * about 5 s at worst on a loaded machine: 10 s leaves room. With leader election, a leader that could not renew
 * for 10 s has exited; its successor reads the Lease within one retry period (2 s, 10 % jitter) of the return
 * and, as client-go does, waits one lease duration (15 s) from that read before it takes over at its next attempt
 * (2.2 s), then lists and removes: about 21 s at worst, 25 s with room.
 */
const LATENCY_TARGET_S: Readonly<Record<Mode, number>> = { 'no-leader-elect': 10, 'leader-elect': 25 };

function targets(run: ModeRun): Target[] {
  const missed = run.rounds.reduce((sum, r) => sum + r.secrets.missed.length, 0);
  const missedCrs = run.rounds.reduce((sum, r) => sum + r.appCreds.missed.length, 0);
  const latencyS = Math.max(0, ...run.rounds.flatMap((r) => [...r.secrets.removalMs, ...r.appCreds.removalMs])) / 1000;
  const targetsOfMode = [
    exactly(`${run.mode}: enforcement Secrets of deleted APIKeys still there ${String(MISSED_AFTER_MS / 1000)} s after the return`, missed, 0),
    exactly(`${run.mode}: deleted CRs still there ${String(MISSED_AFTER_MS / 1000)} s after the return`, missedCrs, 0),
    withinSeconds(`${run.mode}: largest removal latency after the return (s)`, latencyS, LATENCY_TARGET_S[run.mode]),
    exactly(`${run.mode}: live APIKeys without their enforcement Secret`, run.liveKeysUnenforced, 0),
    exactly(`${run.mode}: live CRs not Ready`, run.liveAppCredsNotReady, 0),
    exactly(`${run.mode}: operator exits other than on lost leadership`, run.supervisor.crashes.length, 0),
  ];
  // As the only replica nothing may end the process: there is no lease to lose.
  if (run.mode === 'no-leader-elect') targetsOfMode.push(exactly(`${run.mode}: operator exits`, run.supervisor.restarts, 0));
  return targetsOfMode;
}

const started = performance.now();
const fault = await startOwnFaultEnvironment('apiserver-outage');
try {
  for (const name of [CONSUMERS, ENFORCEMENT, LEASES]) await fault.kube.create({ type: coreTypes.namespace, name }, { metadata: { name } });
  await namespaceWithPassword(fault, APPCREDS);
  await createApprovedApiKeys(fault, CONSUMERS, keyNames);
  await createAppCreds(fault, APPCREDS, appCredNames);
  progress(`${String(size.apiKeys)} approved APIKeys and ${String(size.appCreds)} CRs created; API server down ${String(size.downMs / 1000)} s per round`);
  const batch = { keys: [...keyNames], appCreds: [...appCredNames] };
  const runs: ModeRun[] = [];
  for (const mode of MODES) runs.push(await runMode(fault, mode, batch));

  const output = result('apiserver-outage', options.mode, started, {
    apiKeys: size.apiKeys, appCreds: size.appCreds, downS: size.downMs / 1000, roundsPerMode: size.rounds, stopDelaysMs: STOP_DELAYS_MS,
    ...Object.fromEntries(runs.map((run) => [run.mode, summary(run)])),
  }, runs.flatMap(targets));
  report(output);
} finally {
  await fault.stop();
}
