import { coreTypes } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, truncateWithHash } from '@keyward/kernel/model';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { LEASE_TIMING_DEFAULTS, LeaderElector, type LeaderElectionOptions, type Lease } from './leader-election.js';
import { ShardMembership, type ShardLeaseSighting } from './shard-membership.js';

/** Which keys this process reconciles, for controllers whose objects are shared out over replicas. */
export interface KeyOwnership {
  owns(key: string): boolean;
  /** `listener` is called whenever what owns() answers may have changed; the function returned unsubscribes. */
  onChange(listener: () => void): () => void;
}

/** The label every shard Lease carries, so one list finds them all. */
export const SHARD_LEASE_LABEL = 'keyward.io/shard-lease';

/** What every shard Lease's name begins with. */
export const SHARD_LEASE_PREFIX = 'keyward-shard-';

/** The shard Lease of a replica: its identity, made a valid object name. */
export function shardLeaseName(identity: string): string {
  const name = `${SHARD_LEASE_PREFIX}${identity.toLowerCase().replace(/[^a-z0-9.-]/g, '-')}`.replace(/[^a-z0-9]+$/, '');
  return truncateWithHash(name, DNS1123_SUBDOMAIN_MAX_LENGTH);
}

/** Where the shard Leases are and who this replica is; the timings default as leader election's do. */
export type ShardingSettings = Pick<LeaderElectionOptions, 'namespace' | 'identity' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>;

export interface ShardLeasesOptions extends ShardingSettings, Pick<LeaderElectionOptions, 'onStartedLeading' | 'onStoppedLeading' | 'onProblem'> {
  readonly client: Pick<KubeClient, 'get' | 'create' | 'raw' | 'list' | 'delete'>;
  /** Told the members and whether this replica reconciles, whenever either changes. */
  readonly onMembership?: (members: readonly string[], reconciling: boolean) => void;
}

/**
 * A replica's part in sharing the objects out: it holds a Lease of its own (`keyward-shard-<identity>`, held
 * and renewed by a LeaderElector exactly as the leader Lease is, so losing it ends the term the same way),
 * lists every shard Lease each retry period, and answers which keys are its own (ShardMembership). While it
 * holds its Lease, onStartedLeading's work runs; the controllers in it ask owns() before each reconcile.
 */
export class ShardLeases implements KeyOwnership {
  readonly #options: ShardLeasesOptions;
  readonly #membership: ShardMembership;
  readonly #elector: LeaderElector;
  readonly #listeners = new Set<() => void>();
  readonly #labels = { [SHARD_LEASE_LABEL]: 'true' };
  readonly #retryMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #signature = '';

  constructor(options: ShardLeasesOptions) {
    const { leaseDurationMs = LEASE_TIMING_DEFAULTS.leaseDurationMs, renewDeadlineMs = LEASE_TIMING_DEFAULTS.renewDeadlineMs, retryPeriodMs = LEASE_TIMING_DEFAULTS.retryPeriodMs } = options;
    this.#options = options;
    this.#retryMs = retryPeriodMs;
    this.#membership = new ShardMembership({ self: options.identity, leaseDurationMs, renewDeadlineMs });
    this.#elector = new LeaderElector({
      client: options.client,
      namespace: options.namespace,
      name: shardLeaseName(options.identity),
      identity: options.identity,
      labels: this.#labels,
      leaseDurationMs,
      renewDeadlineMs,
      retryPeriodMs,
      onStartedLeading: (signal) => {
        this.#membership.join(performance.now());
        this.#watchMembers(signal);
        return options.onStartedLeading(signal);
      },
      ...(options.onStoppedLeading === undefined ? {} : { onStoppedLeading: options.onStoppedLeading }),
      ...(options.onProblem === undefined ? {} : { onProblem: options.onProblem }),
    });
  }

  start(): void {
    this.#elector.start();
  }

  /** Stops as LeaderElector.stop does: the work winds down first, then the Lease is released (by default). */
  stop(options: { release?: boolean } = {}): Promise<void> {
    return this.#elector.stop(options);
  }

  owns(key: string): boolean {
    return this.#membership.owns(key, performance.now());
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  /** Lists the shard Leases every retry period while `signal` lasts; at its end this replica owns nothing at once. */
  #watchMembers(signal: AbortSignal): void {
    const round = async (): Promise<void> => {
      await this.#list();
      this.#changed();
      if (!signal.aborted) this.#timer = setTimeout(() => { void round(); }, this.#retryMs);
    };
    signal.addEventListener('abort', () => {
      clearTimeout(this.#timer);
      this.#membership.leave();
      this.#changed();
    }, { once: true });
    void round();
  }

  async #list(): Promise<void> {
    const askedAt = performance.now();
    try {
      // A list without a resourceVersion is read from etcd, never from a cache that may lag.
      const { items } = await this.#options.client.list(coreTypes.lease, { namespace: this.#options.namespace, labels: this.#labels });
      const gone = this.#membership.observe(items.map((lease) => sighting(lease as Lease)), performance.now(), askedAt);
      await Promise.all(gone.map((lease) => this.#delete(lease)));
    } catch (error) {
      this.#options.onProblem?.('listing the shard Leases failed', error);
    }
  }

  /** Deletes the Lease of a replica long gone, unless it changed since it was seen. */
  async #delete(lease: ShardLeaseSighting): Promise<void> {
    try {
      await this.#options.client.delete({ type: coreTypes.lease, namespace: this.#options.namespace, name: lease.name }, { preconditions: { resourceVersion: lease.resourceVersion } });
    } catch (error) {
      // A conflict: it changed (its replica is back) or another replica deleted it first.
      if (!(error instanceof KeywardError && error.code === 409)) this.#options.onProblem?.(`deleting the shard Lease ${lease.name} failed`, error);
    }
  }

  #changed(): void {
    const now = performance.now();
    const signature = this.#membership.signature(now);
    if (signature === this.#signature) return;
    this.#signature = signature;
    this.#options.onMembership?.(this.#membership.members(), this.#membership.active(now));
    for (const listener of this.#listeners) listener();
  }
}

function sighting(lease: Lease): ShardLeaseSighting {
  const seconds = lease.spec?.leaseDurationSeconds ?? LEASE_TIMING_DEFAULTS.leaseDurationMs / 1000;
  return { name: lease.metadata.name, resourceVersion: lease.metadata.resourceVersion ?? '', holder: lease.spec?.holderIdentity, durationMs: seconds * 1000 };
}
