import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { KEY_BYTES, KEY_LENGTH, fernetKey, indices, initialRepository, isFernetKey, keysFrom, repositoryProblem, rotate } from '../src/fernet.js';

const key = (n: number): string => fernetKey(Uint8Array.from({ length: KEY_BYTES }, (_, i) => (n * 13 + i) % 256));

describe('fernet keys', () => {
  it('are 32 bytes in URL-safe base64 with padding: 44 characters', () => {
    const k = fernetKey(Uint8Array.from({ length: 32 }, () => 0xfb));
    expect(k).toHaveLength(KEY_LENGTH);
    expect(k.endsWith('=')).toBe(true);
    expect(k).not.toMatch(/[+/]/);
    expect(Buffer.from(k, 'base64url')).toEqual(Buffer.alloc(32, 0xfb));
    expect(isFernetKey(k)).toBe(true);
    expect(isFernetKey(k.slice(0, 43))).toBe(false);
    expect(() => fernetKey(new Uint8Array(31))).toThrow(RangeError);
  });

  it('come from distinct slices of the material', () => {
    const keys = keysFrom(Uint8Array.from({ length: 96 }, (_, i) => i), 3);
    expect(new Set(keys).size).toBe(3);
    expect(Object.keys(initialRepository(keys))).toEqual(['0', '1', '2']);
  });
});

describe("Keystone's rotation", () => {
  it('promotes the staged key to the next index, stages the fresh key and purges the oldest', () => {
    const repo = { '0': key(0), '1': key(1), '2': key(2) };
    expect(rotate(repo, key(9), 3)).toEqual({ '0': key(9), '3': key(0), '2': key(2) });
    expect(rotate({ '0': key(9), '3': key(0), '2': key(2) }, key(8), 4)).toEqual({ '0': key(8), '4': key(9), '3': key(0), '2': key(2) });
    expect(rotate({ '1': key(1) }, key(2), 3)).toBeUndefined();
  });

  it('after any sequence of rotations keeps 3 to maxActiveKeys keys, the previous primary, and growing indices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.array(fc.integer({ min: 3, max: 8 }), { minLength: 1, maxLength: 30 }), (initial, maxima) => {
        let repo = initialRepository(Array.from({ length: initial }, (_, i) => key(i)));
        let fresh = 100;
        for (const max of maxima) {
          const before = indices(repo);
          const primary = Math.max(...before);
          const next = rotate(repo, key(fresh++), max);
          if (next === undefined) throw new Error('a valid repository rotates');
          const after = indices(next);
          expect(after.length).toBeGreaterThanOrEqual(3);
          expect(after.length).toBeLessThanOrEqual(Math.max(max, before.length));
          expect(after.length).toBeLessThanOrEqual(max);
          expect(next[String(primary)]).toBe(repo[String(primary)]);
          expect(Math.max(...after)).toBe(primary + 1);
          expect(next[String(primary + 1)]).toBe(repo['0']);
          expect(repositoryProblem(next)).toBeUndefined();
          repo = next;
        }
      }),
    );
  });

  it('says what is wrong with a repository it cannot use', () => {
    expect(repositoryProblem({ '0': key(0), '1': key(1) })).toMatch(/fewer than 3/);
    expect(repositoryProblem({ '1': key(0), '2': key(1), '3': key(2) })).toMatch(/no staged key/);
    expect(repositoryProblem({ '0': key(0), '1': key(1), '2': 'short' })).toMatch(/key "2"/);
  });
});
