import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { shardOwner } from '../../src/controller/shard-ring.js';

const keys = Array.from({ length: 600 }, (_, i) => `team-${String(i % 7)}/object-${String(i)}`);
const member = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const members = fc.uniqueArray(member, { minLength: 1, maxLength: 6 });

describe('shardOwner', () => {
  it('has no owner without members', () => {
    expect(shardOwner('a/b', [])).toBeUndefined();
  });

  it('picks one of the members, whatever order they are given in', () => {
    fc.assert(fc.property(members, fc.string(), (all, key) => {
      const owner = shardOwner(key, all);
      expect(all).toContain(owner);
      expect(shardOwner(key, [...all].reverse())).toBe(owner);
    }));
  });

  it('moves keys only to a member that joins, never between members that stay', () => {
    fc.assert(fc.property(members, member, (before, joining) => {
      fc.pre(!before.includes(joining));
      for (const key of keys.slice(0, 40)) {
        const owner = shardOwner(key, [...before, joining]);
        expect([shardOwner(key, before), joining]).toContain(owner);
      }
    }), { numRuns: 30 });
  });

  it('moves only the keys of a member that leaves', () => {
    fc.assert(fc.property(members.filter((all) => all.length >= 2), fc.nat(), (all, pick) => {
      const leaving = all[pick % all.length] ?? '';
      const staying = all.filter((name) => name !== leaving);
      for (const key of keys.slice(0, 40)) {
        const before = shardOwner(key, all);
        if (before !== leaving) expect(shardOwner(key, staying)).toBe(before);
      }
    }), { numRuns: 30 });
  });

  it('spreads keys about evenly over three members', () => {
    const counts = new Map<string, number>();
    for (const key of keys) {
      const owner = shardOwner(key, ['keyward-7d9f-abc123', 'keyward-7d9f-def456', 'keyward-7d9f-0a1b2c']) ?? '';
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    // 600 keys: 200 each on average; a hash as good as sha256 keeps each within a wide band of it.
    expect([...counts.values()].every((count) => count > 140 && count < 260)).toBe(true);
    expect(counts.size).toBe(3);
  });
});
