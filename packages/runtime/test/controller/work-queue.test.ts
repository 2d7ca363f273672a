import { describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { KeyedBackoff } from '../../src/controller/backoff.js';
import { WorkQueue, type Clock } from '../../src/controller/work-queue.js';

/** Lets every pending promise callback run (the queue starts work on microtasks). */
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface Gate {
  readonly promise: Promise<void>;
  readonly open: () => void;
}

function gate(): Gate {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

interface Timer {
  readonly at: number;
  readonly fn: () => void;
}

/** A manual clock. `early` makes timers wake that many ms before they are due, as real timers may. */
class FakeClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();
  /** Most timers pending at once since creation. */
  maxPending = 0;

  constructor(private readonly early = 0) {}

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + (ms > this.early ? ms - this.early : ms), fn });
    this.maxPending = Math.max(this.maxPending, this.timers.size);
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  pending(): number {
    return this.timers.size;
  }

  private nextDue(end: number): [number, Timer] | undefined {
    let best: [number, Timer] | undefined;
    for (const entry of this.timers) if (entry[1].at <= end && (best === undefined || entry[1].at < best[1].at)) best = entry;
    return best;
  }

  /** Moves time forward, firing due timers in order and letting the work they start run. */
  async advance(ms: number): Promise<void> {
    // Work already started runs before time moves, as on a real event loop.
    await flush();
    const end = this.time + ms;
    for (let due = this.nextDue(end); due !== undefined; due = this.nextDue(end)) {
      const [id, timer] = due;
      this.timers.delete(id);
      this.time = Math.max(this.time, timer.at);
      timer.fn();
      await flush();
    }
    this.time = end;
    await flush();
  }
}

/** A started queue on a fake clock whose process records each call and can be held open per call. */
function setup(options: { concurrency?: number; early?: number; backoff?: KeyedBackoff; hold?: boolean } = {}) {
  const clock = new FakeClock(options.early);
  const retries: number[] = [];
  const queue = new WorkQueue({
    clock,
    ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
    observer: { onRetry: (_key, delayMs) => retries.push(delayMs) },
  });
  const calls: { readonly key: string; readonly at: number }[] = [];
  const gates: Gate[] = [];
  let current = 0;
  let maxCurrent = 0;
  let onCall: (key: string) => void = () => undefined;
  queue.start(
    async (key) => {
      calls.push({ key, at: clock.now() });
      current++;
      maxCurrent = Math.max(maxCurrent, current);
      onCall(key);
      if (options.hold === true) {
        const held = gate();
        gates.push(held);
        await held.promise;
      }
      current--;
    },
    options.concurrency === undefined ? {} : { concurrency: options.concurrency },
  );
  return {
    clock,
    queue,
    calls,
    retries,
    keys: () => calls.map((call) => call.key),
    maxCurrent: () => maxCurrent,
    /** Releases the oldest held call. */
    release: async () => {
      gates.shift()?.open();
      await flush();
    },
    onCall: (fn: (key: string) => void) => {
      onCall = fn;
    },
  };
}

describe('WorkQueue', () => {
  describe('adding', () => {
    it('keeps a waiting key in the queue once and processes keys in order', async () => {
      const added: string[] = [];
      const queue = new WorkQueue({ clock: new FakeClock(), observer: { onAdd: (key) => added.push(key) } });
      for (const key of ['a', 'b', 'a', 'a', 'c', 'b']) queue.add(key);
      expect(queue.depth()).toBe(3);
      expect(added).toEqual(['a', 'b', 'c']);

      const processed: string[] = [];
      queue.start(async (key) => {
        processed.push(key);
        await Promise.resolve();
      });
      await flush();
      expect(processed).toEqual(['a', 'b', 'c']);
      expect(queue.depth()).toBe(0);
    });

    it("serves lanes in turn: one lane's backlog does not hold back another lane's keys", async () => {
      const queue = new WorkQueue({ clock: new FakeClock(), lane: (key: string) => key.split('/')[0] ?? '' });
      for (let i = 0; i < 4; i++) queue.add(`big/${String(i)}`);
      queue.add('small/a');
      queue.add('other/x');
      queue.add('small/b');
      expect(queue.depth()).toBe(7);
      const processed: string[] = [];
      queue.start(async (key) => {
        processed.push(key);
        await Promise.resolve();
      }, { concurrency: 1 });
      for (let i = 0; i < 7; i++) await flush();
      expect(processed).toEqual(['big/0', 'small/a', 'other/x', 'big/1', 'small/b', 'big/2', 'big/3']);
    });

    it("caps a lane's keys in flight: the lane sits out its turns until one of them is done", async () => {
      const queue = new WorkQueue({ clock: new FakeClock(), lane: (key: string) => key.split('/')[0] ?? '', maxInFlightPerLane: 2 });
      for (let i = 0; i < 4; i++) queue.add(`big/${String(i)}`);
      queue.add('small/a');
      const gates = new Map<string, Gate>();
      const started: string[] = [];
      queue.start(async (key) => {
        started.push(key);
        const held = gate();
        gates.set(key, held);
        await held.promise;
      }, { concurrency: 4 });
      await flush();
      // Four workers, but the big lane has two keys in flight: the fourth worker stays idle.
      expect(started).toEqual(['big/0', 'small/a', 'big/1']);
      expect(queue.inFlight()).toBe(3);
      expect(queue.depth()).toBe(2);
      gates.get('small/a')?.open();
      await flush();
      expect(started).toEqual(['big/0', 'small/a', 'big/1']);
      gates.get('big/0')?.open();
      await flush();
      expect(started).toEqual(['big/0', 'small/a', 'big/1', 'big/2']);
      gates.get('big/1')?.open();
      await flush();
      expect(started).toEqual(['big/0', 'small/a', 'big/1', 'big/2', 'big/3']);
      expect(queue.depth()).toBe(0);
    });

    it('refuses a lane cap below 1', () => {
      expect(() => new WorkQueue({ maxInFlightPerLane: 0 })).toThrow('maxInFlightPerLane must be at least 1, got 0');
    });

    it('reports how long a key waited for a worker', async () => {
      const clock = new FakeClock();
      const waits: [string, number][] = [];
      const queue = new WorkQueue({ clock, observer: { onQueueWait: (key, ms) => waits.push([key, ms]) } });
      queue.add('a');
      await clock.advance(30);
      queue.add('b');
      await clock.advance(12);
      queue.start(() => Promise.resolve());
      await flush();
      expect(waits).toEqual([
        ['a', 42],
        ['b', 12],
      ]);
    });
  });

  describe('one reconcile per key', () => {
    it('does not hand a key being processed to another worker, and processes it again after done', async () => {
      const t = setup({ concurrency: 4, hold: true });
      t.queue.add('a');
      await flush();
      expect(t.queue.inFlight()).toBe(1);

      t.queue.add('a');
      t.queue.add('a');
      await flush();
      // Marked dirty, not queued: no second worker took it.
      expect(t.keys()).toEqual(['a']);
      expect(t.queue.inFlight()).toBe(1);
      expect(t.queue.depth()).toBe(0);

      await t.release();
      expect(t.keys()).toEqual(['a', 'a']);
      await t.release();
      expect(t.keys()).toEqual(['a', 'a']);
      expect(t.maxCurrent()).toBe(1);
      expect(t.queue.inFlight()).toBe(0);
    });

    it('processes other keys while one is busy', async () => {
      const t = setup({ concurrency: 2, hold: true });
      t.queue.add('a');
      await flush();
      t.queue.add('a');
      t.queue.add('b');
      await flush();
      expect(t.keys()).toEqual(['a', 'b']);
      expect(t.queue.inFlight()).toBe(2);
    });
  });

  describe('concurrency', () => {
    it('never runs more than `concurrency` keys at once', async () => {
      const t = setup({ concurrency: 3, hold: true });
      for (let i = 0; i < 10; i++) t.queue.add(`k${String(i)}`);
      await flush();
      expect(t.queue.inFlight()).toBe(3);
      expect(t.queue.depth()).toBe(7);
      for (let i = 0; i < 10; i++) await t.release();
      expect(t.keys()).toHaveLength(10);
      expect(new Set(t.keys()).size).toBe(10);
      expect(t.maxCurrent()).toBe(3);
    });

    it('runs two keys at once by default', async () => {
      const t = setup({ hold: true });
      for (const key of ['a', 'b', 'c']) t.queue.add(key);
      await flush();
      expect(t.queue.inFlight()).toBe(2);
      expect(t.queue.depth()).toBe(1);
    });

    it.each([0, -1, 1.5, Number.NaN])('rejects a concurrency of %p', (concurrency) => {
      const queue = new WorkQueue({ clock: new FakeClock() });
      expect(() => {
        queue.start(() => Promise.resolve(), { concurrency });
      }).toThrow(RangeError);
    });

    it('cannot be started twice', () => {
      const queue = new WorkQueue({ clock: new FakeClock() });
      queue.start(() => Promise.resolve());
      expect(() => {
        queue.start(() => Promise.resolve());
      }).toThrow('already started');
    });
  });

  describe('delays', () => {
    it('processes a delayed key when it is due, not before', async () => {
      const t = setup();
      t.queue.addAfter('a', 5000);
      expect(t.queue.scheduled()).toBe(1);
      expect(t.queue.depth()).toBe(0);
      await t.clock.advance(4999);
      expect(t.calls).toEqual([]);
      await t.clock.advance(1);
      expect(t.calls).toEqual([{ key: 'a', at: 5000 }]);
      expect(t.queue.scheduled()).toBe(0);
    });

    it('waits for the due time when the timer wakes early', async () => {
      const t = setup({ early: 3 });
      t.queue.addAfter('a', 5000);
      await t.clock.advance(4999);
      expect(t.calls).toEqual([]);
      await t.clock.advance(1);
      expect(t.calls).toEqual([{ key: 'a', at: 5000 }]);
    });

    it.each([
      [1000, 300],
      [300, 1000],
    ])('keeps the earlier of two delays (%p then %p ms) and processes the key once', async (first, second) => {
      const t = setup();
      t.queue.addAfter('a', first);
      t.queue.addAfter('a', second);
      expect(t.queue.scheduled()).toBe(1);
      await t.clock.advance(299);
      expect(t.calls).toEqual([]);
      await t.clock.advance(2000);
      expect(t.calls).toEqual([{ key: 'a', at: 300 }]);
      expect(t.clock.pending()).toBe(0);
    });

    it('keeps one due time for a key whose delay is shortened many times', async () => {
      const t = setup();
      // Each shorter delay leaves a superseded entry behind, enough to make the queue rebuild its heap.
      for (let i = 0; i < 500; i++) t.queue.addAfter('a', 10_000 - i);
      t.queue.addAfter('b', 9000);
      expect(t.queue.scheduled()).toBe(2);
      await t.clock.advance(20_000);
      expect(t.calls).toEqual([
        { key: 'b', at: 9000 },
        { key: 'a', at: 9501 },
      ]);
    });

    it('leaves a key that is already queued alone', async () => {
      const clock = new FakeClock();
      const queue = new WorkQueue({ clock });
      queue.add('a');
      queue.addAfter('a', 1000);
      expect(queue.scheduled()).toBe(0);
      expect(queue.depth()).toBe(1);
      expect(clock.pending()).toBe(0);

      const at: number[] = [];
      queue.start(() => {
        at.push(clock.now());
        return Promise.resolve();
      });
      await clock.advance(2000);
      expect(at).toEqual([0]);
    });

    it('lets add supersede a pending delay', async () => {
      const t = setup();
      t.queue.addAfter('a', 1000);
      t.queue.add('a');
      expect(t.queue.scheduled()).toBe(0);
      await t.clock.advance(2000);
      expect(t.calls).toEqual([{ key: 'a', at: 0 }]);
      expect(t.clock.pending()).toBe(0);
    });

    it.each([0, -5])('adds now for a delay of %p ms', async (delay) => {
      const t = setup();
      t.queue.addAfter('a', delay);
      expect(t.queue.scheduled()).toBe(0);
      await flush();
      expect(t.calls).toEqual([{ key: 'a', at: 0 }]);
    });

    it('processes a key that comes due while it is busy again once it is done', async () => {
      const t = setup({ hold: true });
      t.queue.add('a');
      await flush();
      t.queue.addAfter('a', 100);
      await t.clock.advance(150);
      expect(t.keys()).toEqual(['a']);
      await t.release();
      expect(t.calls).toEqual([
        { key: 'a', at: 0 },
        { key: 'a', at: 150 },
      ]);
    });

    it('keeps one timer for 10,000 delayed keys and processes each when due', async () => {
      const t = setup({ concurrency: 8 });
      const count = 10_000;
      // 7919 is prime, so this visits every delay from 1 to 10,000 once, in scrambled order.
      const delayOf = (i: number): number => ((i * 7919) % count) + 1;
      for (let i = 0; i < count; i++) t.queue.addAfter(`k${String(i)}`, delayOf(i));
      expect(t.queue.scheduled()).toBe(count);
      expect(t.clock.pending()).toBe(1);

      await t.clock.advance(count);
      expect(t.clock.maxPending).toBe(1);
      expect(t.clock.pending()).toBe(0);
      expect(t.queue.scheduled()).toBe(0);
      expect(t.calls).toHaveLength(count);
      expect(t.calls.map((call) => call.at)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(t.calls.filter((call) => call.at !== delayOf(Number(call.key.slice(1))))).toEqual([]);
    });

    it('honours a delay with the real clock\'s timers: not before it, and when it is due on an idle queue', async () => {
      // The default clock reads performance.now() and arms setTimeout: faked here, so the machine's load cannot matter.
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      try {
        const queue = new WorkQueue();
        const start = performance.now();
        const processedAt: number[] = [];
        queue.start(() => {
          processedAt.push(performance.now() - start);
          return Promise.resolve();
        });
        queue.addAfter('a', 100);
        await jest.advanceTimersByTimeAsync(99);
        expect(processedAt).toEqual([]);
        await jest.advanceTimersByTimeAsync(1);
        await flush();
        expect(processedAt).toEqual([100]);
        await queue.shutdown();
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe('rate limiting', () => {
    it('backs off 5, 10, 20, 40 ms while a key fails, and from 5 ms again after forget', async () => {
      const t = setup();
      let failing = true;
      t.onCall((key) => {
        if (failing) t.queue.addRateLimited(key);
        else t.queue.forget(key);
      });
      t.queue.add('a');
      await t.clock.advance(74);
      failing = false;
      await t.clock.advance(100);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15, 35, 75]);

      failing = true;
      t.queue.add('a');
      await t.clock.advance(5);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15, 35, 75, 174, 179]);
      expect(t.retries).toEqual([5, 10, 20, 40, 5, 10]);
    });

    it('caps the delay at the backoff maximum', async () => {
      const t = setup({ backoff: new KeyedBackoff({ baseMs: 5, maxMs: 20 }) });
      t.onCall((key) => {
        t.queue.addRateLimited(key);
      });
      t.queue.add('a');
      await t.clock.advance(100);
      expect(t.retries.slice(0, 6)).toEqual([5, 10, 20, 20, 20, 20]);
      expect(t.calls.map((call) => call.at).slice(0, 6)).toEqual([0, 5, 15, 35, 55, 75]);
    });

    it('keeps backing off when a failing run wakes its own key (a status write it made), and wakes it after a success', async () => {
      const t = setup();
      let failing = true;
      let writes = true;
      t.onCall((key) => {
        // As a watch event of the run's own write arrives while it runs, before the outcome is recorded.
        if (writes) t.queue.addUnlessBackingOff(key);
        if (failing) t.queue.addRateLimited(key);
        else {
          t.queue.forget(key);
          // Converged: the next run has nothing to write.
          writes = false;
        }
      });
      t.queue.add('a');
      await t.clock.advance(34);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15]);

      // Woken while waiting out a failure: stays on its schedule.
      t.queue.addUnlessBackingOff('a');
      await t.clock.advance(1);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15, 35]);

      // A success that wrote is followed by the run its write asks for; that one writes nothing.
      failing = false;
      await t.clock.advance(75);
      expect(t.calls.map((call) => call.at).slice(4)).toEqual([75, 75]);
    });

    it('forgets a held key whose run failed in a way the held change cannot fix (dropHeld), even when it forgets its backoff', async () => {
      const t = setup();
      let reported = false;
      t.onCall((key) => {
        // The run's own failure report comes back as an update while it runs (once: the report is written once)...
        if (!reported) t.queue.addUnlessBackingOff(key);
        reported = true;
        // ...and the run ends waiting for a change: no backoff, and nothing the report did may wake it.
        t.queue.dropHeld(key);
        t.queue.forget(key);
      });
      t.queue.add('a');
      await t.clock.advance(1_000);
      expect(t.calls.map((call) => call.at)).toEqual([0]);
      expect([t.queue.depth(), t.queue.scheduled()]).toEqual([0, 0]);
    });

    it('lets any other change cut a backoff short', async () => {
      const t = setup();
      t.onCall((key) => {
        t.queue.addRateLimited(key);
      });
      t.queue.add('a');
      await t.clock.advance(16);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15]);
      t.queue.add('a');
      await t.clock.advance(0);
      expect(t.calls.map((call) => call.at)).toEqual([0, 5, 15, 16]);
    });

    it('backs off each key on its own', () => {
      const t = setup();
      t.queue.addRateLimited('a');
      t.queue.addRateLimited('a');
      t.queue.addRateLimited('b');
      expect(t.retries).toEqual([5, 10, 5]);
    });
  });

  describe('shutdown', () => {
    it('waits for in-flight work, drops waiting keys and ignores later adds', async () => {
      const t = setup({ concurrency: 1, hold: true });
      t.queue.add('a');
      t.queue.add('b');
      t.queue.addAfter('c', 100);
      await flush();
      expect([t.queue.inFlight(), t.queue.depth(), t.queue.scheduled(), t.clock.pending()]).toEqual([1, 1, 1, 1]);

      let finished = false;
      const stopping = t.queue.shutdown().then(() => {
        finished = true;
      });
      t.queue.add('a');
      await flush();
      expect(finished).toBe(false);
      expect([t.queue.inFlight(), t.queue.depth(), t.queue.scheduled(), t.clock.pending()]).toEqual([1, 0, 0, 0]);

      await t.release();
      await stopping;
      expect(finished).toBe(true);
      expect(t.queue.inFlight()).toBe(0);

      t.queue.add('d');
      t.queue.addAfter('e', 10);
      t.queue.addRateLimited('f');
      expect([t.queue.depth(), t.queue.scheduled(), t.clock.pending()]).toEqual([0, 0, 0]);
      await t.clock.advance(1000);
      expect(t.keys()).toEqual(['a']);
      expect(() => {
        t.queue.start(() => Promise.resolve());
      }).toThrow('shut down');
    });

    it('resolves at once without drain', async () => {
      const t = setup({ hold: true });
      t.queue.add('a');
      await flush();
      await t.queue.shutdown({ drain: false });
      expect(t.queue.inFlight()).toBe(1);
      await t.release();
      expect(t.queue.inFlight()).toBe(0);
      expect(t.keys()).toEqual(['a']);
    });

    it('resolves on an idle or never-started queue', async () => {
      await expect(new WorkQueue({ clock: new FakeClock() }).shutdown()).resolves.toBeUndefined();
      const t = setup();
      await expect(t.queue.shutdown()).resolves.toBeUndefined();
    });
  });

  describe('a throwing process', () => {
    it('is reported and does not stop the loop', async () => {
      const clock = new FakeClock();
      const errors: [string, unknown][] = [];
      const queue = new WorkQueue({ clock, onError: (key, error) => errors.push([key, error]) });
      const processed: string[] = [];
      const boom = new Error('boom');
      const bust = new Error('bust');
      queue.start(
        (key) => {
          processed.push(key);
          if (key === 'throws') throw boom;
          if (key === 'rejects') return Promise.reject(bust);
          return Promise.resolve();
        },
        { concurrency: 1 },
      );
      for (const key of ['throws', 'rejects', 'fine']) queue.add(key);
      await flush();
      expect(processed).toEqual(['throws', 'rejects', 'fine']);
      expect(errors).toEqual([
        ['throws', boom],
        ['rejects', bust],
      ]);
      expect(queue.inFlight()).toBe(0);

      queue.add('throws');
      queue.add('fine');
      await flush();
      expect(processed).toEqual(['throws', 'rejects', 'fine', 'throws', 'fine']);
      expect(errors).toHaveLength(3);
    });

    it('is logged when no onError is given', async () => {
      const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const queue = new WorkQueue({ clock: new FakeClock() });
        const boom = new Error('boom');
        queue.start(() => Promise.reject(boom));
        queue.add('a');
        await flush();
        expect(log).toHaveBeenCalledWith(expect.stringContaining('a'), boom);
      } finally {
        log.mockRestore();
      }
    });
  });

  describe('property', () => {
    type Op =
      | { readonly kind: 'add'; readonly key: string }
      | { readonly kind: 'addAfter'; readonly key: string; readonly delay: number }
      | { readonly kind: 'done'; readonly pick: number }
      | { readonly kind: 'tick'; readonly ms: number };

    const key = fc.constantFrom('a', 'b', 'c', 'd');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), key }),
      fc.record({ kind: fc.constant('addAfter' as const), key, delay: fc.integer({ min: -5, max: 50 }) }),
      fc.record({ kind: fc.constant('done' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30 }) }),
    );

    it('never processes a key concurrently with itself, early or unasked, and eventually serves every add', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), async (ops, concurrency) => {
          const clock = new FakeClock();
          const queue = new WorkQueue({ clock });
          const violations: string[] = [];
          const active = new Set<string>();
          const held: { readonly key: string; readonly finish: () => void }[] = [];
          // Per key, the earliest time it may next start, from the requests made since it last started.
          const allowedAt = new Map<string, number>();
          const request = (k: string, at: number): void => {
            allowedAt.set(k, Math.min(at, allowedAt.get(k) ?? Infinity));
          };

          queue.start(
            (k) => {
              const allowed = allowedAt.get(k);
              if (active.has(k)) violations.push(`${k} started while running`);
              if (allowed === undefined) violations.push(`${k} started unasked`);
              else if (clock.now() < allowed) violations.push(`${k} started at ${String(clock.now())}, due ${String(allowed)}`);
              if (active.size >= concurrency) violations.push(`more than ${String(concurrency)} in flight`);
              allowedAt.delete(k);
              active.add(k);
              return new Promise((resolve) => {
                held.push({
                  key: k,
                  finish: () => {
                    active.delete(k);
                    resolve();
                  },
                });
              });
            },
            { concurrency },
          );

          for (const o of ops) {
            if (o.kind === 'add') {
              request(o.key, clock.now());
              queue.add(o.key);
            } else if (o.kind === 'addAfter') {
              request(o.key, clock.now() + Math.max(0, o.delay));
              queue.addAfter(o.key, o.delay);
            } else if (o.kind === 'done') {
              held.splice(o.pick % Math.max(1, held.length), 1)[0]?.finish();
            } else {
              await clock.advance(o.ms);
            }
            await flush();
          }

          // Finish everything and let time pass until the queue is idle.
          for (let round = 0; round < 100 && queue.inFlight() + queue.depth() + queue.scheduled() > 0; round++) {
            for (const h of held.splice(0)) h.finish();
            await flush();
            await clock.advance(50);
          }
          expect(violations).toEqual([]);
          expect([...allowedAt.keys()]).toEqual([]);
          expect([queue.inFlight(), queue.depth(), queue.scheduled(), clock.pending()]).toEqual([0, 0, 0, 0]);
        }),
        { numRuns: 200 },
      );
    });
  });
});
