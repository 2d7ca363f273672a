import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KeywardError } from '@keyward/kernel/interpreter';
import type { KubeCall } from '../../src/apis/kubernetes/io/client.js';
import type { ObjectRef, KubeObject } from '@keyward/kernel';
import { LeaderElector, microTime, type Lease, type LeaseClient, type LeaderElectionOptions, type LeaseSpec } from '../../src/controller/leader-election.js';

const LEASE_MS = 3_000;
const RENEW_MS = 2_000;
const RETRY_MS = 500;
/** Longest wait between acquire attempts: the retry period plus its jitter. */
const MAX_RETRY_MS = RETRY_MS * 1.1;

function error(code: number, reason: string): KeywardError {
  return new KeywardError({ api: 'kubernetes', code, reason, message: reason, retryable: true });
}

/** One Lease in memory with the API server's optimistic concurrency; `mode` makes every call fail or hang. */
class FakeLeases implements LeaseClient {
  lease: Lease | undefined;
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  /** When (fake performance.now) the last write succeeded. */
  lastWriteAt = 0;
  #version = 0;

  get(_ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.#answer(() => this.lease);
  }

  create(_ref: ObjectRef, body: unknown): Promise<KubeObject> {
    return this.#answer(() => {
      if (this.lease !== undefined) throw error(409, 'AlreadyExists');
      return this.#store(body as Lease);
    });
  }

  raw<T>(call: KubeCall): Promise<T> {
    return this.#answer(() => {
      const body = call.body as Lease;
      if (call.method !== 'PUT') throw new Error(`unexpected ${call.method}`);
      if (this.lease?.metadata.resourceVersion !== body.metadata.resourceVersion) throw error(409, 'Conflict');
      return this.#store(body) as T;
    });
  }

  /** Another replica writes the Lease. */
  put(spec: LeaseSpec): void {
    this.#store({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lease', namespace: 'ns' }, spec });
  }

  #store(lease: Lease): Lease {
    this.#version += 1;
    this.lease = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(this.#version) } };
    this.lastWriteAt = performance.now();
    return this.lease;
  }

  async #answer<T>(respond: () => T): Promise<T> {
    if (this.mode === 'hang') return new Promise<T>(() => undefined);
    if (this.mode === 'fail') throw error(503, 'ServiceUnavailable');
    return structuredClone(respond());
  }
}

interface Replica {
  readonly elector: LeaderElector;
  readonly signals: AbortSignal[];
  readonly events: string[];
  readonly problems: string[];
}

function replica(leases: FakeLeases, identity: string, options: Partial<LeaderElectionOptions> = {}): Replica {
  const signals: AbortSignal[] = [];
  const events: string[] = [];
  const problems: string[] = [];
  const elector = new LeaderElector({
    client: leases,
    namespace: 'ns',
    name: 'lease',
    identity,
    leaseDurationMs: LEASE_MS,
    renewDeadlineMs: RENEW_MS,
    retryPeriodMs: RETRY_MS,
    onStartedLeading: (signal) => {
      signals.push(signal);
      events.push('started');
    },
    onStoppedLeading: () => events.push('stopped'),
    onProblem: (message) => problems.push(message),
    ...options,
  });
  return { elector, signals, events, problems };
}

const advance = (ms: number): Promise<void> => jest.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('LeaderElector', () => {
  it('creates a missing Lease naming itself and renews it every retry period', async () => {
    const leases = new FakeLeases();
    const { elector, events } = replica(leases, 'a');
    elector.start();
    await advance(0);

    expect(elector.isLeader()).toBe(true);
    expect(events).toEqual(['started']);
    expect(leases.lease?.spec).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 3, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:00.000000Z', leaseTransitions: 0 });

    await advance(2 * RETRY_MS);
    expect(leases.lease?.spec).toMatchObject({ acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:01.000000Z', leaseTransitions: 0 });
    await elector.stop({ release: false });
  });

  it('lets one of two replicas starting together lead; the other loses the race without a problem', async () => {
    const leases = new FakeLeases();
    const replicas = [replica(leases, 'a'), replica(leases, 'b')];
    for (const { elector } of replicas) elector.start();
    await advance(0);
    for (let step = 0; step < 20; step += 1) {
      expect(replicas.filter((r) => r.elector.isLeader()).map((r) => r.elector)).toEqual([replicas[0]?.elector]);
      await advance(RETRY_MS / 2);
    }
    expect(replicas.flatMap((r) => r.problems)).toEqual([]);
    await Promise.all(replicas.map((r) => r.elector.stop({ release: false })));
  });

  it.each(['fail', 'hang'] as const)('steps down when renewals %s for the renew deadline, and leads again once they succeed', async (mode) => {
    const leases = new FakeLeases();
    const { elector, signals, events, problems } = replica(leases, 'a');
    elector.start();
    await advance(RETRY_MS);
    leases.mode = mode;
    const deadline = leases.lastWriteAt + RENEW_MS;

    await advance(deadline - 1 - performance.now());
    expect(elector.isLeader()).toBe(true);
    expect(signals[0]?.aborted).toBe(false);
    await advance(1);
    expect(elector.isLeader()).toBe(false);
    expect(signals[0]?.aborted).toBe(true);
    expect(events).toEqual(['started', 'stopped']);
    expect(problems).toContainEqual(expect.stringContaining('lost leadership: the lease could not be renewed for 2000 ms'));

    // The Lease still names us, so the next successful attempt takes it without waiting for it to expire
    // (a hung attempt is given up on after the renew deadline).
    leases.mode = 'ok';
    await advance(RENEW_MS + MAX_RETRY_MS);
    expect(elector.isLeader()).toBe(true);
    expect(events).toEqual(['started', 'stopped', 'started']);
    expect(problems.some((problem) => problem.includes('did not answer within 2000 ms'))).toBe(mode === 'hang');
    expect(leases.lease?.spec?.leaseTransitions).toBe(0);
    await elector.stop({ release: false });
  });

  it("waits while another holder renews, whatever its clock says, and takes over once the Lease stayed unchanged for its duration", async () => {
    const leases = new FakeLeases();
    // A renewTime a year in the past: only changes seen on our own clock count.
    const renewOther = (): void => {
      leases.put({ holderIdentity: 'other', leaseDurationSeconds: 3, renewTime: '2025-01-01T00:00:00.000000Z', leaseTransitions: 4 });
    };
    renewOther();
    const { elector } = replica(leases, 'a');
    elector.start();
    for (let second = 0; second < 10; second += 1) {
      await advance(1_000);
      renewOther();
      expect(elector.isLeader()).toBe(false);
    }

    const lastRenewal = performance.now();
    await advance(LEASE_MS - 1);
    expect(elector.isLeader()).toBe(false);
    await advance(1 + 2 * MAX_RETRY_MS);
    expect(elector.isLeader()).toBe(true);
    expect(leases.lastWriteAt - lastRenewal).toBeGreaterThanOrEqual(LEASE_MS);
    expect(leases.lease?.spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 5 });
    await elector.stop({ release: false });
  });

  it('takes a Lease without a holder at once', async () => {
    const leases = new FakeLeases();
    leases.put({ leaseDurationSeconds: 1, renewTime: microTime(new Date()), leaseTransitions: 2 });
    const { elector } = replica(leases, 'a');
    elector.start();
    await advance(0);
    expect(elector.isLeader()).toBe(true);
    expect(leases.lease?.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 3, leaseTransitions: 3 });
    await elector.stop({ release: false });
  });

  it('on stop, aborts the signal, waits for the work to wind down, then releases the Lease', async () => {
    const leases = new FakeLeases();
    let finishWork = (): void => undefined;
    const events: string[] = [];
    const { elector } = replica(leases, 'a', {
      onStartedLeading: (signal) => {
        signal.addEventListener('abort', () => events.push('aborted'));
        return new Promise<void>((resolve) => {
          finishWork = () => {
            events.push('work done');
            resolve();
          };
        });
      },
      onStoppedLeading: () => events.push('stopped'),
    });
    elector.start();
    await advance(0);

    let stopped = false;
    const stopping = elector.stop().then(() => {
      stopped = true;
    });
    await advance(5 * RETRY_MS);
    expect(events).toEqual(['aborted']);
    expect(stopped).toBe(false);
    expect(leases.lease?.spec?.holderIdentity).toBe('a');

    finishWork();
    await stopping;
    expect(events).toEqual(['aborted', 'work done', 'stopped']);
    expect(leases.lease?.spec).toMatchObject({ leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(leases.lease?.spec?.holderIdentity).toBeUndefined();
  });

  it('does not release a Lease someone else has written since', async () => {
    const leases = new FakeLeases();
    const { elector, problems } = replica(leases, 'a');
    elector.start();
    await advance(0);
    leases.put({ holderIdentity: 'other', leaseDurationSeconds: 3, renewTime: microTime(new Date()) });
    await elector.stop();
    expect(leases.lease?.spec?.holderIdentity).toBe('other');
    expect(problems).toEqual([]);
  });

  it('reports failing calls and a failing onStartedLeading to onProblem', async () => {
    const leases = new FakeLeases();
    leases.mode = 'fail';
    const reported: [string, unknown][] = [];
    const { elector } = replica(leases, 'a', {
      onStartedLeading: () => Promise.reject(new Error('cannot start')),
      onProblem: (message, cause) => reported.push([message, cause]),
    });
    elector.start();
    await advance(0);
    expect(reported).toEqual([['leader election Lease ns/lease: acquiring or renewing Lease ns/lease failed', expect.objectContaining({ code: 503 })]]);

    leases.mode = 'ok';
    await advance(MAX_RETRY_MS);
    expect(elector.isLeader()).toBe(true);
    expect(reported[1]).toEqual(['leader election Lease ns/lease: onStartedLeading failed', new Error('cannot start')]);
    await elector.stop({ release: false });
  });

  it('refuses durations that would let two replicas lead at once', () => {
    const base = { client: new FakeLeases(), namespace: 'ns', name: 'lease', identity: 'a', onStartedLeading: () => undefined };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).toThrow('leaseDurationMs must be > renewDeadlineMs');
    expect(() => new LeaderElector({ ...base, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).toThrow('renewDeadlineMs must be > retryPeriodMs');
    expect(() => new LeaderElector({ ...base, retryPeriodMs: 0 })).toThrow('retryPeriodMs must be > 0');
    expect(() => new LeaderElector({ ...base, identity: '' })).toThrow('identity must not be empty');
    expect(() => new LeaderElector(base)).not.toThrow();
  });

  it('formats MicroTimes with microseconds', () => {
    expect(microTime(new Date('2026-03-04T05:06:07.089Z'))).toBe('2026-03-04T05:06:07.089000Z');
  });
});
