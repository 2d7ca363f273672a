import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { formatDuration, parseDuration } from '../../src/model/duration.js';

describe('durations', () => {
  it.each([
    ['250ms', 250],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1.5s', 1_500],
  ])('parses %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '10', 'abc', '5x', '-1s', '1 h'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats whole seconds back into something that parses to the same value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_600 * 24 }), (secondsCount) => {
        const ms = secondsCount * 1000;
        const text = formatDuration(ms);
        expect(parseDuration(text)).toBeLessThanOrEqual(ms);
        expect(text).toMatch(/^(\d+[dhms]){1,2}$/);
      }),
    );
  });
});
