import { KeywardError } from '@keyward/kernel/interpreter';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { resourcePath } from '../apis/kubernetes/io/paths.js';
import { apiVersionOf, describeRef } from '@keyward/kernel/model';
import { coreTypes, type ObjectRef, type KubeObject } from '@keyward/kernel';

/** The calls the elector makes; a KubeClient has them (tests pass a fake). */
export type LeaseClient = Pick<KubeClient, 'get' | 'create' | 'raw'>;

export interface LeaderElectionOptions {
  readonly client: LeaseClient;
  readonly namespace: string;
  /** Name of the Lease. */
  readonly name: string;
  /** Labels the Lease is created with, so a list can find it among others (shard Leases). */
  readonly labels?: Readonly<Record<string, string>>;
  /** This process; unique among the replicas (pod name plus a random suffix). */
  readonly identity: string;
  /** How long others wait after the lease last changed before taking it over; default 15 s. */
  readonly leaseDurationMs?: number;
  /** The leader steps down when it could not renew for this long; default 10 s, less than the lease duration. */
  readonly renewDeadlineMs?: number;
  /** Interval of acquire and renew attempts; default 2 s. */
  readonly retryPeriodMs?: number;
  /**
   * Called on becoming leader; `signal` aborts when leadership ends. When it returns a promise, the elector
   * does not release the lease (stop) or start a new term until it settles, so two replicas never work at once.
   * A throw or rejection goes to onProblem; leadership is kept (the caller may stop()).
   */
  readonly onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  /** Called once when leadership ends: lost (renew deadline passed, lease taken) or stopped. */
  readonly onStoppedLeading?: () => void;
  /** Failed Lease calls (conflicts excepted: they are the normal way of losing a race) and lost leadership. */
  readonly onProblem?: (message: string, error?: unknown) => void;
}

/** coordination.k8s.io/v1 LeaseSpec; times are MicroTime. */
export interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  readonly spec?: LeaseSpec;
}

/** A MicroTime: RFC 3339 with microseconds, as the API server writes Lease times. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

/** client-go's defaults, which controller-runtime keeps. */
export const LEASE_TIMING_DEFAULTS = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 } as const;

/** Acquire attempts wait up to this fraction of the retry period longer, so replicas do not poll in lockstep. */
const JITTER = 0.1;

/** What one attempt found: we hold the lease, someone else validly holds it, or we could not tell (in time). */
type Attempt = 'held' | 'taken' | 'failed' | 'timeout';

interface Term {
  readonly controller: AbortController;
  deadline: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Leader election on a Lease with client-go's semantics. Followers poll the Lease and take it over once it
 * has not changed for its leaseDurationSeconds, measured on their own clock from when they saw it change
 * (as client-go does, so clock skew between nodes does not matter), or at once when its holder is empty.
 * The leader renews every retry period and steps down when it has not renewed for renewDeadline, which is
 * shorter than the lease duration: it stops working before anyone else may start. Every write carries the
 * resourceVersion it was based on, so of two replicas racing for the lease one gets a conflict.
 */
export class LeaderElector {
  readonly #options: LeaderElectionOptions;
  readonly #ref: ObjectRef;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  #state: 'new' | 'running' | 'stopped' = 'new';
  #timer: ReturnType<typeof setTimeout> | undefined;
  #attempt: Promise<void> = Promise.resolve();
  /** Counts attempts, so one given up on can tell. */
  #generation = 0;
  /** The Lease as last read or written, and when (monotonic ms) its current resourceVersion was first seen. */
  #observed: { lease: Lease; at: number } | undefined;
  /** Whether the Lease we last wrote names us, so stop() has something to release. */
  #holding = false;
  #term: Term | undefined;
  /** What the last onStartedLeading returned, settled or not. */
  #work: Promise<void> = Promise.resolve();
  #stopping: Promise<void> | undefined;

  constructor(options: LeaderElectionOptions) {
    const { leaseDurationMs = LEASE_TIMING_DEFAULTS.leaseDurationMs, renewDeadlineMs = LEASE_TIMING_DEFAULTS.renewDeadlineMs, retryPeriodMs = LEASE_TIMING_DEFAULTS.retryPeriodMs } = options;
    if (!(retryPeriodMs > 0)) throw new RangeError(`retryPeriodMs must be > 0, got ${String(retryPeriodMs)}`);
    if (!(renewDeadlineMs > retryPeriodMs)) throw new RangeError(`renewDeadlineMs must be > retryPeriodMs (${String(retryPeriodMs)}), got ${String(renewDeadlineMs)}`);
    if (!(leaseDurationMs > renewDeadlineMs)) throw new RangeError(`leaseDurationMs must be > renewDeadlineMs (${String(renewDeadlineMs)}), got ${String(leaseDurationMs)}`);
    if (options.identity === '') throw new RangeError('identity must not be empty');
    this.#options = options;
    this.#ref = { type: coreTypes.lease, namespace: options.namespace, name: options.name };
    this.#leaseMs = leaseDurationMs;
    this.#renewMs = renewDeadlineMs;
    this.#retryMs = retryPeriodMs;
  }

  /** Starts trying to acquire the lease; renews it while leading. */
  start(): void {
    if (this.#state !== 'new') throw new Error('a LeaderElector starts once');
    this.#state = 'running';
    this.#schedule(0);
  }

  isLeader(): boolean {
    return this.#term !== undefined;
  }

  /**
   * Stops. When leading, aborts the signal and waits for the work of onStartedLeading to settle; then, with
   * `release` (default), empties the Lease's holder and shortens it to 1 s, as client-go's ReleaseOnCancel does,
   * so another replica takes over at its next attempt. Without release the Lease expires as after a crash.
   */
  stop(options: { release?: boolean } = {}): Promise<void> {
    this.#stopping ??= this.#shutdown(options.release ?? true);
    return this.#stopping;
  }

  async #shutdown(release: boolean): Promise<void> {
    this.#state = 'stopped';
    clearTimeout(this.#timer);
    // An attempt in flight may still make us the holder, which the release below undoes.
    await this.#attempt;
    const term = this.#term;
    if (term !== undefined) this.#endTerm(term, new Error('the leader elector was stopped'));
    await this.#work;
    if (release) await within(this.#release(), this.#renewMs, undefined);
    if (term !== undefined) this.#notifyStopped();
  }

  /** A method, not a field test: the state changes while a cycle awaits, which narrowing does not see. */
  #running(): boolean {
    return this.#state === 'running';
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#attempt = this.#cycle();
    }, ms);
  }

  async #cycle(): Promise<void> {
    // A new term waits until the previous one's work has wound down.
    if (this.#term === undefined) await this.#work;
    if (!this.#running()) return;
    const sentAt = performance.now();
    const generation = ++this.#generation;
    // The client's own timeout may be long; a hung request must not stall renewing (or stopping) for longer.
    const attempt = await within(this.#tryAcquireOrRenew(generation), this.#renewMs, 'timeout');
    if (attempt === 'timeout') {
      // Should its read still come back, the abandoned attempt sees it is stale and does nothing.
      this.#generation += 1;
      this.#problem(`the API server did not answer within ${String(this.#renewMs)} ms`);
    }
    if (!this.#running()) return;
    if (attempt === 'held' && performance.now() - sentAt < this.#renewMs) this.#lead(sentAt);
    else if (attempt === 'taken') this.#lose(`the lease was taken by ${this.#holder() ?? 'another replica'}`);
    // A failed renewal keeps leadership until the renew deadline passes.
    this.#schedule(this.#term === undefined ? this.#retryMs * (1 + Math.random() * JITTER) : this.#retryMs);
  }

  /** Starts a term or extends the current one: the lease written at `renewedAt` is safe to act on until the renew deadline. */
  #lead(renewedAt: number): void {
    let term = this.#term;
    if (term === undefined) {
      term = { controller: new AbortController(), deadline: undefined };
      this.#term = term;
      this.#work = this.#startWork(term.controller.signal);
    }
    clearTimeout(term.deadline);
    // A timer rather than a check after each attempt: a request that hangs must not keep us leading.
    term.deadline = setTimeout(() => {
      this.#lose(`the lease could not be renewed for ${String(this.#renewMs)} ms`);
    }, renewedAt + this.#renewMs - performance.now());
  }

  #startWork(signal: AbortSignal): Promise<void> {
    const failed = (error: unknown): void => {
      this.#problem('onStartedLeading failed', error);
    };
    try {
      return Promise.resolve(this.#options.onStartedLeading(signal)).catch(failed);
    } catch (error) {
      failed(error);
      return Promise.resolve();
    }
  }

  #lose(reason: string): void {
    const term = this.#term;
    if (term === undefined) return;
    this.#problem(`lost leadership: ${reason}`);
    this.#endTerm(term, new Error(`leadership lost: ${reason}`));
    this.#notifyStopped();
  }

  #endTerm(term: Term, reason: Error): void {
    clearTimeout(term.deadline);
    this.#term = undefined;
    term.controller.abort(reason);
  }

  /** One attempt; `generation` tells whether it was given up on while it waited for the read. */
  async #tryAcquireOrRenew(generation: number): Promise<Attempt> {
    try {
      const current = (await this.#options.client.get(this.#ref)) as Lease | undefined;
      // Given up on: a late read must neither replace a newer observation nor lead to a write.
      if (generation !== this.#generation) return 'failed';
      if (current === undefined) return await this.#write(undefined);
      this.#observe(current);
      const holder = this.#holder() ?? '';
      if (holder !== '' && holder !== this.#options.identity && !this.#expired()) {
        this.#holding = false;
        return 'taken';
      }
      return await this.#write(current);
    } catch (error) {
      // A conflict means another replica wrote first: the next attempt reads what it wrote.
      if (!(error instanceof KeywardError && error.code === 409)) this.#problem(`acquiring or renewing ${describeRef(this.#ref)} failed`, error);
      return 'failed';
    }
  }

  /** Creates the Lease naming us, or updates `current` to name us, conditional on its resourceVersion. */
  async #write(current: Lease | undefined): Promise<Attempt> {
    const now = microTime(new Date());
    const previous = current?.spec ?? {};
    const renewal = previous.holderIdentity === this.#options.identity;
    const spec: LeaseSpec = {
      holderIdentity: this.#options.identity,
      leaseDurationSeconds: Math.ceil(this.#leaseMs / 1000),
      acquireTime: renewal && previous.acquireTime !== undefined ? previous.acquireTime : now,
      renewTime: now,
      leaseTransitions: current === undefined ? 0 : (previous.leaseTransitions ?? 0) + (renewal ? 0 : 1),
    };
    const written = current === undefined
      ? ((await this.#options.client.create(this.#ref, { apiVersion: apiVersionOf(coreTypes.lease), kind: coreTypes.lease.kind, metadata: { name: this.#options.name, namespace: this.#options.namespace, ...(this.#options.labels === undefined ? {} : { labels: this.#options.labels }) }, spec })) as Lease)
      : await this.#put({ ...current, spec }, 'update');
    this.#observe(written);
    this.#holding = true;
    return 'held';
  }

  /** Empties the holder of the Lease we last wrote, unless someone has changed it since. */
  async #release(): Promise<void> {
    const lease = this.#observed?.lease;
    if (!this.#holding || lease === undefined) return;
    const now = microTime(new Date());
    const spec: LeaseSpec = { leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: lease.spec?.leaseTransitions ?? 0 };
    try {
      await this.#put({ ...lease, spec }, 'release');
      this.#holding = false;
    } catch (error) {
      // A conflict: someone else has written the Lease since, so it is no longer ours to release.
      if (!(error instanceof KeywardError && error.code === 409)) this.#problem(`releasing ${describeRef(this.#ref)} failed`, error);
    }
  }

  #put(lease: Lease, what: string): Promise<Lease> {
    return this.#options.client.raw<Lease>({
      method: 'PUT',
      path: resourcePath(coreTypes.lease, this.#options.namespace, this.#options.name),
      body: lease,
      what: `${what} ${describeRef(this.#ref)}`,
      verb: 'update',
      resource: coreTypes.lease.plural,
    });
  }

  #observe(lease: Lease): void {
    const seen = this.#observed?.lease.metadata.resourceVersion === lease.metadata.resourceVersion;
    this.#observed = { lease, at: seen && this.#observed !== undefined ? this.#observed.at : performance.now() };
  }

  #holder(): string | undefined {
    return this.#observed?.lease.spec?.holderIdentity;
  }

  /** Whether the observed Lease has gone unchanged for its duration (ours when it states none). */
  #expired(): boolean {
    if (this.#observed === undefined) return true;
    const seconds = this.#observed.lease.spec?.leaseDurationSeconds;
    const durationMs = seconds === undefined ? this.#leaseMs : seconds * 1000;
    return performance.now() >= this.#observed.at + durationMs;
  }

  #notifyStopped(): void {
    try {
      this.#options.onStoppedLeading?.();
    } catch (error) {
      this.#problem('onStoppedLeading failed', error);
    }
  }

  #problem(message: string, error?: unknown): void {
    try {
      this.#options.onProblem?.(`leader election ${describeRef(this.#ref)}: ${message}`, error);
    } catch {
      // A failing reporter must not stop the election.
    }
  }
}

/** The value of `promise`, or `fallback` when it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      resolve(fallback);
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
