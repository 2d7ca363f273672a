import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isDns1123Subdomain } from '@keyward/kernel/model';
import { enforcementSecretName } from '../src/api.js';

const alnum = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
const segment = (max: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...alnum), fc.array(fc.constantFrom(...alnum, '-'), { maxLength: max - 2 }), fc.constantFrom(...alnum))
    .map(([first, middle, last]) => `${first}${middle.join('')}${last}`);
const namespaceName = segment(63);
const objectName = fc
  .array(segment(63), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join('.').slice(0, 253).replace(/[-.]+$/, ''))
  .filter((name) => name.length > 0 && isDns1123Subdomain(name));

describe('enforcementSecretName', () => {
  it('keeps distinct pairs apart even when their dashes line up', () => {
    expect(enforcementSecretName('foo-bar', 'baz')).not.toBe(enforcementSecretName('foo', 'bar-baz'));
  });

  it('is deterministic and readable for short names', () => {
    expect(enforcementSecretName('team-a', 'my-key')).toBe('apikey-team-a.my-key');
  });

  it('is a valid Secret name of at most 253 characters for every legal namespace and name', () => {
    fc.assert(
      fc.property(namespaceName, objectName, (namespace, name) => {
        const secretName = enforcementSecretName(namespace, name);
        expect(secretName.length).toBeLessThanOrEqual(253);
        expect(isDns1123Subdomain(secretName)).toBe(true);
      }),
    );
  });

  it('gives distinct names for distinct pairs', () => {
    fc.assert(
      fc.property(namespaceName, objectName, namespaceName, objectName, (ns1, n1, ns2, n2) => {
        fc.pre(ns1 !== ns2 || n1 !== n2);
        expect(enforcementSecretName(ns1, n1)).not.toBe(enforcementSecretName(ns2, n2));
      }),
    );
  });
});
