const MASK = '***';
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * A secret value (password, credential secret, API key) that never shows itself: string conversion,
 * JSON serialisation and Node's inspect (console.log, winston, jest diffs) all print a mask. Code that needs
 * the value calls `reveal()`, which makes every use easy to find in review.
 */
export class Sensitive<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  /** Whether two sensitive values hold the same value, without revealing either. */
  equals(other: Sensitive<T>): boolean {
    return this.#value === other.#value;
  }

  toString(): string {
    return MASK;
  }

  toJSON(): string {
    return MASK;
  }

  [inspectSymbol](): string {
    return `Sensitive(${MASK})`;
  }
}

export function sensitive<T>(value: T): Sensitive<T> {
  return new Sensitive(value);
}

export function isSensitive(value: unknown): value is Sensitive<unknown> {
  return value instanceof Sensitive;
}

export const SENSITIVE_MASK = MASK;
