// Fairness of the Keycloak rate limiter under a lopsided backlog, with the limits set below what Keycloak
// sustains here (global 10/s, per namespace 2/s), so the limiter and not Keycloak is the bottleneck. One
// shared realm; one big namespace and 20 small ones, each with its KeycloakClients, all created before the
// client controller starts (queued by its first list, the big namespace's first). Both controllers run with
// core's runtime, wired as the operator wires them, sharing one FairRateLimiter that records every admin
// acquisition per namespace.
// Two phases, each in a fresh environment (so neither sees the other's objects):
// - limiter: the client controller with more workers than there are objects, so no namespace waits for a
//   worker: each has its reconciles in flight up to the per-namespace cap (the operator's default), and the
//   limiter decides whose request goes. Targets: no one-second window above the
//   global limit by more than 5%; every small namespace all Ready within 1.2 x the time its requests need at
//   a fair share of the global rate; total time within 1.2 x the floor the limits set; Jain's index of
//   request throughput over the namespaces with a backlog at least 0.95.
// - operator default: the same objects at the operator's default concurrency (4 per controller), for a fixed
//   time, to measure head-of-line blocking in the work queue before the limiter.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeClient } from '@keyward/runtime/io';
import { defaultKeycloakConfig, keycloakClientType, keycloakRealmType } from '@keyward/keycloak';
import type { FairRateLimits } from '@keyward/runtime/io';
import { defaultKeycloakRateLimits } from '@keyward/keycloak/io';
import { createNamespace, startBenchEnvironment } from '../support/environment.js';
import { waitSettled } from '../support/idle.js';
import { inBatches } from '../support/pool.js';
import { median, rounded, within } from '../support/timing.js';
import { whenCount, whenEachNamespace } from '../support/watch.js';
import { RecordingLimiter, countBetween, jainIndex, maxInWindow, ratesPerWindow } from './limiter-log.js';
import { KeycloakTally, summary } from './requests.js';
import { createClient, createRealm, isReady, keycloakConfig, keycloakControllers } from './setup.js';

/**
 * The 400 + 20 x 10. At about 4 requests per client (a lookup and the creation, then the reconcile
 * its own status write wakes reads the client and its secret), the big namespace alone needs about
 * 400 x 4 / 2 = 800 s at its 2/s, a small one about 40 / (10/21) = 84 s at a fair share.
 */
const BIG_CLIENTS = 400;
const SMALL_NAMESPACES = 20;
const SMALL_CLIENTS = 10;
const LIMITS: FairRateLimits = {
  ...defaultKeycloakRateLimits,
  tenant: { ratePerSecond: 2, burst: 2 },
  global: { ratePerSecond: 10, burst: 1 },
};
/** More than the objects: no reconcile waits for a worker, only for its namespace's cap and the limiter. */
const LIMITER_CONCURRENCY = 320;
/** The operator's default reconciles at once per controller (DEFAULT_CONCURRENCY in its options). */
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_PHASE_MS = 90_000;
/** The limiter phase ends here even if the big namespace is not all Ready (then it says how far it got). */
const LIMITER_PHASE_CAP_MS = 25 * 60_000;
const REALM_NAMESPACE = 'platform';
const REALM = 'shared';
const JAIN_WINDOW_MS = 10_000;

interface Layout {
  readonly big: string;
  readonly small: readonly string[];
  readonly clients: ReadonlyMap<string, number>;
}

function layout(): Layout {
  const big = 'team-big';
  const small = Array.from({ length: SMALL_NAMESPACES }, (_, i) => `team-small-${String(i + 1).padStart(2, '0')}`);
  return { big, small, clients: new Map([[big, BIG_CLIENTS], ...small.map((namespace) => [namespace, SMALL_CLIENTS] as const)]) };
}

/** A fresh environment with the realm Ready and every client created, the client controller not yet started. */
async function prepared<T>(concurrency: number, measure: (run: Run) => Promise<T>): Promise<T> {
  const environment = await startBenchEnvironment({ keystone: false, keycloak: true });
  const kube = new KubeClient(environment.kubeConfig());
  try {
    const config = await keycloakConfig(kube, environment);
    const { big, small, clients } = layout();
    for (const namespace of [REALM_NAMESPACE, ...clients.keys()]) await createNamespace(kube, namespace);
    const limiter = new RecordingLimiter(LIMITS);
    const tally = new KeycloakTally();
    const controllers = keycloakControllers(environment, config, { limiter, concurrency, keycloakObserver: tally.observer });
    try {
      const realmReady = await whenCount(kube, { type: keycloakRealmType, namespace: REALM_NAMESPACE }, 1, isReady);
      await controllers.realms.start();
      await createRealm(kube, REALM_NAMESPACE, REALM, [...clients.keys()]);
      await within(realmReady.reached, 120_000, 'the realm to be Ready');
      await realmReady.stop();
      await waitSettled(controllers.realms);
      for (const [namespace, count] of clients) {
        await inBatches(count, 25, (i) => createClient(kube, namespace, `app-${String(i + 1).padStart(3, '0')}`, { namespace: REALM_NAMESPACE, name: REALM }));
      }
      const arrivals = await whenEachNamespace(kube, keycloakClientType, clients, isReady);
      try {
        return await measure({ big, small, limiter, tally, start: () => controllers.clients.start(), arrivals });
      } finally {
        await arrivals.stop();
      }
    } finally {
      await controllers.stop();
    }
  } finally {
    kube.close();
    await environment.stop();
  }
}

interface Run {
  readonly big: string;
  readonly small: readonly string[];
  readonly limiter: RecordingLimiter;
  readonly tally: KeycloakTally;
  start(): Promise<void>;
  readonly arrivals: Awaited<ReturnType<typeof whenEachNamespace>>;
}

const seconds = (ms: number): number => rounded(ms / 1000, 1);

/** Requests of `namespace` from `from` on. */
function requestsOf(run: Run, namespace: string, from: number, to = Infinity): number {
  return countBetween(run.limiter.acquired.get(namespace) ?? [], from, to);
}

/** Jain's index in consecutive windows, over the namespaces not yet all Ready at each window's end. */
function windowedJain(run: Run, namespaces: readonly string[], from: number, to: number): number[] {
  const indexes: number[] = [];
  for (let start = from; start + JAIN_WINDOW_MS <= to; start += JAIN_WINDOW_MS) {
    const end = start + JAIN_WINDOW_MS;
    const backlogged = namespaces.filter((namespace) => (run.arrivals.reachedAt.get(namespace) ?? Infinity) >= end);
    if (backlogged.length < 2) break;
    indexes.push(jainIndex(backlogged.map((namespace) => requestsOf(run, namespace, start, end))));
  }
  return indexes;
}

async function limiterPhase(run: Run) {
  const started = performance.now();
  await run.start();
  const cap = new AbortController();
  const allReady = await Promise.race([run.arrivals.all.then(() => true), sleep(LIMITER_PHASE_CAP_MS, false, { signal: cap.signal }).catch(() => false)]);
  cap.abort();
  const finished = performance.now();
  const namespaces = [run.big, ...run.small];
  const acquisitions = run.limiter.allAcquisitions().filter((t) => t >= started);
  const sent = [...run.tally.adminSentAt()].filter((t) => t >= started).sort((a, b) => a - b);
  const globalRate = LIMITS.global.ratePerSecond;
  const fairShare = globalRate / namespaces.length;

  const small = run.small.map((namespace) => {
    const readyMs = (run.arrivals.reachedAt.get(namespace) ?? finished) - started;
    const requests = requestsOf(run, namespace, started, started + readyMs);
    const fairShareMs = (requests / fairShare) * 1000;
    return { namespace, readySeconds: seconds(readyMs), requests, fairShareSeconds: seconds(fairShareMs), ratio: rounded(readyMs / fairShareMs, 2) };
  });
  const worst = small.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const bigRequests = requestsOf(run, run.big, started);
  const totalRequests = acquisitions.length;
  // What a client needs, as the small namespaces (all Ready, few limiter timeouts) show it; the floor of the
  // whole run is the global limit over every client's requests, or the big namespace's own limit over its own.
  const perClient = small.reduce((n, s) => n + s.requests, 0) / (run.small.length * SMALL_CLIENTS);
  const floorMs = Math.max((perClient * (BIG_CLIENTS + run.small.length * SMALL_CLIENTS)) / globalRate, (perClient * BIG_CLIENTS) / LIMITS.tenant.ratePerSecond) * 1000;
  const firstSmallReady = Math.min(...run.small.map((namespace) => run.arrivals.reachedAt.get(namespace) ?? finished));
  const backlogShares = namespaces.map((namespace) => requestsOf(run, namespace, started, firstSmallReady));
  const windows = windowedJain(run, namespaces, started, finished);
  const timeouts = Object.fromEntries(run.limiter.timedOut);

  return {
    concurrency: LIMITER_CONCURRENCY,
    namespaceConcurrency: defaultKeycloakConfig.keycloakNamespaceConcurrency,
    seconds: seconds(finished - started),
    globalWindow: {
      limit: globalRate,
      maxAcquiredInAnySecond: maxInWindow(acquisitions),
      maxSentInAnySecond: maxInWindow(sent),
      meanRate: rounded(totalRequests / ((finished - started) / 1000), 2),
      ratio: rounded(maxInWindow(acquisitions) / globalRate, 2),
    },
    smallNamespaces: {
      fairSharePerSecond: rounded(fairShare, 3),
      worst,
      medianRatio: rounded(median(small.map((s) => s.ratio)), 2),
      medianReadySeconds: seconds(median(small.map((s) => s.readySeconds * 1000))),
      lastReadySeconds: rounded(Math.max(...small.map((s) => s.readySeconds)), 1),
      each: small,
    },
    bigNamespace: {
      allReady: run.arrivals.reachedAt.has(run.big),
      ready: run.arrivals.meeting(run.big),
      readySeconds: run.arrivals.reachedAt.has(run.big) ? seconds((run.arrivals.reachedAt.get(run.big) ?? finished) - started) : `not all within ${String(LIMITER_PHASE_CAP_MS / 1000)} s`,
      requests: bigRequests,
    },
    total: {
      allReady,
      seconds: seconds(finished - started),
      requests: totalRequests,
      requestsPerClient: rounded(perClient, 2),
      floorSeconds: seconds(floorMs),
      ratio: allReady ? rounded((finished - started) / floorMs, 2) : `more than ${String(rounded((finished - started) / floorMs, 2))}`,
    },
    jain: {
      untilFirstSmallNamespaceReady: { seconds: seconds(firstSmallReady - started), index: rounded(jainIndex(backlogShares), 3), requests: Object.fromEntries(namespaces.map((n, i) => [n, backlogShares[i] ?? 0])) },
      perWindow: { windowSeconds: JAIN_WINDOW_MS / 1000, windows: windows.length, min: rounded(Math.min(...windows), 3), median: rounded(median(windows), 3) },
    },
    limiterTimeouts: { total: Object.values(timeouts).reduce((a, b) => a + b, 0), byNamespace: timeouts },
    keycloak: summary(run.tally.snapshot()),
  };
}

/** The same objects at the operator's default concurrency for a fixed time: who got requests through. */
async function defaultConcurrencyPhase(run: Run) {
  const started = performance.now();
  await run.start();
  await sleep(DEFAULT_PHASE_MS);
  const ended = performance.now();
  const acquisitions = run.limiter.allAcquisitions().filter((t) => t >= started);
  const smallRequests = run.small.map((namespace) => requestsOf(run, namespace, started, ended));
  const rates = ratesPerWindow(acquisitions, started, ended, 10_000);
  return {
    concurrency: DEFAULT_CONCURRENCY,
    namespaceConcurrency: defaultKeycloakConfig.keycloakNamespaceConcurrency,
    seconds: seconds(ended - started),
    adminRequests: acquisitions.length,
    meanRate: rounded(acquisitions.length / ((ended - started) / 1000), 2),
    ratePer10s: rates.map((rate) => rounded(rate, 1)),
    bigNamespaceRequests: requestsOf(run, run.big, started, ended),
    smallNamespaceRequests: smallRequests.reduce((a, b) => a + b, 0),
    smallNamespacesWithAnyRequest: smallRequests.filter((n) => n > 0).length,
    smallNamespacesAllReady: run.small.filter((namespace) => run.arrivals.reachedAt.has(namespace)).length,
    bigNamespaceClientsReady: run.arrivals.meeting(run.big),
    smallNamespaceClientsReady: run.small.reduce((n, namespace) => n + run.arrivals.meeting(namespace), 0),
  };
}

const limiter = await prepared(LIMITER_CONCURRENCY, limiterPhase);
const operatorDefault = await prepared(DEFAULT_CONCURRENCY, defaultConcurrencyPhase);

console.log(JSON.stringify({
  benchmark: 'keycloak-fairness',
  clients: { bigNamespace: BIG_CLIENTS, smallNamespaces: SMALL_NAMESPACES, perSmallNamespace: SMALL_CLIENTS, realms: 1 },
  limits: LIMITS,
  mode: 'realm Ready first; every client created before the client controller starts (queued by its first list, the big namespace first)',
  limiter,
  operatorDefaultConcurrency: operatorDefault,
  targets: { globalWindowRatio: 1.05, smallNamespaceRatio: 1.2, totalRatio: 1.2, jain: 0.95 },
}, null, 2));
