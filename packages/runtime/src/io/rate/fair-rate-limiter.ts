import { KeywardError } from '@keyward/kernel/interpreter';
import { Fifo } from './fifo.js';
import { defaultFairRateLimitNames, validateFairRateLimits, type FairRateLimitNames, type FairRateLimits } from './fair-rate-limits.js';
import type { RateLimiterClock } from './rate-limiter.js';
import { TokenBucket } from './token-bucket.js';

/**
 * Timers that keep the process alive while someone waits (unlike systemRateLimiterClock's): a command whose
 * only pending work is a request waiting for its turn must not exit. `now` is monotonic, unlike Date.now(),
 * so a wall-clock step neither releases nor stalls waiters.
 */
export const fairLimiterClock: RateLimiterClock = {
  now: () => performance.now(),
  setTimer: (ms, callback) => {
    const handle = setTimeout(callback, ms);
    return () => {
      clearTimeout(handle);
    };
  },
};

export type RateLimitType = 'tenant' | 'global' | 'token';

/** Hooks for metrics, per limit type and never per tenant; each is optional and must not throw. */
export interface RateLimitObserver {
  /**
   * A request took a token of `limit`; `waitMs` is the part of its wait that limit caused. A tenant's request
   * reports twice: 'tenant' for the time its own tenant held it (its queue and its bucket), 'global' for the
   * rest, so the two add up to its whole wait.
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
  /** Tenants with requests waiting. */
  readonly tenantsWaiting: number;
  readonly tenantRequestsWaiting: number;
  readonly tokenRequestsWaiting: number;
  /** Tenants whose bucket is remembered: those waiting and those that used it too recently to be full again. */
  readonly tenantsTracked: number;
}

export interface FairRateLimiterOptions {
  readonly clock?: RateLimiterClock;
  readonly observer?: RateLimitObserver;
  /** What errors call the API and its tenants (default: defaultFairRateLimitNames). */
  readonly names?: FairRateLimitNames;
}

interface Waiter {
  readonly enqueuedAt: number;
  readonly deadline: number;
  readonly resolve: () => void;
  readonly reject: (error: KeywardError) => void;
}

/** A tenant's own bucket and its requests in arrival order. */
interface TenantLane {
  readonly name: string;
  readonly bucket: TokenBucket;
  readonly waiters: Fifo<Waiter>;
  /** When the head waiter has (or had) its tenant's token; from then on only the global limit holds it. */
  headOwnTokenAt: number;
}

/** Node turns a longer setTimeout delay into 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Token buckets for an API's requests: a request charged to a tenant takes a token from that tenant's
 * bucket and one from the global bucket; a token-endpoint request takes one from its own bucket.
 *
 * Fair: tenants with waiters take turns at the global bucket (round-robin, each tenant's requests in
 * arrival order), and a tenant whose own bucket is empty is passed over without holding up the next, so a
 * big backlog of one tenant delays another's requests by at most one turn each.
 *
 * Event-driven: a single timer is set for the next moment anyone can proceed or time out, and none at all
 * while nobody waits.
 */
export class FairRateLimiter {
  readonly #limits: FairRateLimits;
  readonly #names: FairRateLimitNames;
  readonly #clock: RateLimiterClock;
  readonly #observer: RateLimitObserver;
  readonly #global: TokenBucket;
  readonly #token: TokenBucket;
  readonly #tokenWaiters = new Fifo<Waiter>();
  /** Every tenant whose bucket may not be full; a forgotten one starts over full, which is what it would be. */
  readonly #lanes = new Map<string, TenantLane>();
  /** Tenants with waiters, in turn order: the first with a token of its own goes next, then to the back. */
  readonly #turns = new Map<string, TenantLane>();
  /** Tenants without waiters and when their queue emptied, oldest first. */
  readonly #idleSince = new Map<string, number>();
  /** Every tenant bucket refills from empty within this time, so one idle that long is full. */
  readonly #tenantRefillMs: number;
  #tenantWaiting = 0;
  #timer: { readonly at: number; readonly cancel: () => void } | undefined;

  constructor(limits: FairRateLimits, options: FairRateLimiterOptions = {}) {
    this.#names = options.names ?? defaultFairRateLimitNames;
    validateFairRateLimits(limits, this.#names);
    this.#limits = limits;
    this.#clock = options.clock ?? fairLimiterClock;
    this.#observer = options.observer ?? {};
    const now = this.#clock.now();
    this.#global = new TokenBucket(limits.global, now);
    this.#token = new TokenBucket(limits.token, now);
    this.#tenantRefillMs = new TokenBucket(limits.tenant, now).refillMs;
  }

  /** Resolves once a request charged to `tenant` may go; rejects with RateLimited after maxWaitMs. */
  acquire(tenant: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const now = this.#clock.now();
      const lane = this.#laneOf(tenant, now);
      lane.waiters.push({ enqueuedAt: now, deadline: now + this.#limits.maxWaitMs, resolve, reject });
      this.#tenantWaiting += 1;
      if (lane.waiters.size === 1) {
        lane.headOwnTokenAt = lane.bucket.readyAt(now);
        this.#idleSince.delete(tenant);
        // A tenant that starts waiting joins the back of the round.
        this.#turns.set(tenant, lane);
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
      tenantsWaiting: this.#turns.size,
      tenantRequestsWaiting: this.#tenantWaiting,
      tokenRequestsWaiting: this.#tokenWaiters.size,
      tenantsTracked: this.#lanes.size,
    };
  }

  #laneOf(tenant: string, now: number): TenantLane {
    let lane = this.#lanes.get(tenant);
    if (lane === undefined) {
      lane = { name: tenant, bucket: new TokenBucket(this.#limits.tenant, now), waiters: new Fifo(), headOwnTokenAt: now };
      this.#lanes.set(tenant, lane);
    }
    return lane;
  }

  /** Lets through everyone who may go now, rejects whoever waited too long, and sets the timer for the rest. */
  #pump(now: number): void {
    this.#serveTokenRequests(now);
    this.#serveTenantRequests(now);
    // After serving, so a token that arrives exactly at a deadline is still given.
    this.#expire(now);
    this.#forgetFullIdleTenants(now);
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

  #serveTenantRequests(now: number): void {
    while (this.#global.hasToken(now)) {
      const lane = this.#nextInTurn(now);
      const waiter = lane?.waiters.shift();
      if (lane === undefined || waiter === undefined) return;
      const ownTokenAt = lane.headOwnTokenAt;
      lane.bucket.take(now);
      this.#global.take(now);
      this.#tenantWaiting -= 1;
      // Served: to the back of the round, or out of it if this was its last waiter.
      this.#turns.delete(lane.name);
      this.#headLeft(lane, now);
      waiter.resolve();
      const tenantWaitMs = Math.max(0, Math.min(ownTokenAt, now) - waiter.enqueuedAt);
      this.#observer.onAcquired?.('tenant', tenantWaitMs);
      this.#observer.onAcquired?.('global', now - waiter.enqueuedAt - tenantWaitMs);
    }
  }

  /** The first tenant in turn order that has a token of its own; the ones before it keep their place. */
  #nextInTurn(now: number): TenantLane | undefined {
    for (const lane of this.#turns.values()) {
      if (lane.bucket.hasToken(now)) return lane;
    }
    return undefined;
  }

  /** Bookkeeping after a lane's head was served or timed out; a lane that still waits is (re-)added to the round's back. */
  #headLeft(lane: TenantLane, now: number): void {
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
    const { label } = this.#names;
    for (let waiter = this.#tokenWaiters.peek(); waiter !== undefined && waiter.deadline <= now; waiter = this.#tokenWaiters.peek()) {
      this.#tokenWaiters.shift();
      const retryAfterMs = tokensTimeMs(this.#tokenWaiters.size + 1, this.#limits.token.ratePerSecond);
      waiter.reject(this.#rateLimited(`${label} token request`, now - waiter.enqueuedAt, retryAfterMs,
        `the token limit (${perSecond(this.#limits.token.ratePerSecond)}) has ${String(this.#tokenWaiters.size)} more requests queued`));
      this.#observer.onTimedOut?.('token', now - waiter.enqueuedAt);
    }
    // Deleting the current entry while iterating a Map is safe; lanes that still wait keep their turn.
    for (const lane of this.#turns.values()) {
      for (let waiter = lane.waiters.peek(); waiter !== undefined && waiter.deadline <= now; waiter = lane.waiters.peek()) {
        lane.waiters.shift();
        this.#tenantWaiting -= 1;
        const heldByTenant = now < lane.headOwnTokenAt;
        this.#headLeft(lane, now);
        waiter.reject(heldByTenant ? this.#tenantTimeout(lane, now - waiter.enqueuedAt) : this.#globalTimeout(lane, now - waiter.enqueuedAt));
        this.#observer.onTimedOut?.(heldByTenant ? 'tenant' : 'global', now - waiter.enqueuedAt);
      }
    }
  }

  #tenantTimeout(lane: TenantLane, waitedMs: number): KeywardError {
    const rate = this.#limits.tenant.ratePerSecond;
    return this.#rateLimited(this.#subject(lane), waitedMs, tokensTimeMs(lane.waiters.size + 1, rate),
      `the ${this.#names.tenant}'s limit (${perSecond(rate)}) has ${String(lane.waiters.size)} more of its requests queued`);
  }

  #globalTimeout(lane: TenantLane, waitedMs: number): KeywardError {
    const rate = this.#limits.global.ratePerSecond;
    return this.#rateLimited(this.#subject(lane), waitedMs, tokensTimeMs(this.#tenantWaiting + 1, rate),
      `the global limit (${perSecond(rate)}) is shared by ${String(this.#turns.size)} ${this.#names.tenant}s with ${String(this.#tenantWaiting)} requests queued`);
  }

  /** "Keycloak admin request for namespace team-a" */
  #subject(lane: TenantLane): string {
    const { label, kind, tenant } = this.#names;
    return `${label} ${kind} request for ${tenant} ${lane.name}`;
  }

  #rateLimited(subject: string, waitedMs: number, retryAfterMs: number, cause: string): KeywardError {
    return new KeywardError({
      api: this.#names.api,
      code: 429,
      reason: 'RateLimited',
      message: `${subject} gave up after waiting ${String(Math.round(waitedMs))} ms: ${cause}`,
      retryable: true,
      retryAfterMs,
    });
  }

  /** Bounds memory by the tenants active within one refill time; their buckets are full again by then. */
  #forgetFullIdleTenants(now: number): void {
    for (const [name, since] of this.#idleSince) {
      if (now - since < this.#tenantRefillMs) return;
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
      // Someone is served once some tenant has its own token and the global bucket has one too.
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
