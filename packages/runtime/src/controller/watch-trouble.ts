/** Where watch trouble is written: a RuntimeLogger fits. */
export interface WatchTroubleLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
}

/** How long failures are held and how often a lasting outage is recalled. */
export interface WatchTroubleOptions {
  /** How long a failure is held to see whether other watches fail with it. Default 1 s. */
  readonly windowMs?: number;
  /** While watches keep failing, how often one line says how many. Default 60 s. */
  readonly reminderMs?: number;
}

/** One watch's side of the log: its problems, and its return after a failure. */
export interface WatchTroubleReporter {
  /**
   * A problem of the watch. `retrying`: it failed and retries, and recovered() follows once the API server
   * accepts it again; otherwise a one-off (a handler that threw, a silent watch restarted), told at once.
   */
  problem(message: string, error: unknown, retrying: boolean): void;
  /** The API server accepted the watch again after a failure. */
  recovered(): void;
  /** The watch is stopped: nothing waits for its return. */
  release(): void;
}

/** One watch, known by identity; its resource names it in the log. */
interface Watch {
  readonly resource: string;
}

interface Failure {
  readonly watch: Watch;
  readonly message: string;
  readonly error: unknown;
}

/** Watches failing since a first failure was told, until they are all back. */
interface Outage {
  readonly started: number;
  readonly failing: Set<Watch>;
  readonly watches: Set<Watch>;
  attempts: number;
  last: Failure;
  readonly reminder: NodeJS.Timeout;
}

const DEFAULTS = { windowMs: 1_000, reminderMs: 60_000 } as const;

/**
 * The log of a controller's watches, which fail together when the API server restarts. A failure is held for
 * `windowMs` to see what fails with it; then one warning tells it (the failure of one watch, or how many
 * watches failed and why), the retries that follow are counted rather than logged, a reminder comes once a
 * minute while they last, and one line tells when every watch is back. An outage costs two lines, whatever
 * the number of watches and retries.
 */
export class WatchTroubleLog {
  readonly #logger: WatchTroubleLogger;
  readonly #windowMs: number;
  readonly #reminderMs: number;
  #held: Failure[] = [];
  /** Watches whose last word within the window was a return, not a failure. */
  readonly #backInWindow = new Set<Watch>();
  #window: NodeJS.Timeout | undefined;
  #outage: Outage | undefined;

  constructor(logger: WatchTroubleLogger, options: WatchTroubleOptions = {}) {
    this.#logger = logger;
    this.#windowMs = options.windowMs ?? DEFAULTS.windowMs;
    this.#reminderMs = options.reminderMs ?? DEFAULTS.reminderMs;
  }

  /** A reporter for one watch of `resource` (its name in the log). */
  watch(resource: string): WatchTroubleReporter {
    const watch: Watch = { resource };
    return {
      problem: (message, error, retrying) => {
        if (retrying) this.#failed({ watch, message, error });
        else this.#logger.warn(message, { resource, error: errorText(error) });
      },
      recovered: () => { this.#recovered(watch); },
      release: () => {
        this.#held = this.#held.filter((held) => held.watch !== watch);
        this.#recovered(watch);
      },
    };
  }

  /** Writes what is held and stops the timers. */
  stop(): void {
    this.#tell();
    clearInterval(this.#outage?.reminder);
    this.#outage = undefined;
  }

  #failed(failure: Failure): void {
    const outage = this.#outage;
    if (outage !== undefined) {
      outage.attempts++;
      outage.last = failure;
      outage.watches.add(failure.watch);
      outage.failing.add(failure.watch);
      return;
    }
    this.#held.push(failure);
    this.#backInWindow.delete(failure.watch);
    this.#window ??= setTimeout(() => { this.#tell(); }, this.#windowMs).unref();
  }

  /** The window is over: one line for what failed in it, and an outage that counts the rest while it lasts. */
  #tell(): void {
    clearTimeout(this.#window);
    this.#window = undefined;
    const held = this.#held;
    const back = new Set(this.#backInWindow);
    this.#held = [];
    this.#backInWindow.clear();
    const [first] = held;
    if (first === undefined) return;
    const watches = new Set(held.map((h) => h.watch));
    if (watches.size === 1) this.#logger.warn(first.message, { resource: first.watch.resource, error: errorText(first.error), failedAttempts: held.length });
    else this.#logger.warn('many watches failed at once', { watches: watches.size, resources: resourcesOf(watches), problem: first.message, error: errorText(first.error) });
    const failing = new Set([...watches].filter((watch) => !back.has(watch)));
    if (failing.size === 0) return;
    const outage: Outage = {
      started: Date.now(),
      failing,
      watches,
      attempts: held.length,
      last: held.at(-1) ?? first,
      reminder: setInterval(() => {
        const { last } = outage;
        this.#logger.warn('watches still failing', { watches: outage.failing.size, failedAttempts: outage.attempts, problem: last.message, error: errorText(last.error) });
      }, this.#reminderMs).unref(),
    };
    this.#outage = outage;
  }

  #recovered(watch: Watch): void {
    const outage = this.#outage;
    if (outage === undefined) {
      if (this.#held.some((h) => h.watch === watch)) this.#backInWindow.add(watch);
      return;
    }
    if (!outage.failing.delete(watch) || outage.failing.size > 0) return;
    this.#logger.info(outage.watches.size === 1 ? 'the watch is back' : 'the watches are back', {
      watches: outage.watches.size,
      resources: resourcesOf(outage.watches),
      failedAttempts: outage.attempts,
      afterMs: Date.now() - outage.started,
    });
    clearInterval(outage.reminder);
    this.#outage = undefined;
  }
}

/** How many of the watches are of each resource. */
function resourcesOf(watches: Iterable<Watch>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { resource } of watches) counts[resource] = (counts[resource] ?? 0) + 1;
  return counts;
}

function errorText(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}
