// The fair limiter with every admin acquisition and timeout recorded per namespace, and the figures the
// fairness benchmark reports from them (pure functions of the recorded times).
import { performance } from 'node:perf_hooks';
import { FairRateLimiter, type FairRateLimits } from '@keyward/runtime/io';
import { keycloakRateLimitNames } from '@keyward/keycloak/io';

/** A FairRateLimiter that records when each admin request charged to a namespace was let through or gave up. */
export class RecordingLimiter extends FairRateLimiter {
  /** performance.now() of every admin acquisition, per namespace, in order. */
  readonly acquired = new Map<string, number[]>();
  readonly timedOut = new Map<string, number>();

  constructor(limits: FairRateLimits) {
    super(limits, { names: keycloakRateLimitNames });
  }

  override async acquire(namespace: string): Promise<void> {
    try {
      await super.acquire(namespace);
    } catch (error) {
      this.timedOut.set(namespace, (this.timedOut.get(namespace) ?? 0) + 1);
      throw error;
    }
    const times = this.acquired.get(namespace) ?? [];
    times.push(performance.now());
    this.acquired.set(namespace, times);
  }

  /** Every acquisition of every namespace, sorted. */
  allAcquisitions(): number[] {
    return [...this.acquired.values()].flat().sort((a, b) => a - b);
  }
}

/** The most events in any half-open window [t, t + windowMs) (sorted times in ms). */
export function maxInWindow(sorted: readonly number[], windowMs = 1_000): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** Jain's fairness index: 1 when all shares are equal, 1/n when one takes everything. */
export function jainIndex(shares: readonly number[]): number {
  const sum = shares.reduce((a, b) => a + b, 0);
  const squares = shares.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (shares.length * squares);
}

/** Events of `times` in [from, to). */
export function countBetween(times: readonly number[], from: number, to: number): number {
  return times.filter((t) => t >= from && t < to).length;
}

/** Events per second in consecutive windows of `windowMs` from `from` to `to`. */
export function ratesPerWindow(sorted: readonly number[], from: number, to: number, windowMs: number): number[] {
  const rates: number[] = [];
  for (let start = from; start + windowMs <= to; start += windowMs) rates.push(countBetween(sorted, start, start + windowMs) / (windowMs / 1000));
  return rates;
}
