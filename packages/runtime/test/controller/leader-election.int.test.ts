import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminKubeConfig, createTestNamespace, waitFor } from '@keyward/test-env';
import { KeywardError } from '@keyward/kernel/interpreter';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { resourcePath } from '../../src/apis/kubernetes/io/paths.js';
import { coreTypes } from '@keyward/kernel';
import { LeaderElector, microTime, type Lease } from '../../src/controller/leader-election.js';

const LEASE_MS = 3_000;
const RENEW_MS = 2_000;
const RETRY_MS = 500;
const LEASE_NAME = 'keyward-leader';
/** Waiting out leases takes longer than Jest's default 5 s, which applies here (the integration project's testTimeout does not). */
const TEST_TIMEOUT_MS = 30_000;
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

let client: KubeClient;
const electors: LeaderElector[] = [];

beforeAll(() => {
  client = new KubeClient(adminKubeConfig());
});

afterEach(async () => {
  await Promise.all(electors.splice(0).map((elector) => elector.stop({ release: false })));
});

afterAll(() => {
  client.close();
});

/** An elector with the short test durations, and a record of what it was told. */
interface Replica {
  readonly identity: string;
  readonly elector: LeaderElector;
  readonly signals: AbortSignal[];
  readonly stopped: () => number;
  readonly problems: string[];
}

function replica(namespace: string, identity: string, leaseDurationMs = LEASE_MS): Replica {
  const signals: AbortSignal[] = [];
  const problems: string[] = [];
  let stopped = 0;
  const elector = new LeaderElector({
    client,
    namespace,
    name: LEASE_NAME,
    identity,
    leaseDurationMs,
    renewDeadlineMs: RENEW_MS,
    retryPeriodMs: RETRY_MS,
    onStartedLeading: (signal) => {
      signals.push(signal);
    },
    onStoppedLeading: () => {
      stopped += 1;
    },
    onProblem: (message) => {
      problems.push(message);
    },
  });
  electors.push(elector);
  return { identity, elector, signals, stopped: () => stopped, problems };
}

async function readLease(namespace: string): Promise<Lease> {
  const lease = await client.get({ type: coreTypes.lease, namespace, name: LEASE_NAME });
  if (lease === undefined) throw new Error('the Lease does not exist');
  return lease;
}

async function untilLeading(replica: Replica, timeoutMs = LEASE_MS + 4 * RETRY_MS): Promise<void> {
  await waitFor(() => Promise.resolve(replica.elector.isLeader() ? true : undefined), { what: `${replica.identity} to lead`, timeoutMs, intervalMs: 10 });
}

/** Starts `first`, waits until it leads, then starts `second` and lets it observe the Lease a few times. */
async function leaderAndFollower(namespace: string, leaseDurationMs = LEASE_MS): Promise<[Replica, Replica]> {
  const leader = replica(namespace, 'replica-a', leaseDurationMs);
  const follower = replica(namespace, 'replica-b', leaseDurationMs);
  leader.elector.start();
  await untilLeading(leader);
  follower.elector.start();
  await sleep(3 * RETRY_MS);
  expect(follower.elector.isLeader()).toBe(false);
  return [leader, follower];
}

/** Time from now until `replica` leads. */
async function timeToLead(replica: Replica, stop: () => Promise<void>, timeoutMs?: number): Promise<number> {
  const started = performance.now();
  await stop();
  await untilLeading(replica, timeoutMs);
  return performance.now() - started;
}

function report(what: string, ms: number): void {
  process.stderr.write(`[leader-election] ${what}: ${ms.toFixed(0)} ms\n`);
}

describe('LeaderElector against the real API server', () => {
  it('lets exactly one of two replicas lead, and keeps it leading', async () => {
    const namespace = await createTestNamespace('leader-one');
    const replicas = [replica(namespace, 'replica-a'), replica(namespace, 'replica-b')];
    for (const { elector } of replicas) elector.start();

    await waitFor(() => Promise.resolve(replicas.some((r) => r.elector.isLeader()) ? true : undefined), { what: 'a leader', timeoutMs: 10_000, intervalMs: 10 });
    const winner = replicas.find((r) => r.elector.isLeader());
    // Over several renewals and acquire attempts, never two leaders, and no change of leader either.
    const deadline = performance.now() + 2 * LEASE_MS;
    while (performance.now() < deadline) {
      expect(replicas.filter((r) => r.elector.isLeader())).toEqual([winner]);
      await sleep(25);
    }
    expect(replicas.map((r) => r.signals.length).sort()).toEqual([0, 1]);
    expect(replicas.map((r) => r.stopped())).toEqual([0, 0]);
    expect(replicas.flatMap((r) => r.problems)).toEqual([]);
    expect((await readLease(namespace)).spec?.holderIdentity).toBe(winner?.identity);
  }, TEST_TIMEOUT_MS);

  it('records the holder in the Lease with MicroTimes, renewing it while leading', async () => {
    const namespace = await createTestNamespace('leader-lease');
    const only = replica(namespace, 'replica-a');
    only.elector.start();
    await untilLeading(only);

    const first = await readLease(namespace);
    expect(first.spec).toEqual({
      holderIdentity: 'replica-a',
      leaseDurationSeconds: 3,
      acquireTime: expect.stringMatching(MICRO_TIME),
      renewTime: expect.stringMatching(MICRO_TIME),
      leaseTransitions: 0,
    });
    await sleep(3 * RETRY_MS);
    const later = await readLease(namespace);
    expect(later.spec?.holderIdentity).toBe('replica-a');
    expect(later.spec?.acquireTime).toBe(first.spec?.acquireTime);
    expect(Date.parse(later.spec?.renewTime ?? '')).toBeGreaterThan(Date.parse(first.spec?.renewTime ?? ''));
    expect(later.spec?.leaseTransitions).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('hands over after the lease expires when the leader stops without releasing, as after a crash', async () => {
    const namespace = await createTestNamespace('leader-crash');
    const [leader, follower] = await leaderAndFollower(namespace);

    const took = await timeToLead(follower, () => leader.elector.stop({ release: false }));
    report('failover after a crash (no release)', took);
    // Not before the lease could have expired (the leader last renewed at most a retry period before it stopped).
    // How soon after is a matter of load, reported above, not asserted.
    expect(took).toBeGreaterThanOrEqual(LEASE_MS - RETRY_MS - 250);
    expect(leader.signals[0]?.aborted).toBe(true);
    expect(leader.stopped()).toBe(1);
    expect((await readLease(namespace)).spec).toMatchObject({ holderIdentity: 'replica-b', leaseTransitions: 1 });
  }, TEST_TIMEOUT_MS);

  it('hands over at the next attempt when the leader stops gracefully, releasing the lease', async () => {
    const namespace = await createTestNamespace('leader-release');
    // A lease that outlasts the test: the follower can only lead because the leader released it.
    const [leader, follower] = await leaderAndFollower(namespace, 4 * TEST_TIMEOUT_MS);
    expect((await readLease(namespace)).spec?.leaseDurationSeconds).toBe((4 * TEST_TIMEOUT_MS) / 1_000);

    const took = await timeToLead(follower, () => leader.elector.stop(), TEST_TIMEOUT_MS / 2);
    report('failover after a graceful stop (release)', took);
    expect(leader.signals[0]?.aborted).toBe(true);
    expect(leader.stopped()).toBe(1);
    expect((await readLease(namespace)).spec).toMatchObject({ holderIdentity: 'replica-b', leaseTransitions: 1 });
  }, TEST_TIMEOUT_MS);

  it('empties the holder and shortens the lease on release', async () => {
    const namespace = await createTestNamespace('leader-empty');
    const only = replica(namespace, 'replica-a');
    only.elector.start();
    await untilLeading(only);
    await only.elector.stop();

    expect(only.elector.isLeader()).toBe(false);
    const released = await readLease(namespace);
    expect(released.spec?.holderIdentity ?? '').toBe('');
    expect(released.spec?.leaseDurationSeconds).toBe(1);
  }, TEST_TIMEOUT_MS);

  it('steps down at once when another process takes the lease, and takes it back only after it expires', async () => {
    const namespace = await createTestNamespace('leader-stolen');
    const victim = replica(namespace, 'replica-a');
    victim.elector.start();
    await untilLeading(victim);

    const stolenAt = await waitFor(async () => {
      const lease = await readLease(namespace);
      const now = microTime(new Date());
      const spec = { holderIdentity: 'thief', leaseDurationSeconds: 3, acquireTime: now, renewTime: now, leaseTransitions: (lease.spec?.leaseTransitions ?? 0) + 1 };
      try {
        await client.raw({ method: 'PUT', path: resourcePath(coreTypes.lease, namespace, LEASE_NAME), body: { ...lease, spec }, what: 'steal the Lease', verb: 'update', resource: 'leases' });
        return performance.now();
      } catch (error) {
        // The victim renewed between our read and our write: read again.
        if (error instanceof KeywardError && error.code === 409) return undefined;
        throw error;
      }
    }, { what: 'the Lease to be stolen', timeoutMs: 5_000, intervalMs: 10 });

    await waitFor(() => Promise.resolve(victim.signals[0]?.aborted === true ? true : undefined), { what: 'the signal to abort', timeoutMs: 2 * RETRY_MS + 1_000, intervalMs: 10 });
    report('stepping down after the lease was stolen', performance.now() - stolenAt);
    expect(victim.elector.isLeader()).toBe(false);
    expect(victim.stopped()).toBe(1);
    expect(victim.problems).toEqual([expect.stringContaining('lost leadership: the lease was taken by thief')]);

    // The thief never renews: the victim waits out the thief's lease, then acquires it again.
    await sleep(2 * RETRY_MS);
    expect((await readLease(namespace)).spec?.holderIdentity).toBe('thief');
    expect(victim.elector.isLeader()).toBe(false);
    await untilLeading(victim);
    report('taking the stolen lease back', performance.now() - stolenAt);
    expect(performance.now() - stolenAt).toBeGreaterThanOrEqual(LEASE_MS);
    expect(victim.signals).toHaveLength(2);
    expect(victim.signals[1]?.aborted).toBe(false);
    expect((await readLease(namespace)).spec).toMatchObject({ holderIdentity: 'replica-a', leaseTransitions: 2 });
  }, TEST_TIMEOUT_MS);
});
