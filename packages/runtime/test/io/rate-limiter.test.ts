import { describe, expect, it } from '@jest/globals';
import { RateLimiter, type RateLimiterClock } from '../../src/io/rate/rate-limiter.js';
import { ManualClock } from './manual-clock.js';

function limiterClock(clock: ManualClock): RateLimiterClock {
  return {
    now: () => clock.now(),
    setTimer: (ms, callback) => {
      const handle = clock.setTimeout(callback, ms);
      return () => { clock.clearTimeout(handle); };
    },
  };
}

/** Lets resolved acquisitions run their continuations. */
const settle = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

describe('RateLimiter', () => {
  it('lets a burst through at once, then one request per refill interval, first come first served', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ ratePerSecond: 20, burst: 30 }, limiterClock(clock));
    const granted: number[] = [];
    for (let request = 0; request < 40; request++) void limiter.acquire().then(() => granted.push(request));
    await settle();
    expect(granted).toEqual([...Array(30).keys()]);
    expect(limiter.waiting).toBe(10);
    clock.advance(49);
    await settle();
    expect(granted).toHaveLength(30);
    clock.advance(1);
    await settle();
    expect(granted).toEqual([...Array(31).keys()]);
    clock.advance(450);
    await settle();
    expect(granted).toEqual([...Array(40).keys()]);
  });

  it('holds a timer only while someone waits', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 1 }, limiterClock(clock));
    await limiter.acquire();
    expect(clock.pending()).toEqual([]);
    const second = limiter.acquire();
    expect(clock.pending()).toEqual([1_000]);
    clock.advance(1_000);
    await second;
    expect(clock.pending()).toEqual([]);
  });

  it('rejects a limit that could never let a request through', () => {
    expect(() => new RateLimiter({ ratePerSecond: 0, burst: 30 })).toThrow('rate limit: ratePerSecond must be > 0, got 0');
    expect(() => new RateLimiter({ ratePerSecond: 20, burst: 0 })).toThrow('rate limit: burst must be >= 1, got 0');
  });
});
