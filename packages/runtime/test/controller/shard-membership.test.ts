import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ShardMembership, type ShardLeaseSighting } from '../../src/controller/shard-membership.js';
import { shardOwner } from '../../src/controller/shard-ring.js';

const LEASE_MS = 4_000;
const RENEW_MS = 3_000;
const RETRY_MS = 1_000;

const lease = (holder: string, version: string, durationMs = LEASE_MS): ShardLeaseSighting => ({ name: `keyward-shard-${holder}`, resourceVersion: version, holder, durationMs });
const membership = (self: string): ShardMembership => new ShardMembership({ self, leaseDurationMs: LEASE_MS, renewDeadlineMs: RENEW_MS });
const keys = Array.from({ length: 60 }, (_, i) => `ns/object-${String(i)}`);
const ownedBy = (self: string, members: readonly string[]): string[] => keys.filter((key) => shardOwner(key, members) === self);

describe('ShardMembership', () => {
  it('reconciles nothing for one lease duration after joining, then its share of the keys', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1'), lease('b', '1')], 100);
    expect(keys.filter((key) => a.owns(key, 3_900))).toEqual([]);
    a.observe([lease('a', '2'), lease('b', '2')], 3_950);
    expect(keys.filter((key) => a.owns(key, 4_000))).toEqual(ownedBy('a', ['a', 'b']));
    expect(ownedBy('a', ['a', 'b']).length).toBeGreaterThan(0);
  });

  it('stops taking the keys of a member that joins at the first list that shows it', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1')], 5_000);
    expect(keys.every((key) => a.owns(key, 5_000))).toBe(true);
    a.observe([lease('a', '2'), lease('c', '1')], 6_000);
    expect(keys.filter((key) => a.owns(key, 6_000))).toEqual(ownedBy('a', ['a', 'c']));
    expect(a.members()).toEqual(['a', 'c']);
  });

  it('takes the keys of a member only once its Lease has gone unchanged for its duration, from when it was first seen', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1'), lease('b', '7')], 5_000);
    const bKeys = ownedBy('b', ['a', 'b']);
    a.observe([lease('a', '2'), lease('b', '7')], 8_999);
    expect(bKeys.some((key) => a.owns(key, 8_999))).toBe(false);
    a.observe([lease('a', '3'), lease('b', '7')], 9_000);
    expect(bKeys.every((key) => a.owns(key, 9_000))).toBe(true);
  });

  it('keeps a member whose Lease changes, however long it has been there', () => {
    const a = membership('a');
    a.join(0);
    for (let at = 1_000; at <= 20_000; at += 1_000) a.observe([lease('a', String(at)), lease('b', String(at))], at);
    expect(a.members()).toEqual(['a', 'b']);
  });

  it('counts a released Lease (no holder) as gone at once', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1'), lease('b', '1')], 5_000);
    a.observe([lease('a', '2'), { ...lease('b', '2', 1_000), holder: '' }], 6_000);
    expect(a.members()).toEqual(['a']);
    expect(keys.every((key) => a.owns(key, 6_000))).toBe(true);
  });

  it('reconciles nothing once its view is older than the renew deadline, and again after the next list', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1')], 5_000);
    expect(a.active(7_999)).toBe(true);
    expect(a.active(8_000)).toBe(false);
    expect(keys.some((key) => a.owns(key, 8_000))).toBe(false);
    a.observe([lease('a', '2')], 9_000, 8_500);
    expect(a.active(9_000)).toBe(true);
  });

  it('owns nothing once it has left, and says so in its signature', () => {
    const a = membership('a');
    a.join(0);
    a.observe([lease('a', '1')], 5_000);
    const before = a.signature(5_000);
    a.leave();
    expect(keys.some((key) => a.owns(key, 5_000))).toBe(false);
    expect(a.signature(5_000)).not.toBe(before);
  });

  it('reports for deletion the Leases unchanged for ten lease durations, never its own', () => {
    const a = membership('a');
    a.join(0);
    expect(a.observe([lease('a', '1'), lease('gone', '3')], 1_000)).toEqual([]);
    expect(a.observe([lease('a', '1'), lease('gone', '3')], 41_000).map((sighting) => sighting.holder)).toEqual(['gone']);
  });

  /**
   * The rule's promise, in a model of the Leases on the API server: replicas join at random times, list at
   * their own phase each retry period, one is killed (stops everything) or cut off (stops renewing and listing,
   * but is still asked; its elector ends its term at the renew deadline as LeaderElector does). At every tick,
   * no key is owned by two replicas; at the end every key is owned by exactly one that is still there.
   */
  const END_MS = 26_000;
  const sampled = keys.slice(0, 24);
  it('never lets two replicas own one key, and hands every key to one live replica in the end', () => {
    const scenario = fc.record({
      joins: fc.array(fc.integer({ min: 0, max: 60 }).map((tenth) => tenth * 100), { minLength: 3, maxLength: 3 }),
      phases: fc.array(fc.integer({ min: 0, max: 9 }).map((tenth) => tenth * 100), { minLength: 3, maxLength: 3 }),
      fault: fc.constantFrom('kill', 'cut off'),
      victim: fc.integer({ min: 0, max: 2 }),
      faultAt: fc.integer({ min: 20, max: 140 }).map((tenth) => tenth * 100),
    });
    fc.assert(fc.property(scenario, ({ joins, phases, fault, victim, faultAt }) => {
      const names = ['r0', 'r1', 'r2'];
      const replicas = names.map((name, i) => ({ name, joinAt: joins[i] ?? 0, phase: phases[i] ?? 0, membership: membership(name), version: 0, lastRenewAt: -1, joined: false, stopped: false }));
      const step = 100;
      // Counted, and asserted once per run: an expect per key and tick is most of the test's time.
      let doubled = 0;
      for (let at = 0; at <= END_MS; at += step) {
        const faulted = at >= faultAt ? replicas[victim] : undefined;
        for (const replica of replicas) {
          if (replica === faulted && !replica.stopped) {
            replica.stopped = true;
            if (fault === 'kill') replica.membership.leave();
          }
          // Renewals and lists happen each retry period at the replica's own phase.
          const due = at >= replica.joinAt && (at - replica.joinAt - replica.phase) % RETRY_MS === 0;
          if (!replica.stopped && at >= replica.joinAt && (!replica.joined || due)) {
            replica.version += 1;
            replica.lastRenewAt = at;
            if (!replica.joined) replica.membership.join(at);
            replica.joined = true;
          }
          // The elector's renew deadline: a term not renewed for that long ends.
          if (replica.joined && at - replica.lastRenewAt >= RENEW_MS) replica.membership.leave();
        }
        for (const replica of replicas) {
          const due = at >= replica.joinAt && (at - replica.joinAt - replica.phase) % RETRY_MS === 0;
          if (replica.stopped || !replica.joined || !due) continue;
          replica.membership.observe(replicas.filter((other) => other.joined).map((other) => lease(other.name, String(other.version))), at);
        }
        for (const key of sampled) {
          const owners = replicas.filter((replica) => !(replica.stopped && fault === 'kill') && replica.membership.owns(key, at));
          if (owners.length > 1) doubled += 1;
        }
      }
      expect(doubled).toBe(0);
      const live = replicas.filter((replica) => !replica.stopped);
      expect(sampled.filter((key) => live.filter((replica) => replica.membership.owns(key, END_MS)).length !== 1)).toEqual([]);
    }), { numRuns: 25 });
  });
});
