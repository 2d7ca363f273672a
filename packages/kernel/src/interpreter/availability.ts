import { KeywardError } from './errors.js';

/**
 * Per-endpoint availability (a circuit breaker) for the HTTP clients of external APIs. One failed request
 * that says the endpoint is down marks it unavailable; from then on requests fail at once without being sent,
 * and only a cheap probe goes out, less and less often, until one is answered. Without it, every waiting
 * object keeps asking a service that is down, and once it is back each waits out a backoff that grew during
 * the outage; with it, an outage costs a probe every few seconds and its end is noticed within one probe.
 */

/** An endpoint became unavailable or available again. */
export interface AvailabilityChange {
  /** Which API: "keystone", "keycloak", ... */
  readonly api: string;
  /** The endpoint's base URL. */
  readonly endpoint: string;
  readonly available: boolean;
  /** When the outage began (ms since the epoch), for both changes. */
  readonly since: number;
  /** Why the endpoint counts as down: "ECONNREFUSED", "HTTP 503", "no answer within 10000 ms". Never a secret. */
  readonly cause: string;
}

/** Told of every change; must not throw. */
export type AvailabilityListener = (change: AvailabilityChange) => void;

/** Where availability changes come from (a breaker, a pool of clients, each with its own). */
export interface AvailabilitySource {
  /** Calls `listener` on every change from now on; returns the function that stops it. */
  subscribe(listener: AvailabilityListener): () => void;
}

/** What users of an endpoint see of its breaker: whether it is available, its changes, and closing it. */
export interface EndpointAvailability extends AvailabilitySource {
  readonly available: boolean;
  /**
   * The retryable error a request described by `what` fails with now, without being sent, while the endpoint
   * is unavailable; undefined while it is available.
   */
  refusal(what: string): KeywardError | undefined;
  /** Stops probing an unavailable endpoint; for a client that is no longer used. */
  close(): void;
}

/** A fan-out of changes to the current listeners. */
export class AvailabilityListeners implements AvailabilitySource {
  readonly #listeners = new Set<AvailabilityListener>();

  subscribe(listener: AvailabilityListener): () => void {
    // A wrapper per subscription, so the same function subscribed twice is told twice and stopped once each.
    const entry: AvailabilityListener = (change) => { listener(change); };
    this.#listeners.add(entry);
    return () => { this.#listeners.delete(entry); };
  }

  emit(change: AvailabilityChange): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}

/** Time and timers of a breaker, injectable so tests drive the probe schedule. */
export interface BreakerClock {
  /** Milliseconds since the epoch: the "since" of an outage. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemBreakerClock: BreakerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    // A probe never keeps a process alive that has nothing else to do.
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => { clearTimeout(handle as ReturnType<typeof setTimeout>); },
};

/** How a breaker probes; all optional. */
export interface BreakerSettings {
  readonly clock?: BreakerClock;
  /** Wait before the first probe after the endpoint went down, in ms (default 1 000); it doubles after each failed probe. */
  readonly firstProbeMs?: number;
  /** Longest wait between probes, in ms (default 10 000): how long an outage may outlast its end unnoticed. */
  readonly maxProbeMs?: number;
}

export interface EndpointBreakerOptions extends BreakerSettings {
  readonly api: string;
  /** The API as people name it in messages: "Keystone". */
  readonly label: string;
  readonly endpoint: string;
  /**
   * Sends one cheap request (no credentials, nothing changed) to the endpoint. Resolves undefined when the
   * endpoint answered, else the cause; never rejects.
   */
  readonly probe: () => Promise<string | undefined>;
}

const DEFAULT_FIRST_PROBE_MS = 1_000;
const DEFAULT_MAX_PROBE_MS = 10_000;

/** HTTP statuses with which a proxy or load balancer says the service behind it is down. */
const DOWN_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Whether an HTTP status (0: no answer at all) says the endpoint is down, rather than that a request failed. */
export function statusMeansDown(status: number): boolean {
  return status === 0 || DOWN_STATUSES.has(status);
}

interface Outage {
  readonly since: number;
  readonly cause: string;
  delayMs: number;
  timer: unknown;
}

/**
 * The availability of one endpoint. A request asks `admit` before it is sent and reports its outcome with the
 * ticket it got. Outcomes of requests admitted before the last change are ignored: a request sent before an
 * outage that fails during the next one, or one sent before a recovery whose timeout ends after it, says
 * nothing about the endpoint now.
 */
export class EndpointBreaker implements EndpointAvailability {
  readonly #options: EndpointBreakerOptions;
  readonly #clock: BreakerClock;
  readonly #firstProbeMs: number;
  readonly #maxProbeMs: number;
  readonly #listeners = new AvailabilityListeners();
  /** Counts changes: a ticket is the epoch its request was admitted in. */
  #epoch = 0;
  #outage: Outage | undefined;
  #closed = false;

  constructor(options: EndpointBreakerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemBreakerClock;
    this.#firstProbeMs = options.firstProbeMs ?? DEFAULT_FIRST_PROBE_MS;
    this.#maxProbeMs = options.maxProbeMs ?? DEFAULT_MAX_PROBE_MS;
    if (!(this.#firstProbeMs > 0)) throw new RangeError(`firstProbeMs must be > 0, got ${String(this.#firstProbeMs)}`);
    if (!(this.#maxProbeMs >= this.#firstProbeMs)) throw new RangeError(`maxProbeMs must be >= firstProbeMs, got ${String(this.#maxProbeMs)}`);
  }

  get available(): boolean {
    return this.#outage === undefined;
  }

  subscribe(listener: AvailabilityListener): () => void {
    return this.#listeners.subscribe(listener);
  }

  /**
   * The ticket of a request about to be sent, or, while the endpoint is unavailable, the retryable error it
   * fails with instead. `what` names the request ("create application credential x"), as error messages do.
   */
  admit(what: string): number | KeywardError {
    const outage = this.#outage;
    if (outage === undefined) return this.#epoch;
    const { label, endpoint, api } = this.#options;
    return new KeywardError({
      api,
      code: 0,
      reason: 'Unavailable',
      message: `${what}: ${label} at ${endpoint} is unavailable since ${new Date(outage.since).toISOString()} (${outage.cause}); not sent, retried once it answers again`,
      retryable: true,
    });
  }

  refusal(what: string): KeywardError | undefined {
    const admitted = this.admit(what);
    return admitted instanceof KeywardError ? admitted : undefined;
  }

  /** The outcome of a request admitted with `ticket`: undefined when the endpoint answered, else why it counts as down. */
  report(ticket: number, downCause: string | undefined): void {
    if (ticket !== this.#epoch || this.#closed) return;
    if (downCause === undefined) this.#recover();
    else this.#trip(downCause);
  }

  /** Stops probing and ignores further outcomes; for a client that is no longer used. */
  close(): void {
    this.#closed = true;
    if (this.#outage !== undefined) this.#clock.clearTimeout(this.#outage.timer);
  }

  #trip(cause: string): void {
    if (this.#outage !== undefined) return;
    this.#epoch++;
    const outage: Outage = { since: this.#clock.now(), cause, delayMs: this.#firstProbeMs, timer: undefined };
    this.#outage = outage;
    this.#scheduleProbe(outage);
    this.#emit(outage, false);
  }

  #recover(): void {
    const outage = this.#outage;
    if (outage === undefined) return;
    this.#epoch++;
    this.#outage = undefined;
    this.#clock.clearTimeout(outage.timer);
    this.#emit(outage, true);
  }

  #scheduleProbe(outage: Outage): void {
    outage.timer = this.#clock.setTimeout(() => { void this.#probe(outage); }, outage.delayMs);
  }

  async #probe(outage: Outage): Promise<void> {
    const ticket = this.#epoch;
    const cause = await this.#options.probe();
    if (this.#closed || this.#outage !== outage || ticket !== this.#epoch) return;
    if (cause === undefined) {
      this.#recover();
      return;
    }
    // The outage keeps its first cause, so the messages of requests refused during it stay the same.
    outage.delayMs = Math.min(this.#maxProbeMs, outage.delayMs * 2);
    this.#scheduleProbe(outage);
  }

  #emit(outage: Outage, available: boolean): void {
    const { api, endpoint } = this.#options;
    this.#listeners.emit({ api, endpoint, available, since: outage.since, cause: outage.cause });
  }
}
