/** Where watch trouble is written: a RuntimeLogger fits. */
export interface WatchTroubleLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
}

export interface WatchTroubleOptions {
  /** How long a problem is held to see whether other watches fail with it. Default 1 s. */
  readonly windowMs?: number;
  /** Watches failing within one window that make a storm, told in one line. Default 3. */
  readonly threshold?: number;
  /** While a storm lasts, how often one line says how many watches are still failing. Default 60 s. */
  readonly reminderMs?: number;
}

/** One watch's side of the log: its problems, and its return after a failure. */
export interface WatchTroubleReporter {
  /**
   * A problem of the watch. `retrying`: it failed and retries, and recovered() follows once the API server
   * accepts it again; otherwise a one-off (a handler that threw, a silent watch restarted).
   */
  problem(message: string, error: unknown, retrying: boolean): void;
  recovered(): void;
  /** The watch is stopped: a storm does not wait for its return. */
  release(): void;
}

interface Held {
  readonly watch: object;
  readonly resource: string;
  readonly message: string;
  readonly error: unknown;
  readonly retrying: boolean;
}

interface Storm {
  readonly started: number;
  readonly failing: Set<object>;
  readonly watches: Set<object>;
  attempts: number;
  reminder: NodeJS.Timeout | undefined;
}

const DEFAULTS = { windowMs: 1_000, threshold: 3, reminderMs: 60_000 } as const;

/**
 * The log of a controller's watches. One watch in trouble is told as before, each problem a warning (held for
 * `windowMs`). Many failing within one window (the API server restarting, say) is a storm: one warning says how
 * many watches failed and why, their retries are counted rather than logged, and one line says when they are
 * all back, so an outage costs two lines rather than one per watch and retry.
 */
export class WatchTroubleLog {
  readonly #logger: WatchTroubleLogger;
  readonly #windowMs: number;
  readonly #threshold: number;
  readonly #reminderMs: number;
  #held: Held[] = [];
  /** Watches whose last word within the window was a return, not a problem. */
  readonly #backInWindow = new Set<object>();
  #window: NodeJS.Timeout | undefined;
  #storm: Storm | undefined;

  constructor(logger: WatchTroubleLogger, options: WatchTroubleOptions = {}) {
    this.#logger = logger;
    this.#windowMs = options.windowMs ?? DEFAULTS.windowMs;
    this.#threshold = options.threshold ?? DEFAULTS.threshold;
    this.#reminderMs = options.reminderMs ?? DEFAULTS.reminderMs;
  }

  /** A reporter for one watch of `resource` (its name in the log). */
  watch(resource: string): WatchTroubleReporter {
    const watch = {};
    return {
      problem: (message, error, retrying) => { this.#problem({ watch, resource, message, error, retrying }); },
      recovered: () => { this.#recovered(watch); },
      release: () => {
        this.#held = this.#held.filter((held) => held.watch !== watch);
        this.#recovered(watch);
      },
    };
  }

  /** Writes what is held and stops the timers. */
  stop(): void {
    this.#flush();
    this.#endStorm();
  }

  #problem(held: Held): void {
    const storm = this.#storm;
    if (storm !== undefined) {
      storm.attempts++;
      storm.watches.add(held.watch);
      if (held.retrying) storm.failing.add(held.watch);
      return;
    }
    this.#held.push(held);
    this.#backInWindow.delete(held.watch);
    this.#window ??= setTimeout(() => { this.#flush(); }, this.#windowMs).unref();
  }

  /** The window is over: a storm if enough watches failed in it, else each problem as it came. */
  #flush(): void {
    clearTimeout(this.#window);
    this.#window = undefined;
    const held = this.#held;
    const back = new Set(this.#backInWindow);
    this.#held = [];
    this.#backInWindow.clear();
    const watches = new Set(held.map((h) => h.watch));
    if (watches.size < this.#threshold) {
      for (const { resource, message, error } of held) this.#logger.warn(message, { resource, error: errorText(error) });
      return;
    }
    const failing = new Set(held.filter((h) => h.retrying && !back.has(h.watch)).map((h) => h.watch));
    const [first] = held;
    this.#logger.warn('many watches failed at once; retrying them quietly until they are back', {
      watches: watches.size,
      resources: countBy(held, watches),
      ...(first === undefined ? {} : { problem: first.message, error: errorText(first.error) }),
    });
    if (failing.size === 0) return;
    const storm: Storm = { started: Date.now(), failing, watches, attempts: held.length, reminder: undefined };
    storm.reminder = setInterval(() => {
      this.#logger.warn('watches still failing', { watches: storm.failing.size, failedAttempts: storm.attempts });
    }, this.#reminderMs).unref();
    this.#storm = storm;
  }

  #recovered(watch: object): void {
    const storm = this.#storm;
    if (storm === undefined && this.#held.some((h) => h.watch === watch)) this.#backInWindow.add(watch);
    if (storm === undefined || !storm.failing.delete(watch) || storm.failing.size > 0) return;
    this.#logger.info('the watches are back', { watches: storm.watches.size, failedAttempts: storm.attempts, afterMs: Date.now() - storm.started });
    this.#endStorm();
  }

  #endStorm(): void {
    clearInterval(this.#storm?.reminder);
    this.#storm = undefined;
  }
}

/** How many of the watches are of each resource. */
function countBy(held: readonly Held[], watches: ReadonlySet<object>): Record<string, number> {
  const resourceOf = new Map(held.map((h) => [h.watch, h.resource]));
  const counts: Record<string, number> = {};
  for (const watch of watches) {
    const resource = resourceOf.get(watch) ?? 'unknown';
    counts[resource] = (counts[resource] ?? 0) + 1;
  }
  return counts;
}

function errorText(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}
