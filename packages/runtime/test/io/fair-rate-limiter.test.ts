import { describe, expect, it } from '@jest/globals';
import { KeywardError } from '@keyward/kernel/interpreter';
import { FairRateLimiter, type RateLimitType } from '../../src/io/rate/fair-rate-limiter.js';
import type { FairRateLimits } from '../../src/io/rate/fair-rate-limits.js';
import { settle } from './fair-rate-limit-clock.js';
import { LimiterHarness, limits, namespaceWords } from './fair-rate-limit-harness.js';

describe('FairRateLimiter token buckets', () => {
  it('lets a full burst through at once, then one request per refill interval', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 10, burst: 5 } }));
    harness.admin('team-a', 8);
    await settle();
    expect(harness.timesOf('team-a/')).toEqual([0, 0, 0, 0, 0]);

    await harness.clock.runUntilIdle();
    expect(harness.timesOf('team-a/')).toEqual([0, 0, 0, 0, 0, 100, 200, 300]);
  });

  it('refills while idle, but never beyond the burst', async () => {
    const harness = new LimiterHarness(limits({ tenant: { ratePerSecond: 2, burst: 3 } }));
    harness.admin('team-a', 3);
    await harness.clock.advance(60_000);
    harness.admin('team-b', 1);
    harness.admin('team-a', 5);
    await harness.clock.runUntilIdle();
    // team-a's bucket holds 3 again after a minute, not 120; team-b has its own.
    expect(harness.timesOf('team-a/')).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 60_500, 61_000]);
    expect(harness.timesOf('team-b/')).toEqual([60_000]);
  });

  it('charges an admin request to its namespace and to the global bucket', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 10 } }));
    harness.admin('team-a', 4);
    await settle();
    expect(harness.limiter.budgets().global).toBe(6);
  });

  it('gives token-endpoint requests their own bucket, untouched by admin backlogs and charged to no namespace', async () => {
    const harness = new LimiterHarness(limits({
      tenant: { ratePerSecond: 1, burst: 1 },
      global: { ratePerSecond: 1, burst: 1 },
      token: { ratePerSecond: 2, burst: 2 },
    }));
    harness.admin('team-a', 3);
    harness.admin('team-b', 3);
    harness.token(4);
    await settle();
    expect(harness.timesOf('token/')).toEqual([0, 0]);
    expect(harness.limiter.budgets()).toMatchObject({ global: 0, token: 0, tenantRequestsWaiting: 5, tokenRequestsWaiting: 2 });

    await harness.clock.advance(1000);
    expect(harness.timesOf('token/')).toEqual([0, 0, 500, 1000]);
    // The global bucket gave one token per second whatever the token requests did.
    expect(harness.grants.filter((grant) => !grant.label.startsWith('token/')).map((grant) => grant.at)).toEqual([0, 1000]);
  });
});

describe('FairRateLimiter fairness', () => {
  it('serves namespaces round-robin at the global bucket, each in its own arrival order', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 1 } }));
    harness.admin('first', 1);
    harness.admin('a', 3);
    harness.admin('b', 2);
    harness.admin('c', 1);
    await harness.clock.runUntilIdle();
    expect(harness.grants).toEqual([
      { label: 'first/1', at: 0 },
      { label: 'a/1', at: 1000 },
      { label: 'b/1', at: 2000 },
      { label: 'c/1', at: 3000 },
      { label: 'a/2', at: 4000 },
      { label: 'b/2', at: 5000 },
      { label: 'a/3', at: 6000 },
    ]);
  });

  it('puts a namespace that starts waiting at the back of the round', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 1 } }));
    harness.admin('a', 3);
    harness.admin('b', 1);
    await harness.clock.advance(1500);
    harness.admin('c', 1);
    await harness.clock.runUntilIdle();
    // a/1 passed at once while a was alone, so b joined the round behind a; c joined behind both.
    expect(harness.grants.map((grant) => grant.label)).toEqual(['a/1', 'a/2', 'b/1', 'a/3', 'c/1']);
  });

  it('passes over a namespace whose own bucket is empty instead of letting it block the next', async () => {
    const harness = new LimiterHarness(limits({
      tenant: { ratePerSecond: 1, burst: 1 },
      global: { ratePerSecond: 2, burst: 1 },
    }));
    harness.admin('a', 2);
    harness.admin('b', 2);
    await harness.clock.runUntilIdle();
    // At 500 ms a is first in turn but its own bucket is empty until 1000 ms: b takes the global token.
    expect(harness.grants).toEqual([
      { label: 'a/1', at: 0 },
      { label: 'b/1', at: 500 },
      { label: 'a/2', at: 1000 },
      { label: 'b/2', at: 1500 },
    ]);
  });

  it('lets a new namespace through at once while another waits only for its own bucket', async () => {
    const harness = new LimiterHarness(limits({ tenant: { ratePerSecond: 1, burst: 1 } }));
    harness.admin('busy', 3);
    await harness.clock.advance(10);
    harness.admin('quiet', 1);
    await settle();
    expect(harness.timesOf('quiet/')).toEqual([10]);
    await harness.clock.runUntilIdle();
    expect(harness.timesOf('busy/')).toEqual([0, 1000, 2000]);
  });
});

describe('FairRateLimiter time-outs', () => {
  it('rejects a request that waited maxWaitMs with a retryable RateLimited error and drops it from the queue', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 1 }, maxWaitMs: 1500 }));
    harness.admin('team-a', 3);
    await harness.clock.advance(1500);

    expect(harness.timesOf('team-a/')).toEqual([0, 1000]);
    expect(harness.rejections.map(({ label, at }) => ({ label, at }))).toEqual([{ label: 'team-a/3', at: 1500 }]);
    const error = harness.rejections[0]?.error;
    expect(error).toBeInstanceOf(KeywardError);
    expect(error).toMatchObject({ api: 'keycloak', code: 429, reason: 'RateLimited', retryable: true, retryAfterMs: 1000 });
    expect((error as KeywardError).message).toMatch(/namespace team-a .*1500 ms.*global limit \(1\/s\)/);
    expect(harness.limiter.budgets().tenantRequestsWaiting).toBe(0);

    // The token the rejected request would have taken at 2000 ms goes to the next one.
    harness.admin('team-b', 1);
    await harness.clock.runUntilIdle();
    expect(harness.timesOf('team-b/')).toEqual([2000]);
  });

  it('still serves a request whose token arrives exactly at its deadline', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 1, burst: 1 }, maxWaitMs: 1000 }));
    harness.admin('team-a', 2);
    await harness.clock.runUntilIdle();
    expect(harness.timesOf('team-a/')).toEqual([0, 1000]);
    expect(harness.rejections).toEqual([]);
  });

  it('names the limit that held a request: its namespace, the global bucket, or the token bucket', async () => {
    const timedOut: [RateLimitType, number][] = [];
    const harness = new LimiterHarness(
      limits({ tenant: { ratePerSecond: 0.1, burst: 1 }, token: { ratePerSecond: 0.1, burst: 1 }, maxWaitMs: 500 }),
      { onTimedOut: (limit, waitMs) => { timedOut.push([limit, waitMs]); } },
    );
    harness.admin('slow', 2);
    harness.token(2);
    await harness.clock.runUntilIdle();
    expect(timedOut).toEqual([['token', 500], ['tenant', 500]]);
    expect(harness.rejections.map((rejection) => (rejection.error as KeywardError).message)).toEqual([
      expect.stringMatching(/^Keycloak token request gave up after waiting 500 ms: the token limit \(0\.1\/s\)/) as unknown,
      expect.stringMatching(/^Keycloak admin request for namespace slow gave up after waiting 500 ms: the namespace's limit \(0\.1\/s\)/) as unknown,
    ]);
  });

  it('reports a global time-out when the namespace had its own token', async () => {
    const timedOut: RateLimitType[] = [];
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 0.1, burst: 1 }, maxWaitMs: 500 }), {
      onTimedOut: (limit) => { timedOut.push(limit); },
    });
    harness.admin('a', 1);
    harness.admin('b', 1);
    await harness.clock.runUntilIdle();
    expect(timedOut).toEqual(['global']);
    expect(harness.rejections.map((rejection) => rejection.label)).toEqual(['b/1']);
  });
});

describe('FairRateLimiter waits as observed', () => {
  it('splits an admin request\'s wait between its namespace and the global bucket', async () => {
    const acquired: [RateLimitType, number][] = [];
    const harness = new LimiterHarness(
      limits({ tenant: { ratePerSecond: 1, burst: 1 }, global: { ratePerSecond: 0.5, burst: 1 } }),
      { onAcquired: (limit, waitMs) => { acquired.push([limit, waitMs]); } },
    );
    harness.admin('a', 2);
    await harness.clock.runUntilIdle();
    // a/2 had its namespace's token at 1000 ms and the global one at 2000 ms.
    expect(acquired).toEqual([['tenant', 0], ['global', 0], ['tenant', 1000], ['global', 1000]]);
  });
});

describe('FairRateLimiter timers', () => {
  it('keeps no timer when nobody waits, nor for requests that pass at once', async () => {
    const harness = new LimiterHarness(limits({}));
    expect(harness.clock.pendingTimers).toBe(0);
    harness.admin('team-a', 10);
    harness.token(3);
    await settle();
    expect(harness.grants).toHaveLength(13);
    expect(harness.clock.pendingTimers).toBe(0);
  });

  it('keeps one timer while requests wait and none once they are all through', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 2, burst: 1 }, token: { ratePerSecond: 1, burst: 1 } }));
    harness.admin('a', 4);
    harness.admin('b', 4);
    harness.token(3);
    await settle();
    expect(harness.clock.pendingTimers).toBe(1);
    await harness.clock.runUntilIdle();
    expect(harness.grants).toHaveLength(11);
    expect(harness.clock.pendingTimers).toBe(0);
    // One wake-up per release, not polling: 7 admin and 2 token requests had to wait.
    expect(harness.clock.fired).toBeLessThanOrEqual(9);
  });

  it('leaves no timer after the last waiter timed out', async () => {
    const harness = new LimiterHarness(limits({ global: { ratePerSecond: 0.01, burst: 1 }, maxWaitMs: 100 }));
    harness.admin('a', 2);
    await harness.clock.runUntilIdle();
    expect(harness.rejections).toHaveLength(1);
    expect(harness.clock.pendingTimers).toBe(0);
  });
});

describe('FairRateLimiter memory', () => {
  it('forgets namespaces once their buckets are full again, and remembers those still refilling', async () => {
    // Refilling from empty takes burst / rate = 2 s.
    const harness = new LimiterHarness(limits({ tenant: { ratePerSecond: 1, burst: 2 } }));
    for (let i = 0; i < 100; i++) harness.admin(`ns-${String(i)}`, 1);
    harness.admin('drained', 2);
    await settle();
    expect(harness.limiter.budgets().tenantsTracked).toBe(101);

    await harness.clock.advance(1000);
    harness.admin('other', 1);
    await settle();
    expect(harness.limiter.budgets().tenantsTracked).toBe(102);

    await harness.clock.advance(1000);
    harness.admin('other', 1);
    await settle();
    expect(harness.limiter.budgets().tenantsTracked).toBe(1);
  });

  it('does not hand a namespace a fresh burst while its bucket is still refilling', async () => {
    const harness = new LimiterHarness(limits({ tenant: { ratePerSecond: 1, burst: 2 } }));
    harness.admin('a', 2);
    await harness.clock.advance(1000);
    harness.admin('b', 1);
    harness.admin('a', 2);
    await harness.clock.runUntilIdle();
    expect(harness.timesOf('a/')).toEqual([0, 0, 1000, 2000]);
  });
});

describe('FairRateLimiter limits', () => {
  const valid = limits({});
  const invalid: [string, FairRateLimits][] = [
    ['tenant.ratePerSecond', { ...valid, tenant: { ratePerSecond: 0, burst: 10 } }],
    ['tenant.burst', { ...valid, tenant: { ratePerSecond: 5, burst: 0.5 } }],
    ['global.ratePerSecond', { ...valid, global: { ratePerSecond: -1, burst: 10 } }],
    ['global.burst', { ...valid, global: { ratePerSecond: 5, burst: Number.NaN } }],
    ['token.ratePerSecond', { ...valid, token: { ratePerSecond: Number.POSITIVE_INFINITY, burst: 1 } }],
    ['token.burst', { ...valid, token: { ratePerSecond: 1, burst: 0 } }],
    ['maxWaitMs', { ...valid, maxWaitMs: 0 }],
  ];
  it.each(invalid)('refuses an unusable %s, naming it', (field, rateLimits) => {
    expect(() => new FairRateLimiter(rateLimits, { names: namespaceWords })).toThrow(new RegExp(`^Keycloak rate limit ${field.replace('.', '\\.')} must be`));
  });
});
