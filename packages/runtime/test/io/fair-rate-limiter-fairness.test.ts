import { beforeAll, describe, expect, it } from '@jest/globals';
import { type Grant, LimiterHarness, limits } from './fair-rate-limit-harness.js';

// The benchmark's scenario, at limits the limiter and not Keycloak sets: 400 requests from one namespace and
// 10 from each of 20 others, all queued at once; the big namespace's are queued first, the worst case.
const GLOBAL = { ratePerSecond: 10, burst: 10 };
const NAMESPACE = { ratePerSecond: 2, burst: 2 };
const BIG_REQUESTS = 400;
const SMALL_NAMESPACES = 20;
const SMALL_REQUESTS = 10;
const BACKLOGGED_NAMESPACES = SMALL_NAMESPACES + 1;
const smallNames = Array.from({ length: SMALL_NAMESPACES }, (_, i) => `small-${String(i)}`);

function lastGrantOf(grants: readonly Grant[], namespace: string): number {
  return Math.max(...grants.filter((grant) => grant.label.startsWith(`${namespace}/`)).map((grant) => grant.at));
}

/** Jain's index: 1 when everyone got the same, 1/n when one got everything. */
function jainIndex(throughputs: readonly number[]): number {
  const sum = throughputs.reduce((total, x) => total + x, 0);
  const sumOfSquares = throughputs.reduce((total, x) => total + x * x, 0);
  return (sum * sum) / (throughputs.length * sumOfSquares);
}

/** The most grants in any window [t, t + ms) that starts at or after `from`. */
function busiestWindow(times: readonly number[], ms: number, from: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let end = 0;
  for (let start = 0; start < sorted.length; start++) {
    const startAt = sorted[start] ?? 0;
    if (startAt < from) continue;
    end = Math.max(end, start);
    while (end < sorted.length && (sorted[end] ?? Infinity) < startAt + ms) end++;
    most = Math.max(most, end - start);
  }
  return most;
}

describe('FairRateLimiter under one big backlog and many small ones', () => {
  let harness: LimiterHarness;

  beforeAll(async () => {
    harness = new LimiterHarness(limits({ global: GLOBAL, tenant: NAMESPACE }));
    harness.admin('big', BIG_REQUESTS);
    for (const name of smallNames) harness.admin(name, SMALL_REQUESTS);
    await harness.clock.runUntilIdle();
  });

  it('lets every request through', () => {
    expect(harness.grants).toHaveLength(BIG_REQUESTS + SMALL_NAMESPACES * SMALL_REQUESTS);
    expect(harness.rejections).toEqual([]);
  });

  it('finishes each small namespace within 1.2x the time its requests need at a fair share of the global rate', () => {
    const fairShareMs = (SMALL_REQUESTS * 1000) / (GLOBAL.ratePerSecond / BACKLOGGED_NAMESPACES);
    const bigFinish = lastGrantOf(harness.grants, 'big');
    for (const name of smallNames) {
      const finish = lastGrantOf(harness.grants, name);
      expect(finish).toBeLessThanOrEqual(1.2 * fairShareMs);
      expect(finish * 5).toBeLessThan(bigFinish);
    }
  });

  it('takes at most 1.2x the floor the limits set', () => {
    const globalFloorMs = ((BIG_REQUESTS + SMALL_NAMESPACES * SMALL_REQUESTS - GLOBAL.burst) * 1000) / GLOBAL.ratePerSecond;
    const bigFloorMs = ((BIG_REQUESTS - NAMESPACE.burst) * 1000) / NAMESPACE.ratePerSecond;
    const smallFloorMs = ((SMALL_REQUESTS - NAMESPACE.burst) * 1000) / NAMESPACE.ratePerSecond;
    const floorMs = Math.max(globalFloorMs, bigFloorMs, smallFloorMs);
    const totalMs = Math.max(...harness.grants.map((grant) => grant.at));
    expect(totalMs).toBeGreaterThanOrEqual(floorMs);
    expect(totalMs).toBeLessThanOrEqual(1.2 * floorMs);
  });

  it('shares the global rate evenly among the namespaces that have a backlog (Jain index >= 0.95)', () => {
    // Until the small namespaces run out, all 21 have a backlog: look at the first 18 s.
    const windowMs = 18_000;
    const throughputs = ['big', ...smallNames].map(
      (name) => harness.grants.filter((grant) => grant.label.startsWith(`${name}/`) && grant.at < windowMs).length,
    );
    expect(Math.min(...throughputs)).toBeGreaterThan(0);
    expect(jainIndex(throughputs)).toBeGreaterThanOrEqual(0.95);
  });

  it('never exceeds the global rate by more than 5% in any one-second window once the initial burst is spent', () => {
    const times = harness.grants.map((grant) => grant.at);
    expect(busiestWindow(times, 1000, 1)).toBeLessThanOrEqual(GLOBAL.ratePerSecond * 1.05);
    // The window that holds the initial burst is bounded by the bucket itself: burst plus one second of rate.
    expect(busiestWindow(times, 1000, 0)).toBeLessThanOrEqual(GLOBAL.burst + GLOBAL.ratePerSecond);
  });

  it('never lets one namespace exceed its own bucket: its burst plus one second of its rate', () => {
    expect(busiestWindow(harness.timesOf('big/'), 1000, 0)).toBeLessThanOrEqual(NAMESPACE.burst + NAMESPACE.ratePerSecond);
  });

  it('wakes about once per release rather than polling', () => {
    expect(harness.clock.fired).toBeLessThanOrEqual(harness.grants.length);
    expect(harness.clock.pendingTimers).toBe(0);
  });
});
