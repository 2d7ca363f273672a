import type { Registry } from 'prom-client';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import type { ResourceType } from '@keyward/kernel';
import type { RuntimeLogger } from './controller.js';
import { serveEndpoints, type Endpoints } from './http-endpoints.js';
import type { MetricsAccess } from './metrics-access.js';
import type { ServingCertificate } from './self-signed-certificate.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { SharedInformers } from './shared-informers.js';
import { ShardLeases, shardLeaseName, type KeyOwnership, type ShardingSettings } from './shard-leases.js';
import { crdName, isServed } from './served-types.js';
import { whenServed } from './when-served.js';
import { unansweredKubeRequest, type ReachabilityReporter } from './reachability.js';

/** What the manager runs: a controller, or anything started and stopped with leadership. */
export interface Runnable {
  readonly name: string;
  /**
   * Types the API server must serve before it can run (a controller's watched types). While one is not
   * served (its CRD is not installed) it is not started, and the others run without it.
   */
  readonly requires?: readonly ResourceType[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Where the Lease is and who this replica is; the timings default as the elector's do. */
export type LeaderElectionSettings = Pick<LeaderElectionOptions, 'namespace' | 'name' | 'identity' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>;

export interface ManagerOptions {
  readonly kube: KubeClient;
  /**
   * Builds fresh runnables for each term of leadership (a stopped controller cannot be started again); the
   * informers of the term are shared by the controllers built with them. With sharding, `shard` says which
   * keys are this replica's.
   */
  readonly runnables: (term: { readonly informers: SharedInformers; readonly shard?: KeyOwnership }) => readonly Runnable[];
  /** Off: run at once, as the only replica. */
  readonly leaderElection?: LeaderElectionSettings | undefined;
  /**
   * Share the objects out over every replica run with it, each holding a shard Lease, instead of electing one
   * leader (see ShardLeases); leaderElection is then ignored. A term is the time this replica holds its Lease.
   */
  readonly sharding?: ShardingSettings | undefined;
  readonly metricsAddress?: string;
  /** Serve the metrics over HTTPS with this certificate, to the callers `access` admits (see serveEndpoints). */
  readonly metricsSecurity?: { readonly tls: ServingCertificate; readonly access: MetricsAccess };
  readonly healthAddress?: string;
  readonly registry?: Registry;
  readonly logger: RuntimeLogger;
  /** Called when leadership is lost without stop(); the operator exits so Kubernetes restarts it as a follower. */
  readonly onLostLeadership?: () => void;
  /** Told true when this replica starts reconciling (at once without leader election), false when it stops leading. */
  readonly onLeadership?: (leading: boolean) => void;
  /** Runnables whose required types are not served: how that is said, and how often they are looked up again. */
  readonly missingTypes?: MissingTypeOptions;
  /**
   * Set when something says that the API server cannot be reached (ApiServerReachability, fed by the client's
   * requests): the leader election's failures without an answer are then logged at debug level, not each as
   * a warning.
   */
  readonly reachability?: ReachabilityReporter;
}

export interface MissingTypeOptions {
  /**
   * The line logged once when `runnable` waits for `type`. Default: "CRD <name> is not installed; <runnable>
   * starts once it is".
   */
  readonly message?: (runnable: string, type: ResourceType) => string;
  /** Default 30 s. */
  readonly recheckMs?: number;
}

const DEFAULT_RECHECK_MS = 30_000;

/**
 * Runs controllers the way controller-runtime's manager does: health and metrics endpoints, Lease-based
 * leader election (only the leader reconciles), and a graceful stop that finishes in-flight reconciles and
 * releases the lease so another replica takes over at once.
 */
export class Manager {
  readonly #options: ManagerOptions;
  #running: readonly Runnable[] = [];
  #informers: SharedInformers | undefined;
  #elector: Pick<LeaderElector, 'start' | 'stop'> | undefined;
  #shard: ShardLeases | undefined;
  #endpoints: Endpoints[] = [];
  #started = false;
  #stopping = false;
  #ready = false;

  constructor(options: ManagerOptions) {
    this.#options = options;
  }

  /** Ready when serving: a follower is ready (it is a healthy standby); a leader once its caches synced. */
  get ready(): boolean {
    return this.#ready;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the manager was already started');
    this.#started = true;
    const { logger } = this.#options;
    const metricsAddress = this.#options.metricsAddress ?? '0';
    const healthAddress = this.#options.healthAddress ?? '0';
    const probes = { liveness: () => !this.#stopping, readiness: () => this.#ready };
    const registry = this.#options.registry === undefined ? {} : { registry: this.#options.registry };
    // One address for both: one server answers the probes and the scrapes (the probes must not fall back to "healthy").
    const shared = healthAddress === metricsAddress;
    const security = this.#options.metricsSecurity;
    const secured = security === undefined ? {} : { tls: security.tls, metricsAccess: security.access };
    this.#endpoints.push(await serveEndpoints({ address: metricsAddress, ...registry, ...secured, ...(shared ? probes : {}) }));
    if (!shared) this.#endpoints.push(await serveEndpoints({ address: healthAddress, ...probes }));
    const sharding = this.#options.sharding;
    const election = sharding === undefined ? this.#options.leaderElection : undefined;
    if (election === undefined && sharding === undefined) {
      // The only replica reconciles as the leader does: it says so, so "one leader" holds without election too.
      this.#options.onLeadership?.(true);
      await this.#lead();
      return;
    }
    this.#ready = true;
    const held = sharding === undefined ? election : { ...sharding, name: shardLeaseName(sharding.identity) };
    const lease = `${held?.namespace ?? ''}/${held?.name ?? ''}`;
    const identity = held?.identity;
    const term = {
      client: this.#options.kube,
      onStartedLeading: async (signal: AbortSignal) => {
        logger.info(sharding === undefined ? 'became leader' : 'holding a shard lease', { lease, identity });
        this.#options.onLeadership?.(true);
        this.#ready = false;
        await this.#lead();
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          else signal.addEventListener('abort', () => { resolve(); }, { once: true });
        });
        await this.#follow();
      },
      onStoppedLeading: () => {
        this.#options.onLeadership?.(false);
        if (!this.#stopping) {
          logger.warn(sharding === undefined ? 'lost leadership' : 'lost the shard lease');
          this.#options.onLostLeadership?.();
        }
      },
      onProblem: (message: string, error?: unknown) => {
        const quiet = this.#options.reachability !== undefined && unansweredKubeRequest(error, { timeouts: true });
        logger[quiet ? 'debug' : 'warn'](message, { error: error instanceof Error ? error.message : error });
      },
    };
    if (sharding !== undefined) {
      this.#shard = new ShardLeases({
        ...term,
        ...sharding,
        // Each replica says when the members change and whether it reconciles: what an operator reads to see the objects move.
        onMembership: (members, reconciling) => logger.info('shard members changed', { members: members.length, reconciling, identities: members }),
      });
      this.#elector = this.#shard;
    } else if (election !== undefined) {
      this.#elector = new LeaderElector({ ...term, ...election });
    }
    this.#elector?.start();
    logger.info(sharding === undefined ? 'waiting for leadership' : 'taking a shard lease', { lease, identity });
  }

  async #lead(): Promise<void> {
    this.#informers = new SharedInformers(this.#options.kube);
    this.#running = this.#options.runnables({ informers: this.#informers, ...(this.#shard === undefined ? {} : { shard: this.#shard }) }).map((runnable) => this.#whenServed(runnable));
    try {
      await Promise.all(this.#running.map((runnable) => runnable.start()));
    } catch (error) {
      // A stop that came while runnables were starting (a SIGTERM right after start-up) stops their caches
      // under them: their start fails, and that is the stop's doing, not an error of the start.
      if (this.#stopping) return;
      throw error;
    }
    this.#ready = true;
  }

  /**
   * A runnable that requires types starts once they are served: checked at the start of each term, said once
   * when one is missing, looked up again until it is there. It holds up neither readiness nor the others.
   */
  #whenServed(runnable: Runnable): Runnable {
    // The core group is always served.
    const types = (runnable.requires ?? []).filter((type) => type.group !== '');
    if (types.length === 0) return runnable;
    const { kube, logger, missingTypes } = this.#options;
    const describe = missingTypes?.message ?? ((name: string, type: ResourceType) => `CRD ${crdName(type)} is not installed; ${name} starts once it is`);
    let waitingFor: ResourceType | undefined;
    return whenServed(runnable, types, {
      isServed: (type) => isServed(kube, type),
      recheckMs: missingTypes?.recheckMs ?? DEFAULT_RECHECK_MS,
      onMissing: (type) => {
        waitingFor = type;
        logger.error(describe(runnable.name, type), { runnable: runnable.name, crd: crdName(type) });
      },
      onServed: () => {
        logger.info(`CRD ${waitingFor === undefined ? '' : `${crdName(waitingFor)} `}is installed now: starting ${runnable.name}`, { runnable: runnable.name });
      },
      onProblem: (message, error) => logger.warn(message, { runnable: runnable.name, error: error instanceof Error ? error.message : String(error) }),
    });
  }

  async #follow(): Promise<void> {
    const running = this.#running;
    const informers = this.#informers;
    this.#running = [];
    this.#informers = undefined;
    await Promise.all(running.map((runnable) => runnable.stop()));
    await informers?.stop();
  }

  /** Finishes in-flight work, stops the controllers, releases the lease and closes the endpoints. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#ready = false;
    // With leader election, ending the term stops the controllers (onStartedLeading) before the lease is
    // released, so two replicas never reconcile at once.
    if (this.#elector === undefined) await this.#follow();
    else await this.#elector.stop({ release: true });
    await Promise.all(this.#endpoints.map((endpoint) => endpoint.close()));
    this.#options.kube.close();
    this.#options.logger.info('manager stopped');
  }
}
