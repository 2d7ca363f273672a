import { Fifo, TokenBucket } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import { validateKeycloakRateLimits, type KeycloakRateLimits } from './rate-limit-limits.js';

export { defaultKeycloakRateLimits, validateKeycloakRateLimits } from './rate-limit-limits.js';
export type { KeycloakRateLimits, TokenBucketLimit } from './rate-limit-limits.js';

/** Time and one-shot timers, injectable so tests drive time. `now` is monotonic milliseconds. */
export interface LimiterClock {
  now(): number;
  /** Calls `callback` once after `ms`; the returned function cancels it. */
  setTimer(ms: number, callback: () => void): () => void;
}

export const realLimiterClock: LimiterClock = {
  // Monotonic, unlike Date.now(), so a wall-clock step neither releases nor stalls waiters.
  now: () => performance.now(),
  setTimer: (ms, callback) => {
    const handle = setTimeout(callback, ms);
    return () => {
      clearTimeout(handle);
    };
  },
};

export type RateLimitType = 'namespace' | 'global' | 'token';

/** Hooks for metrics, per limit type and never per object; each is optional and must not throw. */
export interface RateLimitObserver {
  /**
   * A request took a token of `limit`; `waitMs` is the part of its wait that limit caused. An admin request
   * reports twice: 'namespace' for the time its own namespace held it (its queue and its bucket), 'global'
   * for the rest, so the two add up to its whole wait.
   */
  readonly onAcquired?: (limit: RateLimitType, waitMs: number) => void;
  /** A request gave up after `waitMs`, held by `limit` at that moment. */
  readonly onTimedOut?: (limit: RateLimitType, waitMs: number) => void;
}

/** The limiter's state for gauges. */
export interface RateLimitBudgets {
  /** Tokens in the global bucket (fractions included). */
  readonly global: number;
  /** Tokens in the token-endpoint bucket. */
  readonly token: number;
  /** Namespaces with admin requests waiting. */
  readonly namespacesWaiting: number;
  readonly adminRequestsWaiting: number;
  readonly tokenRequestsWaiting: number;
  /** Namespaces whose bucket is remembered: those waiting and those that used it too recently to be full again. */
  readonly namespacesTracked: number;
}

export interface FairRateLimiterOptions {
  readonly clock?: LimiterClock;
  readonly observer?: RateLimitObserver;
}

interface Waiter {
  readonly enqueuedAt: number;
  readonly deadline: number;
  readonly resolve: () => void;
  readonly reject: (error: KeywardError) => void;
}

/** A namespace's own bucket and its admin requests in arrival order. */
interface NamespaceLane {
  readonly name: string;
  readonly bucket: TokenBucket;
  readonly waiters: Fifo<Waiter>;
  /** When the head waiter has (or had) its namespace's token; from then on only the global limit holds it. */
  headOwnTokenAt: number;
}

/** Node turns a longer setTimeout delay into 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Token buckets for Keycloak requests: an admin request takes a token from its namespace's bucket and one
 * from the global bucket; a token-endpoint request takes one from its own bucket.
 *
 * Fair: namespaces with waiters take turns at the global bucket (round-robin, each namespace's requests in
 * arrival order), and a namespace whose own bucket is empty is passed over without holding up the next, so
 * a big backlog in one namespace delays another's requests by at most one turn each.
 *
 * Event-driven: a single timer is set for the next moment anyone can proceed or time out, and none at all
 * while nobody waits, so an idle limiter keeps no process alive.
 */
export class FairRateLimiter {
  readonly #limits: KeycloakRateLimits;
  readonly #clock: LimiterClock;
  readonly #observer: RateLimitObserver;
  readonly #global: TokenBucket;
  readonly #token: TokenBucket;
  readonly #tokenWaiters = new Fifo<Waiter>();
  /** Every namespace whose bucket may not be full; a forgotten one starts over full, which is what it would be. */
  readonly #lanes = new Map<string, NamespaceLane>();
  /** Namespaces with waiters, in turn order: the first with a token of its own goes next, then to the back. */
  readonly #turns = new Map<string, NamespaceLane>();
  /** Namespaces without waiters and when their queue emptied, oldest first. */
  readonly #idleSince = new Map<string, number>();
  /** Every namespace bucket refills from empty within this time, so one idle that long is full. */
  readonly #namespaceRefillMs: number;
  #adminWaiting = 0;
  #timer: { readonly at: number; readonly cancel: () => void } | undefined;

  constructor(limits: KeycloakRateLimits, options: FairRateLimiterOptions = {}) {
    validateKeycloakRateLimits(limits);
    this.#limits = limits;
    this.#clock = options.clock ?? realLimiterClock;
    this.#observer = options.observer ?? {};
    const now = this.#clock.now();
    this.#global = new TokenBucket(limits.global, now);
    this.#token = new TokenBucket(limits.token, now);
    this.#namespaceRefillMs = new TokenBucket(limits.namespace, now).refillMs;
  }

  /** Resolves once an admin request charged to `namespace` may go; rejects with RateLimited after maxWaitMs. */
  acquire(namespace: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const now = this.#clock.now();
      const lane = this.#laneOf(namespace, now);
      lane.waiters.push({ enqueuedAt: now, deadline: now + this.#limits.maxWaitMs, resolve, reject });
      this.#adminWaiting += 1;
      if (lane.waiters.size === 1) {
        lane.headOwnTokenAt = lane.bucket.readyAt(now);
        this.#idleSince.delete(namespace);
        // A namespace that starts waiting joins the back of the round.
        this.#turns.set(namespace, lane);
      }
      this.#pump(now);
    });
  }

  /** Resolves once a token-endpoint request may go; rejects with RateLimited after maxWaitMs. */
  acquireToken(): Promise<void> {
    return new Promise((resolve, reject) => {
      const now = this.#clock.now();
      this.#tokenWaiters.push({ enqueuedAt: now, deadline: now + this.#limits.maxWaitMs, resolve, reject });
      this.#pump(now);
    });
  }

  budgets(): RateLimitBudgets {
    const now = this.#clock.now();
    return {
      global: Math.max(0, this.#global.available(now)),
      token: Math.max(0, this.#token.available(now)),
      namespacesWaiting: this.#turns.size,
      adminRequestsWaiting: this.#adminWaiting,
      tokenRequestsWaiting: this.#tokenWaiters.size,
      namespacesTracked: this.#lanes.size,
    };
  }

  #laneOf(namespace: string, now: number): NamespaceLane {
    let lane = this.#lanes.get(namespace);
    if (lane === undefined) {
      lane = { name: namespace, bucket: new TokenBucket(this.#limits.namespace, now), waiters: new Fifo(), headOwnTokenAt: now };
      this.#lanes.set(namespace, lane);
    }
    return lane;
  }

  /** Lets through everyone who may go now, rejects whoever waited too long, and sets the timer for the rest. */
  #pump(now: number): void {
    this.#serveTokenRequests(now);
    this.#serveAdminRequests(now);
    // After serving, so a token that arrives exactly at a deadline is still given.
    this.#expire(now);
    this.#forgetFullIdleNamespaces(now);
    this.#arm(now);
  }

  #serveTokenRequests(now: number): void {
    for (let waiter = this.#tokenWaiters.peek(); waiter !== undefined && this.#token.hasToken(now); waiter = this.#tokenWaiters.peek()) {
      this.#tokenWaiters.shift();
      this.#token.take(now);
      waiter.resolve();
      this.#observer.onAcquired?.('token', now - waiter.enqueuedAt);
    }
  }

  #serveAdminRequests(now: number): void {
    while (this.#global.hasToken(now)) {
      const lane = this.#nextInTurn(now);
      const waiter = lane?.waiters.shift();
      if (lane === undefined || waiter === undefined) return;
      const ownTokenAt = lane.headOwnTokenAt;
      lane.bucket.take(now);
      this.#global.take(now);
      this.#adminWaiting -= 1;
      // Served: to the back of the round, or out of it if this was its last waiter.
      this.#turns.delete(lane.name);
      this.#headLeft(lane, now);
      waiter.resolve();
      const namespaceWaitMs = Math.max(0, Math.min(ownTokenAt, now) - waiter.enqueuedAt);
      this.#observer.onAcquired?.('namespace', namespaceWaitMs);
      this.#observer.onAcquired?.('global', now - waiter.enqueuedAt - namespaceWaitMs);
    }
  }

  /** The first namespace in turn order that has a token of its own; the ones before it keep their place. */
  #nextInTurn(now: number): NamespaceLane | undefined {
    for (const lane of this.#turns.values()) {
      if (lane.bucket.hasToken(now)) return lane;
    }
    return undefined;
  }

  /** Bookkeeping after a lane's head was served or timed out; a lane that still waits is (re-)added to the round's back. */
  #headLeft(lane: NamespaceLane, now: number): void {
    if (lane.waiters.size > 0) {
      lane.headOwnTokenAt = lane.bucket.readyAt(now);
      if (!this.#turns.has(lane.name)) this.#turns.set(lane.name, lane);
    } else {
      this.#turns.delete(lane.name);
      this.#idleSince.set(lane.name, now);
    }
  }

  /** Waiters share one maxWaitMs and queue in arrival order, so only queue heads can be due. */
  #expire(now: number): void {
    for (let waiter = this.#tokenWaiters.peek(); waiter !== undefined && waiter.deadline <= now; waiter = this.#tokenWaiters.peek()) {
      this.#tokenWaiters.shift();
      const retryAfterMs = tokensTimeMs(this.#tokenWaiters.size + 1, this.#limits.token.ratePerSecond);
      waiter.reject(rateLimited('Keycloak token request', now - waiter.enqueuedAt, retryAfterMs,
        `the token limit (${perSecond(this.#limits.token.ratePerSecond)}) has ${String(this.#tokenWaiters.size)} more requests queued`));
      this.#observer.onTimedOut?.('token', now - waiter.enqueuedAt);
    }
    // Deleting the current entry while iterating a Map is safe; lanes that still wait keep their turn.
    for (const lane of this.#turns.values()) {
      for (let waiter = lane.waiters.peek(); waiter !== undefined && waiter.deadline <= now; waiter = lane.waiters.peek()) {
        lane.waiters.shift();
        this.#adminWaiting -= 1;
        const heldByNamespace = now < lane.headOwnTokenAt;
        this.#headLeft(lane, now);
        waiter.reject(heldByNamespace ? this.#namespaceTimeout(lane, now - waiter.enqueuedAt) : this.#globalTimeout(lane, now - waiter.enqueuedAt));
        this.#observer.onTimedOut?.(heldByNamespace ? 'namespace' : 'global', now - waiter.enqueuedAt);
      }
    }
  }

  #namespaceTimeout(lane: NamespaceLane, waitedMs: number): KeywardError {
    const rate = this.#limits.namespace.ratePerSecond;
    return rateLimited(`Keycloak admin request for namespace ${lane.name}`, waitedMs, tokensTimeMs(lane.waiters.size + 1, rate),
      `the namespace's limit (${perSecond(rate)}) has ${String(lane.waiters.size)} more of its requests queued`);
  }

  #globalTimeout(lane: NamespaceLane, waitedMs: number): KeywardError {
    const rate = this.#limits.global.ratePerSecond;
    return rateLimited(`Keycloak admin request for namespace ${lane.name}`, waitedMs, tokensTimeMs(this.#adminWaiting + 1, rate),
      `the global limit (${perSecond(rate)}) is shared by ${String(this.#turns.size)} namespaces with ${String(this.#adminWaiting)} requests queued`);
  }

  /** Bounds memory by the namespaces active within one refill time; their buckets are full again by then. */
  #forgetFullIdleNamespaces(now: number): void {
    for (const [name, since] of this.#idleSince) {
      if (now - since < this.#namespaceRefillMs) return;
      this.#idleSince.delete(name);
      this.#lanes.delete(name);
    }
  }

  /** Keeps exactly one timer while anyone waits, set for the next moment someone can go or times out. */
  #arm(now: number): void {
    const wakeAt = this.#nextEventAt(now);
    // Recomputed times differ in the last bits; a timer within a millisecond of the right moment is kept.
    if (wakeAt !== undefined && this.#timer !== undefined && Math.abs(this.#timer.at - wakeAt) < 1) return;
    this.#timer?.cancel();
    this.#timer = undefined;
    if (wakeAt === undefined) return;
    // At least 1 ms: a timer that fired a hair early re-arms for the next millisecond rather than spinning.
    const delayMs = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(wakeAt - now)));
    const cancel = this.#clock.setTimer(delayMs, () => {
      this.#timer = undefined;
      this.#pump(this.#clock.now());
    });
    this.#timer = { at: wakeAt, cancel };
  }

  #nextEventAt(now: number): number | undefined {
    let next = Infinity;
    const tokenHead = this.#tokenWaiters.peek();
    if (tokenHead !== undefined) next = Math.min(this.#token.readyAt(now), tokenHead.deadline);
    if (this.#turns.size > 0) {
      let ownTokenAt = Infinity;
      for (const lane of this.#turns.values()) {
        ownTokenAt = Math.min(ownTokenAt, lane.bucket.readyAt(now));
        next = Math.min(next, lane.waiters.peek()?.deadline ?? Infinity);
      }
      // Someone is served once some namespace has its own token and the global bucket has one too.
      next = Math.min(next, Math.max(this.#global.readyAt(now), ownTokenAt));
    }
    return next === Infinity ? undefined : next;
  }
}

/** Time for a bucket at `ratePerSecond` to produce `tokens` tokens: a hint for when a retry could pass. */
function tokensTimeMs(tokens: number, ratePerSecond: number): number {
  return Math.ceil((tokens * 1000) / ratePerSecond);
}

function perSecond(rate: number): string {
  return `${String(rate)}/s`;
}

function rateLimited(subject: string, waitedMs: number, retryAfterMs: number, cause: string): KeywardError {
  return new KeywardError({
    api: 'keycloak',
    code: 429,
    reason: 'RateLimited',
    message: `${subject} gave up after waiting ${String(Math.round(waitedMs))} ms: ${cause}`,
    retryable: true,
    retryAfterMs,
  });
}
