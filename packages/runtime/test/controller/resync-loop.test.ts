import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ResyncLoop, ResyncLoops, type ResyncMember } from '../../src/controller/resync-loop.js';

const PERIOD_MS = 60_000;

/** A member whose keys can change and which records when each key was checked. */
class RecordingMember implements ResyncMember {
  readonly checks: { readonly key: string; readonly at: number }[] = [];
  constructor(public current: string[]) {}
  keys(): readonly string[] {
    return this.current;
  }
  resync(key: string): void {
    this.checks.push({ key, at: Date.now() });
  }
  timesOf(key: string): number {
    return this.checks.filter((check) => check.key === key).length;
  }
}

const keys = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}/${String(i)}`);

/** A fixed sequence of "random" numbers, repeated. */
function sequence(values: readonly number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length] ?? 0;
}

let started: number;

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
  started = Date.now();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('ResyncLoop', () => {
  it('checks nothing during the first period (start-up reconciled everything), then each key once per period', () => {
    const member = new RecordingMember(keys('ns', 5));
    const loop = new ResyncLoop({ periodMs: PERIOD_MS });
    loop.join(member);
    jest.advanceTimersByTime(PERIOD_MS - 1);
    expect(member.checks).toEqual([]);
    jest.advanceTimersByTime(3 * PERIOD_MS);
    for (const key of member.current) expect(member.timesOf(key)).toBe(3);
    loop.stop();
  });

  it('spreads a round evenly: the i-th of n keys falls in the i-th n-th of the period, at a random moment within it', () => {
    const member = new RecordingMember(keys('ns', 8));
    // The extremes of the jitter and values between.
    const loop = new ResyncLoop({ periodMs: PERIOD_MS, random: sequence([0, 0.999, 0.5, 0.25, 0.75, 0.1, 0.9, 0.01]) });
    loop.join(member);
    jest.advanceTimersByTime(2 * PERIOD_MS - 1);
    const slotMs = PERIOD_MS / 8;
    const roundStart = started + PERIOD_MS;
    expect(member.checks.map((check) => check.key)).toEqual(member.current);
    member.checks.forEach((check, index) => {
      expect(check.at).toBeGreaterThanOrEqual(roundStart + index * slotMs);
      expect(check.at).toBeLessThan(roundStart + (index + 1) * slotMs);
    });
    // The jitter moved each key within its slot: 0 to the slot's start, 0.999 to its end, 0.5 to its middle
    // (a timer fires 1 ms late at the earliest).
    const offsets = member.checks.slice(0, 3).map((check, index) => (check.at - roundStart - index * slotMs) / slotMs);
    expect(offsets[0]).toBeLessThan(0.01);
    expect(offsets[1]).toBeGreaterThan(0.99);
    expect(offsets[2]).toBeCloseTo(0.5, 2);
    loop.stop();
  });

  it('never bunches keys up, unlike a resync that enqueues everything together: any slot-long window holds two checks at most', () => {
    const member = new RecordingMember(keys('ns', 100));
    const loop = new ResyncLoop({ periodMs: PERIOD_MS });
    loop.join(member);
    jest.advanceTimersByTime(2 * PERIOD_MS - 1);
    const slotMs = PERIOD_MS / 100;
    expect(member.checks).toHaveLength(100);
    for (let i = 0; i + 2 < member.checks.length; i++) {
      expect((member.checks[i + 2]?.at ?? 0) - (member.checks[i]?.at ?? 0)).toBeGreaterThan(slotMs);
    }
    loop.stop();
  });

  it('holds one timer for all its members and keys', () => {
    const realms = new RecordingMember(keys('realms', 50));
    const clients = new RecordingMember(keys('clients', 500));
    const loop = new ResyncLoop({ periodMs: PERIOD_MS });
    loop.join(realms);
    loop.join(clients);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(PERIOD_MS + PERIOD_MS / 2);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(PERIOD_MS / 2);
    expect(realms.checks).toHaveLength(50);
    expect(clients.checks).toHaveLength(500);
    loop.stop();
  });

  it('lists the keys when a round begins: a key added during a round is checked from the next one, a member that left is not asked', () => {
    const first = new RecordingMember(['ns/a', 'ns/b']);
    const second = new RecordingMember(['ns/c', 'ns/d']);
    const loop = new ResyncLoop({ periodMs: PERIOD_MS, random: () => 0.5 });
    loop.join(first);
    const leave = loop.join(second);
    // The round began at one period; its first slot (of four) is done, a fourth of the way in.
    jest.advanceTimersByTime(PERIOD_MS + PERIOD_MS / 4);
    first.current = ['ns/a', 'ns/b', 'ns/new'];
    leave();
    jest.advanceTimersByTime(PERIOD_MS * 3 / 4 - 1);
    expect(first.checks.map((check) => check.key)).toEqual(['ns/a', 'ns/b']);
    expect(second.checks).toEqual([]);
    jest.advanceTimersByTime(PERIOD_MS);
    expect(first.timesOf('ns/new')).toBe(1);
    expect(second.checks).toEqual([]);
    loop.stop();
  });

  it('stops: no timer is left and nothing is checked any more', () => {
    const member = new RecordingMember(keys('ns', 3));
    const loop = new ResyncLoop({ periodMs: PERIOD_MS });
    loop.join(member);
    loop.stop();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(5 * PERIOD_MS);
    expect(member.checks).toEqual([]);
  });

  it('holds no timer once its last member left, and starts again with the next', () => {
    const member = new RecordingMember(['ns/a']);
    const loop = new ResyncLoop({ periodMs: PERIOD_MS });
    const leave = loop.join(member);
    leave();
    expect(jest.getTimerCount()).toBe(0);
    loop.join(member);
    jest.advanceTimersByTime(2 * PERIOD_MS);
    expect(member.timesOf('ns/a')).toBe(1);
    loop.stop();
  });

  it('refuses a period of 0: a resync that is off has no loop', () => {
    expect(() => new ResyncLoop({ periodMs: 0 })).toThrow('a resync loop needs a period above 0 ms, not 0');
  });
});

describe('ResyncLoops', () => {
  it('gives controllers of the same period the same loop', () => {
    const loops = new ResyncLoops();
    expect(loops.loop(PERIOD_MS)).toBe(loops.loop(PERIOD_MS));
    expect(loops.loop(PERIOD_MS)).not.toBe(loops.loop(2 * PERIOD_MS));
    const member = new RecordingMember(['ns/a']);
    loops.loop(PERIOD_MS).join(member);
    loops.stop();
    expect(jest.getTimerCount()).toBe(0);
  });
});
