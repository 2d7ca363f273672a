/** A clock for tests of time-based policies: it moves only when told to. */
export class FakeClock {
  #ms: number;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): Date {
    this.#ms += ms;
    return this.now();
  }

  set(date: Date | string): Date {
    this.#ms = new Date(date).getTime();
    return this.now();
  }
}

/** Fixed entropy for reconcile inputs: the same bytes every time, or a simple sequence from a seed. */
export function fixedEntropy(seed = 0): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) % 256);
}
