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

/**
 * Fixed entropy for reconcile inputs: a simple sequence from a seed, as long as the reconcile asks for (the
 * same bytes for the same seed and length).
 */
export function fixedEntropy(seed = 0): (bytes: number) => Uint8Array {
  return (bytes) => Uint8Array.from({ length: bytes }, (_, i) => (seed * 31 + i * 7) % 256);
}

/** Entropy that gives these bytes (zeros past their end): for property tests that draw the bytes. */
export function entropyOf(bytes: Uint8Array): (length: number) => Uint8Array {
  return (length) => {
    const out = new Uint8Array(length);
    out.set(bytes.slice(0, length));
    return out;
  };
}
