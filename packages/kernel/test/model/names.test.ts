import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isDns1123Label, isDns1123Subdomain, truncateWithHash } from '../../src/model/names.js';

const labelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'.split(''));
const label = fc
  .array(labelChar, { minLength: 1, maxLength: 63 })
  .map((chars) => chars.join(''))
  .filter((s) => isDns1123Label(s));
const subdomain = fc.array(label, { minLength: 1, maxLength: 8 }).map((labels) => labels.join('.'));

describe('DNS-1123 names', () => {
  it.each([
    ['abc', true],
    ['a-b-c', true],
    ['0abc', true],
    ['-abc', false],
    ['abc-', false],
    ['ABC', false],
    ['a.b', false],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
  ])('label %s is valid: %s', (value, valid) => {
    expect(isDns1123Label(value)).toBe(valid);
  });

  it('accepts dotted subdomains up to 253 characters', () => {
    expect(isDns1123Subdomain('a.b-c.d')).toBe(true);
    expect(isDns1123Subdomain('a..b')).toBe(false);
    expect(isDns1123Subdomain(`${'a'.repeat(63)}.`.repeat(4).slice(0, 253))).toBe(true);
    expect(isDns1123Subdomain('a'.repeat(254))).toBe(false);
  });

  it('keeps names that fit', () => {
    expect(truncateWithHash('short-name', 63)).toBe('short-name');
  });

  it('shortens every long valid name to a valid name of at most the limit', () => {
    fc.assert(
      fc.property(subdomain, fc.integer({ min: 12, max: 253 }), (name, max) => {
        const result = truncateWithHash(name, max);
        expect(result.length).toBeLessThanOrEqual(max);
        expect(isDns1123Subdomain(result)).toBe(true);
      }),
    );
  });

  it('gives distinct names for distinct long inputs', () => {
    fc.assert(
      fc.property(label, label, (a, b) => {
        fc.pre(a !== b);
        expect(truncateWithHash(`${'x'.repeat(60)}${a}`, 40)).not.toBe(truncateWithHash(`${'x'.repeat(60)}${b}`, 40));
      }),
    );
  });
});
