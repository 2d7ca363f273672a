import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { KeyedBackoff } from '../../src/controller/backoff.js';

function delays(backoff: KeyedBackoff, key: string, count: number): number[] {
  return Array.from({ length: count }, () => backoff.next(key));
}

describe('KeyedBackoff', () => {
  it('doubles from 5 ms by default', () => {
    expect(delays(new KeyedBackoff(), 'a', 5)).toEqual([5, 10, 20, 40, 80]);
  });

  it('caps delays at maxMs', () => {
    expect(delays(new KeyedBackoff({ baseMs: 5, maxMs: 30 }), 'a', 6)).toEqual([5, 10, 20, 30, 30, 30]);
  });

  it('reaches the default cap of 5 minutes and stays there', () => {
    const backoff = new KeyedBackoff();
    const all = delays(backoff, 'a', 20);
    expect(all[15]).toBe(5 * 2 ** 15);
    expect(all.slice(16)).toEqual([300_000, 300_000, 300_000, 300_000]);
  });

  it('stays at the cap however many failures, without overflowing', () => {
    const backoff = new KeyedBackoff({ baseMs: 1, maxMs: 1000 });
    delays(backoff, 'a', 5000);
    expect(backoff.next('a')).toBe(1000);
    expect(backoff.failures('a')).toBe(5001);
  });

  it('uses the given factor', () => {
    expect(delays(new KeyedBackoff({ baseMs: 2, factor: 3 }), 'a', 4)).toEqual([2, 6, 18, 54]);
  });

  it('keeps each key on its own schedule', () => {
    const backoff = new KeyedBackoff();
    delays(backoff, 'a', 3);
    expect(backoff.next('b')).toBe(5);
    expect(backoff.next('a')).toBe(40);
    expect(backoff.failures('a')).toBe(4);
    expect(backoff.failures('b')).toBe(1);
  });

  it('starts over after reset', () => {
    const backoff = new KeyedBackoff();
    delays(backoff, 'a', 4);
    delays(backoff, 'b', 2);
    backoff.reset('a');
    expect(backoff.failures('a')).toBe(0);
    expect(backoff.next('a')).toBe(5);
    expect(backoff.next('b')).toBe(20);
  });

  it('applies jitter to the capped delay and never returns a negative delay', () => {
    const seen: number[] = [];
    const half = new KeyedBackoff({
      baseMs: 10,
      maxMs: 30,
      jitter: (ms) => {
        seen.push(ms);
        return ms / 2;
      },
    });
    expect(delays(half, 'a', 3)).toEqual([5, 10, 15]);
    expect(seen).toEqual([10, 20, 30]);
    expect(new KeyedBackoff({ jitter: (ms) => ms - 100 }).next('a')).toBe(0);
  });

  it.each([
    [{ baseMs: 0 }],
    [{ baseMs: -1 }],
    [{ baseMs: Number.NaN }],
    [{ baseMs: 10, maxMs: 5 }],
    [{ factor: 0.5 }],
  ])('rejects %j', (options) => {
    expect(() => new KeyedBackoff(options)).toThrow(RangeError);
  });

  it('never shrinks between resets and never exceeds maxMs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 1, max: 10, noNaN: true }),
        fc.integer({ min: 1, max: 100 }),
        (baseMs, extra, factor, count) => {
          const maxMs = baseMs + extra;
          const all = delays(new KeyedBackoff({ baseMs, maxMs, factor }), 'k', count);
          expect(all[0]).toBe(baseMs);
          all.forEach((delay, i) => {
            expect(delay).toBeLessThanOrEqual(maxMs);
            expect(delay).toBeGreaterThanOrEqual(all[i - 1] ?? 0);
          });
        },
      ),
    );
  });
});
