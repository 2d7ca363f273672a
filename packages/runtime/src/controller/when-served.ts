import { KeywardError } from '@keyward/kernel/interpreter';
import type { ResourceType } from '@keyward/kernel';
import type { Runnable } from './manager.js';

/** What a runnable that waits for its types is told about, and how it finds out. */
export interface WhenServedOptions {
  /** Whether the API server serves a type; throws when it cannot tell. */
  readonly isServed: (type: ResourceType) => Promise<boolean>;
  /** How often a missing type is looked up again. */
  readonly recheckMs: number;
  /** Told once, when the runnable is found to wait for `type`. */
  readonly onMissing: (type: ResourceType) => void;
  /** Told when every type is served after one was missing, right before the runnable starts. */
  readonly onServed: () => void;
  /** Told about anything else: a check that could not tell (the runnable starts anyway), a late start that failed. */
  readonly onProblem: (message: string, error: unknown) => void;
}

/** Asking again while the API server does not answer: from 200 ms, doubling, at most 2 s. */
const RETRY_BASE_MS = 200;
const RETRY_MAX_MS = 2_000;

/** Failures that say nothing about the type: the server did not answer, or is in trouble. */
function unanswered(error: unknown): boolean {
  return error instanceof KeywardError && (error.code === 0 || error.code >= 500);
}

/**
 * `runnable`, started only once the API server serves every one of `types` (those it requires). A
 * missing type (a CRD that is not installed) is reported once; start() then resolves without starting it,
 * so it holds up neither the other runnables nor readiness, and the type is looked up again every
 * `recheckMs` until it is served, when the runnable starts. Without this its informers would retry a 404
 * for ever.
 */
export function whenServed(runnable: Runnable, types: readonly ResourceType[], options: WhenServedOptions): Runnable {
  return new WhenServed(runnable, types, options);
}

class WhenServed implements Runnable {
  readonly #runnable: Runnable;
  readonly #types: readonly ResourceType[];
  readonly #options: WhenServedOptions;
  #stopped = false;
  #began = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Ends a pause between checks at once (stop). */
  #wake: (() => void) | undefined;

  constructor(runnable: Runnable, types: readonly ResourceType[], options: WhenServedOptions) {
    this.#runnable = runnable;
    this.#types = types;
    this.#options = options;
  }

  get name(): string {
    return this.#runnable.name;
  }

  get requires(): readonly ResourceType[] {
    return this.#types;
  }

  async start(): Promise<void> {
    const missing = await this.#missing();
    if (this.#stopped) return;
    if (missing === undefined) {
      await this.#begin();
      return;
    }
    this.#options.onMissing(missing);
    this.#recheckLater();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#wake?.();
    if (this.#began) await this.#runnable.stop();
  }

  #begin(): Promise<void> {
    this.#began = true;
    return this.#runnable.start();
  }

  #recheckLater(): void {
    this.#timer = setTimeout(() => { void this.#recheck(); }, this.#options.recheckMs);
    // The runnable waiting is no reason for the process to stay up.
    this.#timer.unref();
  }

  async #recheck(): Promise<void> {
    const missing = await this.#missing();
    if (this.#stopped) return;
    if (missing !== undefined) {
      this.#recheckLater();
      return;
    }
    this.#options.onServed();
    await this.#begin().catch((error: unknown) => {
      if (!this.#stopped) this.#options.onProblem(`${this.name} could not start`, error);
    });
  }

  /** The first required type the API server does not serve; asks again while the server does not answer. */
  async #missing(): Promise<ResourceType | undefined> {
    for (const type of this.#types) {
      if (!(await this.#served(type))) return type;
      if (this.#stopped) return undefined;
    }
    return undefined;
  }

  async #served(type: ResourceType): Promise<boolean> {
    for (let delay = RETRY_BASE_MS; !this.#stopped; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        return await this.#options.isServed(type);
      } catch (error) {
        if (!unanswered(error)) {
          // Refused (401, 403) or broken: the runnable's own requests will say why, as they always did.
          this.#options.onProblem(`could not tell whether ${type.plural} are served; starting ${this.name} anyway`, error);
          return true;
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
    return true;
  }
}
