import type { RateLimiterClock } from '../../src/io/rate/rate-limiter.js';

interface PendingTimer {
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

/** Lets queued promise continuations run, so whatever they record sees the clock of the moment they were released. */
export function settle(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

/** A deterministic RateLimiterClock: time moves only when a test advances it, firing due timers in order. */
export class FakeLimiterClock implements RateLimiterClock {
  #now = 0;
  #seq = 0;
  readonly #pending = new Set<PendingTimer>();
  /** Timer callbacks run so far: an event-driven limiter fires about once per release, a polling one far more. */
  fired = 0;

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = { at: this.#now + ms, seq: this.#seq++, callback };
    this.#pending.add(timer);
    return () => {
      this.#pending.delete(timer);
    };
  }

  get pendingTimers(): number {
    return this.#pending.size;
  }

  /** Moves time to `at`, firing every timer due by then at its own moment. */
  async advanceTo(at: number): Promise<void> {
    await settle();
    for (let next = this.#nextDue(at); next !== undefined; next = this.#nextDue(at)) {
      this.#pending.delete(next);
      this.#now = next.at;
      this.fired += 1;
      next.callback();
      await settle();
    }
    this.#now = Math.max(this.#now, at);
    await settle();
  }

  advance(ms: number): Promise<void> {
    return this.advanceTo(this.#now + ms);
  }

  /** Fires timers until none is left; fails if that takes more than `maxTimers` (a limiter that polls). */
  async runUntilIdle(maxTimers = 100_000): Promise<void> {
    await settle();
    for (let count = 0; this.#pending.size > 0; count++) {
      if (count >= maxTimers) throw new Error(`still ${String(this.#pending.size)} timers after ${String(maxTimers)} fired`);
      const next = this.#nextDue(Infinity);
      if (next !== undefined) await this.advanceTo(next.at);
    }
  }

  #nextDue(limit: number): PendingTimer | undefined {
    let first: PendingTimer | undefined;
    for (const timer of this.#pending) {
      if (timer.at <= limit && (first === undefined || timer.at < first.at || (timer.at === first.at && timer.seq < first.seq))) first = timer;
    }
    return first;
  }
}
