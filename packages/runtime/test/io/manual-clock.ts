import type { BreakerClock } from '@keyward/kernel/interpreter';

/** A breaker clock that moves only when told: `advance` runs the timers that fall due, in order. */
export class ManualClock implements BreakerClock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, { readonly at: number; readonly fn: () => void }>();

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  /** How far ahead each pending timer is due, soonest first. */
  pending(): number[] {
    return [...this.#timers.values()].map((timer) => timer.at - this.#now).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].fn();
    }
    this.#now = end;
  }
}
