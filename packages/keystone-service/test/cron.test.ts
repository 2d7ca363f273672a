import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CRON_FIELD_PATTERN } from '../src/cron-pattern.js';
import { nextRun, parseCron } from '../src/cron.js';

function next(expression: string, after: string): string | undefined {
  const parsed = parseCron(expression);
  if (!parsed.ok) throw new Error(parsed.error);
  return nextRun(parsed.schedule, new Date(after))?.toISOString();
}

describe('cron schedules', () => {
  it.each([
    ['0 0 * * 0', '2026-01-01T00:00:00Z', '2026-01-04T00:00:00.000Z'],
    ['@weekly', '2026-01-04T00:00:00Z', '2026-01-11T00:00:00.000Z'],
    ['*/15 * * * *', '2026-01-01T00:07:30Z', '2026-01-01T00:15:00.000Z'],
    ['30 2 1 jan,JUL *', '2026-01-02T00:00:00Z', '2026-07-01T02:30:00.000Z'],
    ['0 0 13 * fri', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00.000Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['0 12 * * 7', '2026-01-01T00:00:00Z', '2026-01-04T12:00:00.000Z'],
    ['5-10/5 1 * * *', '2026-01-01T01:05:00Z', '2026-01-01T01:10:00.000Z'],
  ])('%s after %s runs at %s', (expression, after, expected) => {
    expect(next(expression, after)).toBe(expected);
  });

  it('never runs on a day that does not exist', () => {
    expect(next('0 0 31 2 *', '2026-01-01T00:00:00Z')).toBeUndefined();
  });

  it.each([
    ['* * * *', /five fields/],
    ['60 * * * *', /minute/],
    ['* 24 * * *', /hour/],
    ['* * 0 * *', /day of month/],
    ['* * * 13 *', /month/],
    ['* * * * 8', /day of week/],
    ['5-1 * * * *', /starts after it ends/],
    ['*/0 * * * *', /step/],
    ['@often', /five fields/],
  ])('refuses %s', (expression, error) => {
    const parsed = parseCron(expression);
    expect(parsed.ok ? '' : parsed.error).toMatch(error);
  });

  it('is always strictly later than the time it starts from', () => {
    fc.assert(fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }), fc.constantFrom('0 0 * * 0', '*/7 3-5 * * *', '0 0 1 */2 mon'), (after, expression) => {
      const parsed = parseCron(expression);
      const at = parsed.ok ? nextRun(parsed.schedule, after) : undefined;
      expect(at).toBeDefined();
      expect((at?.getTime() ?? 0) > after.getTime()).toBe(true);
    }));
  });

  it("the CRD's pattern accepts what the parser accepts, except inverted ranges", () => {
    const pattern = new RegExp(CRON_FIELD_PATTERN);
    const token = fc.constantFrom('*', '0', '1', '5', '7', '12', '23', '31', '59', '60', 'jan', 'MON', 'sun', 'x', '-', '/', ',', '*/2', '1-5', '3/4', '09');
    const fieldArb = fc.array(token, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
    fc.assert(fc.property(fc.array(fieldArb, { minLength: 4, maxLength: 6 }), (fields) => {
      const expression = fields.join(' ');
      const parsed = parseCron(expression);
      if (!parsed.ok && parsed.error.includes('starts after it ends')) return;
      expect([expression, pattern.test(expression)]).toEqual([expression, parsed.ok]);
    }), { numRuns: 2000 });
  });
});
