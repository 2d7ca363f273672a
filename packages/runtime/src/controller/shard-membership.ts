import { shardOwner } from './shard-ring.js';

/** One shard Lease as a list of them showed it. */
export interface ShardLeaseSighting {
  readonly name: string;
  readonly resourceVersion: string;
  /** The replica holding it; empty or undefined once released. */
  readonly holder: string | undefined;
  /** Its leaseDurationSeconds, in milliseconds. */
  readonly durationMs: number;
}

export interface ShardMembershipOptions {
  /** This replica's identity, the holder its own shard Lease names. */
  readonly self: string;
  /** How long a replica that has just joined waits before it reconciles anything. */
  readonly leaseDurationMs: number;
  /** A view of the members older than this is not acted on: the replica reconciles nothing until it lists again. */
  readonly renewDeadlineMs: number;
  /** A Lease unchanged this long (a replica long gone) is reported for deletion; default 10 lease durations. */
  readonly forgetAfterMs?: number;
}

const FORGET_AFTER_LEASE_DURATIONS = 10;

/**
 * Which replicas share the objects out, and which objects are this one's: pure, with the time (monotonic
 * milliseconds) given by the caller. The rule that keeps two replicas off one object:
 * - A member is live while its Lease keeps changing: a Lease unchanged for its duration, measured on this
 *   replica's clock from when this replica first saw that version (as leader election does, so clocks of
 *   other nodes do not matter), is a member gone; its holder stopped reconciling at its renew deadline, which
 *   is shorter. A released Lease (no holder) is gone at once: its holder stopped before it released.
 * - Liveness is judged only when a list answers: a replica that cannot list keeps its last view, and once that
 *   view is older than the renew deadline it reconciles nothing, so it never acts on a view others have left.
 * - A replica that joins reconciles nothing for one lease duration. The members that owned its keys see its
 *   Lease at their next list (within the renew deadline, or they stop altogether) and stop taking those keys
 *   at once; rendezvous hashing moves keys only to the member that joins or from the member that leaves.
 */
export class ShardMembership {
  readonly #options: ShardMembershipOptions;
  #joinedAt: number | undefined;
  #viewAt: number | undefined;
  /** Every Lease of the last list, with when its current version was first seen. */
  #seen = new Map<string, { readonly sighting: ShardLeaseSighting; readonly since: number }>();
  #live: readonly string[] = [];
  /** Owners of the keys asked about since the members last changed: hashing once per key and change, not per ask. */
  #owners = new Map<string, string | undefined>();
  #ownersOf = '';

  constructor(options: ShardMembershipOptions) {
    if (!(options.leaseDurationMs > options.renewDeadlineMs)) throw new RangeError('the lease duration must be longer than the renew deadline');
    this.#options = options;
  }

  /** This replica holds its shard Lease from `at`. */
  join(at: number): void {
    this.#joinedAt = at;
  }

  /** This replica no longer holds its shard Lease: it owns nothing. */
  leave(): void {
    this.#joinedAt = undefined;
  }

  /**
   * A list of the shard Leases asked for at `askedAt` answered at `at`: a version first seen counts from the
   * answer and the view's age from the question, each the cautious end. Returns the Leases unchanged for so long that their replicas
   * are long gone, to be deleted (conditionally on the version seen).
   */
  observe(leases: readonly ShardLeaseSighting[], at: number, askedAt = at): readonly ShardLeaseSighting[] {
    const seen = new Map<string, { sighting: ShardLeaseSighting; since: number }>();
    for (const sighting of leases) {
      const before = this.#seen.get(sighting.name);
      const since = before?.sighting.resourceVersion === sighting.resourceVersion ? before.since : at;
      seen.set(sighting.name, { sighting, since });
    }
    this.#seen = seen;
    this.#viewAt = askedAt;
    const live = [...seen.values()].filter(({ sighting, since }) => (sighting.holder ?? '') !== '' && at - since < sighting.durationMs).map(({ sighting }) => sighting.holder ?? '');
    this.#live = [...new Set(live)].sort();
    const forgetAfter = this.#options.forgetAfterMs ?? FORGET_AFTER_LEASE_DURATIONS * this.#options.leaseDurationMs;
    return [...seen.values()].filter(({ sighting, since }) => sighting.holder !== this.#options.self && at - since >= forgetAfter).map(({ sighting }) => sighting);
  }

  /** The live members as of the last list, this replica included while it holds its Lease. */
  members(): readonly string[] {
    if (this.#joinedAt === undefined || this.#live.includes(this.#options.self)) return this.#live;
    return [...this.#live, this.#options.self].sort();
  }

  /** Whether this replica reconciles at `at`: it holds its Lease, has waited out its joining, and its view is fresh. */
  active(at: number): boolean {
    const { leaseDurationMs, renewDeadlineMs } = this.#options;
    if (this.#joinedAt === undefined || at - this.#joinedAt < leaseDurationMs) return false;
    return this.#viewAt !== undefined && at - this.#viewAt < renewDeadlineMs;
  }

  /** Whether `key` is this replica's to reconcile at `at`. */
  owns(key: string, at: number): boolean {
    if (!this.active(at)) return false;
    const members = this.members();
    const signature = members.join(' ');
    if (signature !== this.#ownersOf) {
      this.#owners = new Map();
      this.#ownersOf = signature;
    }
    if (!this.#owners.has(key)) this.#owners.set(key, shardOwner(key, members));
    return this.#owners.get(key) === this.#options.self;
  }

  /** Changes when what this replica owns may have changed: it started or stopped reconciling, or a member came or went. */
  signature(at: number): string {
    return `${String(this.active(at))} ${this.members().join(' ')}`;
  }
}
