import { KeyedBackoff } from './backoff.js';
import { Lanes } from './lanes.js';

/** Time and timers, injectable so tests can drive time. `now` must be monotonic milliseconds. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  // Monotonic, unlike Date.now(), so a wall-clock step neither fires nor stalls delayed keys.
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** Hooks for metrics; each is optional. */
export interface WorkQueueObserver<K extends string> {
  /** A key entered the queue; adding a key that is already waiting is not counted. */
  readonly onAdd?: (key: K) => void;
  /** A delayed add was requested (addAfter, addRateLimited), counted as client-go counts retries. */
  readonly onRetry?: (key: K, delayMs: number) => void;
  /** A key went to a worker `ms` after it entered the queue. */
  readonly onQueueWait?: (key: K, ms: number) => void;
}

export interface WorkQueueOptions<K extends string> {
  readonly clock?: Clock;
  /** Delays of addRateLimited; `new KeyedBackoff()` (5 ms doubling up to 5 min) by default. */
  readonly backoff?: KeyedBackoff<K>;
  readonly observer?: WorkQueueObserver<K>;
  /** Reports a `process` that threw, which is a bug: the runtime handles reconcile errors itself. Must not throw. */
  readonly onError?: (key: K, error: unknown) => void;
  /**
   * The lane of a key: ready keys of different lanes take turns for the workers, so a burst of keys in one
   * lane does not wait the others out. Default: one lane, first in first out.
   */
  readonly lane?: (key: K) => string;
  /**
   * Keys of one lane processed at once, at most: for work whose lane has a budget of its own (a namespace's
   * rate limit at a server), so one lane's keys do not take every worker only to wait for that budget.
   * Default: no cap beyond `concurrency`.
   */
  readonly maxInFlightPerLane?: number;
}

export interface StartOptions {
  /** Keys processed in parallel; at least 1. */
  readonly concurrency?: number;
}

export interface ShutdownOptions {
  /** Wait for in-flight `process` calls to finish (default), rather than only stop starting new ones. */
  readonly drain?: boolean;
}

/** Node turns a longer setTimeout delay into 1 ms; longer waits re-arm on wake. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Superseded heap entries tolerated beyond twice the live ones before the heap is rebuilt. */
const STALE_SLACK = 64;

/**
 * A keyed work queue with the semantics of client-go's rate-limited delaying work queue: a key waits in the
 * queue at most once, is processed by one worker at a time (a key added while processing is processed again
 * after), and can be delayed (`addAfter`, `addRateLimited`). Each key has at most one due time: the earliest
 * requested, and `add` (due now) supersedes a pending delay. All delayed keys share one timer.
 */
export class WorkQueue<K extends string = string> {
  private readonly clock: Clock;
  private readonly backoff: KeyedBackoff<K>;
  private readonly observer: WorkQueueObserver<K>;
  private readonly onError: (key: K, error: unknown) => void;

  /** Keys to process (client-go's dirty set), with when each entered. */
  private readonly queued = new Map<K, number>();
  /** The queued keys that are not being processed, in order within their lane. */
  private readonly ready: Lanes<K>;
  /** Keys being processed, with the promise of their run. */
  private readonly running = new Map<K, Promise<void>>();
  /** Delayed keys and their live due entry; heap entries not found here are superseded. */
  private readonly waiting = new Map<K, Due<K>>();
  private readonly heap = new DueHeap<K>();
  /** Keys given to addUnlessBackingOff while being processed: queued when the run ends, unless it failed. */
  private readonly heldUntilDone = new Set<K>();
  private seq = 0;
  private timer: { readonly handle: unknown; readonly at: number } | undefined;

  private process: ((key: K) => Promise<void>) | undefined;
  private concurrency = 0;
  private stopped = false;

  constructor({ clock = realClock, backoff = new KeyedBackoff(), observer = {}, onError = logError, lane = () => '', maxInFlightPerLane }: WorkQueueOptions<K> = {}) {
    if (maxInFlightPerLane !== undefined && !(maxInFlightPerLane >= 1)) throw new RangeError(`maxInFlightPerLane must be at least 1, got ${String(maxInFlightPerLane)}`);
    this.ready = new Lanes(lane, maxInFlightPerLane);
    this.clock = clock;
    this.backoff = backoff;
    this.observer = observer;
    this.onError = onError;
  }

  /** Queues `key` now. */
  add(key: K): void {
    if (this.stopped) return;
    // Due now is earlier than any pending delay, which is therefore superseded (and may have set the timer).
    if (this.waiting.delete(key)) this.arm();
    this.enqueue(key);
  }

  /**
   * Queues `key` now unless it is waiting out the backoff of a failure: for changes that cannot have fixed
   * what failed (a controller's own status writes), so they never cut a backoff short. A key being processed
   * is queued when its run ends, unless that run failed.
   */
  addUnlessBackingOff(key: K): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.heldUntilDone.add(key);
      return;
    }
    if (this.backoff.failures(key) > 0 && this.waiting.has(key)) return;
    this.add(key);
  }

  /** Queues `key` once `delayMs` has passed, unless it is already due sooner. */
  addAfter(key: K, delayMs: number): void {
    if (this.stopped) return;
    this.observer.onRetry?.(key, delayMs);
    if (!(delayMs > 0)) {
      this.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    const at = this.clock.now() + delayMs;
    const current = this.waiting.get(key);
    if (current !== undefined && current.at <= at) return;
    const due = { key, at, seq: this.seq++ };
    this.waiting.set(key, due);
    this.heap.push(due);
    // Superseded entries stay in the heap until they surface; rebuild when they dominate it.
    if (this.heap.size > 2 * this.waiting.size + STALE_SLACK) this.heap.reset([...this.waiting.values()]);
    this.arm();
  }

  /** Queues `key` after its next backoff delay (call after a failed reconcile). */
  addRateLimited(key: K): void {
    if (this.stopped) return;
    this.addAfter(key, this.backoff.next(key));
  }

  /**
   * Drops a pending addUnlessBackingOff for a key being processed: its run failed in a way a change that
   * leaves the spec alone cannot fix (it waits for a change, or for a Retry-After), so that change must not
   * queue it again when the run ends.
   */
  dropHeld(key: K): void {
    this.heldUntilDone.delete(key);
  }

  /** Resets the backoff of `key` (call after a successful reconcile). */
  forget(key: K): void {
    this.backoff.reset(key);
  }

  /** Starts calling `process` for queued keys, up to `concurrency` at a time. */
  start(process: (key: K) => Promise<void>, { concurrency = 2 }: StartOptions = {}): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(`concurrency must be an integer >= 1, got ${String(concurrency)}`);
    }
    if (this.stopped) throw new Error('work queue is shut down');
    if (this.process !== undefined) throw new Error('work queue already started');
    this.process = process;
    this.concurrency = concurrency;
    this.pump();
  }

  /** Stops taking work and drops queued and delayed keys; by default resolves once in-flight work finished. */
  async shutdown({ drain = true }: ShutdownOptions = {}): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
    this.waiting.clear();
    this.heldUntilDone.clear();
    this.heap.reset([]);
    this.queued.clear();
    this.ready.clear();
    if (drain) await Promise.all(this.running.values());
  }

  /** Keys ready and waiting for a worker. */
  depth(): number {
    return this.ready.size;
  }

  /** Keys waiting on the timer. */
  scheduled(): number {
    return this.waiting.size;
  }

  /** Keys being processed. */
  inFlight(): number {
    return this.running.size;
  }

  private enqueue(key: K): void {
    if (this.queued.has(key)) return;
    this.queued.set(key, this.clock.now());
    this.observer.onAdd?.(key);
    // A key being processed goes back to `ready` when it is done.
    if (this.running.has(key)) return;
    this.ready.push(key);
    this.pump();
  }

  /** Hands ready keys to idle workers. */
  private pump(): void {
    const process = this.process;
    if (process === undefined || this.stopped) return;
    while (this.running.size < this.concurrency) {
      const key = this.ready.take();
      if (key === undefined) return;
      const now = this.clock.now();
      this.observer.onQueueWait?.(key, now - (this.queued.get(key) ?? now));
      this.queued.delete(key);
      this.running.set(key, this.run(key, process));
    }
  }

  private async run(key: K, process: (key: K) => Promise<void>): Promise<void> {
    // Start on a later microtask, so an add() (from a watch handler, or from process itself) never re-enters
    // process synchronously, and running.set() happens before done() can.
    await Promise.resolve();
    try {
      await process(key);
    } catch (error) {
      this.onError(key, error);
    }
    this.done(key);
  }

  private done(key: K): void {
    this.running.delete(key);
    this.ready.release(key);
    // The process has recorded its outcome by now (forget or addRateLimited), so failures() tells how it went.
    const held = this.heldUntilDone.delete(key) && this.backoff.failures(key) === 0;
    if (this.queued.has(key)) this.ready.push(key);
    else if (held) this.enqueue(key);
    this.pump();
  }

  /** Points the one timer at the earliest live due time. */
  private arm(): void {
    let next = this.heap.peek();
    while (next !== undefined && this.waiting.get(next.key) !== next) {
      this.heap.pop();
      next = this.heap.peek();
    }
    if (next?.at === this.timer?.at) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
    if (next === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(next.at - this.clock.now())));
    this.timer = {
      at: next.at,
      handle: this.clock.setTimeout(() => {
        this.fire();
      }, delay),
    };
  }

  private fire(): void {
    this.timer = undefined;
    // Timers may wake a little early (or cut short at MAX_TIMER_MS): only keys actually due are queued, and
    // arm() waits for the rest, so no key is ever processed before its time.
    const now = this.clock.now();
    for (let due = this.heap.peek(); due !== undefined && due.at <= now; due = this.heap.peek()) {
      this.heap.pop();
      if (this.waiting.get(due.key) !== due) continue;
      this.waiting.delete(due.key);
      this.enqueue(due.key);
    }
    this.arm();
  }
}

function logError(key: string, error: unknown): void {
  console.error(`work queue: process threw for key ${key}`, error);
}

interface Due<K> {
  readonly key: K;
  readonly at: number;
  /** Breaks ties in request order. */
  readonly seq: number;
}

function compareDue<K>(a: Due<K>, b: Due<K>): number {
  return a.at - b.at || a.seq - b.seq;
}

/** A binary min-heap of due entries. */
class DueHeap<K> {
  private items: Due<K>[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Due<K> | undefined {
    return this.items[0];
  }

  /** Replaces the contents; a sorted array is a valid heap. */
  reset(items: Due<K>[]): void {
    this.items = items.sort(compareDue);
  }

  push(item: Due<K>): void {
    let i = this.items.length;
    this.items.push(item);
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = this.items[parentIndex];
      if (parent === undefined || compareDue(parent, item) <= 0) break;
      this.items[i] = parent;
      i = parentIndex;
    }
    this.items[i] = item;
  }

  pop(): Due<K> | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (last === undefined || this.items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      let child = this.items[left];
      let childIndex = left;
      const right = this.items[left + 1];
      if (child === undefined) break;
      if (right !== undefined && compareDue(right, child) < 0) {
        child = right;
        childIndex = left + 1;
      }
      if (compareDue(last, child) <= 0) break;
      this.items[i] = child;
      i = childIndex;
    }
    this.items[i] = last;
    return top;
  }
}
