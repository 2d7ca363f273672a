import { createHash } from 'node:crypto';

/**
 * The member that owns `key` among `members`, by rendezvous (highest random weight) hashing: each member
 * scores the key, the highest score wins. Every replica that knows the same members picks the same owner,
 * with nothing stored. A member that joins takes keys only for itself, and one that leaves hands over only
 * its own keys: no key moves between two members that stay, which is what keeps a handover to one pair of
 * replicas (the one leaving or joining, and the other). Undefined when there are no members.
 */
export function shardOwner(key: string, members: Iterable<string>): string | undefined {
  let owner: string | undefined;
  let best = -1;
  for (const member of members) {
    const score = createHash('sha256').update(member).update('\0').update(key).digest().readUIntBE(0, 6);
    // Equal scores (vanishingly rare) go to the lesser name, so the choice does not depend on the order given.
    if (score > best || (score === best && owner !== undefined && member < owner)) {
      owner = member;
      best = score;
    }
  }
  return owner;
}
