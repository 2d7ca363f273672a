import { randomBytes } from 'node:crypto';
import { objectKey, splitKey } from '@keyward/kernel/model';
import { runQueries, type SecondaryWatch, type Queries, type QueryIn, type AnyQuery } from '@keyward/kernel/plan';
import { type ResourceType, type AnyAction, type ControllerDefinition, type KubeObject, type Plan, type PlanFailure, type Observed } from '@keyward/kernel';
import { errorPolicyOf, interpret, removeOrphans, runReconcile, type KeywardErrorFields, type AvailabilityChange, type ApiSet, type FailureResponse, type PlanResult, type QueryTable, type ReconcileOutcome, type Requeue, type StepResult } from '@keyward/kernel/interpreter';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import type { KeyedBackoffOptions } from './backoff.js';
import { KeyedBackoff } from './backoff.js';
import type { InformerEvent } from './informer.js';
import { SharedInformers, type SharedInformer } from './shared-informers.js';
import { WorkQueue, type WorkQueueObserver } from './work-queue.js';
import { ReferencedWatches } from './referenced-watches.js';
import { WatchTroubleLog, type WatchTroubleReporter } from './watch-trouble.js';
import { lazyEntropy } from './reconcile-input.js';
import { BurstWatches, type BurstWatchOptions } from './burst-watches.js';
import { RecoveryWakeups } from './recovery-wakeups.js';
import { RepeatedFailures } from './repeated-failures.js';
import { OWN_WRITE_RECHECK_MS, OwnWrites, wroteTo } from './own-writes.js';
import { objectReader, queryReader } from './query-reader.js';
import { TypeNotServed, crdName } from './served-types.js';
import { ResyncLoop, type ResyncLoops } from './resync-loop.js';
import { unansweredKubeRequest, type ReachabilityReporter } from './reachability.js';
import type { KeyOwnership } from './shard-leases.js';

/** The logging the runtime needs; a winston Logger fits. */
/** The namespace of a "namespace/name" key ("" for a cluster-scoped object's "name"). */
export function namespaceOfKey(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

export interface RuntimeLogger {
  child(meta: Record<string, unknown>): RuntimeLogger;
  debug(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
  error(message: string, meta?: Record<string, unknown>): unknown;
}

export type ReconcileResult = 'success' | 'requeue' | 'error' | 'invalid' | 'gone';

/** What one reconcile of a key did, for the work queue, tests and tools. */
export interface KeyReconcile<A extends AnyAction> {
  readonly result: ReconcileResult;
  readonly plan?: Plan<A>;
  readonly outcome?: PlanResult;
  readonly requeueAfterMs?: number;
  readonly error?: KeywardErrorFields;
  /** After a failure: what the error policy decided. */
  readonly next?: FailureResponse;
  /** When the key is reconciled again (see Requeue). */
  readonly requeue: Requeue;
}

/** A key whose object is gone (and its orphans with it): nothing is due. */
const GONE = { result: 'gone', requeue: { kind: 'done' } } as const;

/** Told about each reconcile and step, for metrics. */
export interface ControllerObserver {
  onReconcile?(controller: string, result: ReconcileResult, durationMs: number): void;
  onStep?(controller: string, step: StepResult): void;
  queue?: WorkQueueObserver<string>;
  onInformerProblem?(resource: string, message: string): void;
  /** Namespaces watched for a burst of reads (see GetQuery.onBurst), whenever the number changes. */
  onBurstWatches?(controller: string, namespaces: number): void;
  /** Each reconcile's plan once it ran, with how each step went (the events it recorded, say). */
  onPlan?(controller: string, plan: Plan, outcome: PlanResult): void;
}

export interface ControllerOptions<C, A extends AnyAction, Q extends AnyQuery> {
  /** Where the informers list and watch. */
  readonly kube: KubeClient;
  /**
   * The API modules that carry out its plans and answer its reads: the compiler checks that they cover every
   * action and query the controller's definition declares. When an endpoint of one of them answers again after
   * an outage, the keys whose last failure was a retryable error of that API are retried at once instead of at
   * the end of their backoff.
   */
  readonly apis: ApiSet<A, Q>;
  readonly config: C;
  /** Watch one namespace; all when undefined. */
  readonly namespace?: string | undefined;
  /**
   * Informers shared with the other controllers of the process (a Manager gives its runnables one): a type
   * several controllers watch in the same scope is listed and watched once. Without it, the controller has
   * its own.
   */
  readonly informers?: SharedInformers;
  /** Reconciles running at once (different keys); default 2. */
  readonly concurrency?: number;
  /** Every key is reconciled again this often; default 10 minutes. */
  readonly resyncPeriodMs?: number;
  /**
   * The process's resync loops, for a definition that spreads its resync (spreadResyncMs): controllers of the
   * same period share one. Without it, such a controller has a loop of its own.
   */
  readonly resyncLoops?: ResyncLoops;
  /**
   * The log of watch trouble shared with the other controllers of the process: an API server restart, which
   * fails every watch of every controller, is then told once for them all. Without it, the controller has
   * its own.
   */
  readonly watchTrouble?: WatchTroubleLog;
  readonly backoff?: KeyedBackoffOptions;
  /** When to watch a namespace for a burst of `onBurst` reads; `false` never does. */
  readonly burstWatches?: BurstWatchOptions | false;
  readonly logger?: RuntimeLogger;
  /**
   * Told when a watch or list of its informers gets no answer from the API server and when one gets an answer
   * again (ApiServerReachability says so at a bounded rate). With it, those failures are logged at debug
   * level here; without it, each is a warning.
   */
  readonly reachability?: ReachabilityReporter;
  readonly observer?: ControllerObserver;
  /**
   * With objects shared out over replicas: which keys are this replica's. The others are watched but not
   * reconciled; when ownership changes, every key is looked at again (a key gained is then reconciled).
   */
  readonly shard?: KeyOwnership;
  readonly now?: () => Date;
  /** Random bytes; crypto's by default. */
  readonly entropy?: (bytes: number) => Uint8Array;
}

/** Whether an update changed what a reconcile acts on: the spec (generation) or whether the object is being deleted. */
function specOrLifecycleChanged(old: KubeObject, object: KubeObject): boolean {
  return old.metadata.generation !== object.metadata.generation || (old.metadata.deletionTimestamp === undefined) !== (object.metadata.deletionTimestamp === undefined);
}

/** Ids that tie one reconcile's log lines together: a random prefix per controller and a counter (no syscall per reconcile). */
function reconcileIds(): { next(): string } {
  const prefix = randomBytes(3).toString('hex');
  let count = 0;
  return { next: () => `${prefix}-${(count++).toString(36)}` };
}

const silentLogger: RuntimeLogger = {
  child: () => silentLogger,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Runs one controller definition: informers for the primary and secondary types feed a keyed work queue;
 * each key is observed, reconciled (pure) and its plan interpreted. Failures back off per key, an invalid
 * spec waits for the object to change, and a plan's requeueAfter schedules the next check.
 */
export class Controller<P extends KubeObject, Q extends Queries, C, A extends AnyAction> {
  readonly #definition: ControllerDefinition<P, Q, C, A>;
  readonly #options: ControllerOptions<C, A, QueryIn<Q>>;
  readonly #primary: SharedInformer;
  readonly #secondary: { readonly watch: SecondaryWatch; readonly informer: SharedInformer }[];
  /** Informers of its own, when the options gave none to share. */
  readonly #ownInformers: SharedInformers | undefined;
  readonly #queue: WorkQueue;
  readonly #queries: QueryTable<QueryIn<Q>>;
  readonly #readQuery: (query: AnyQuery) => Promise<unknown>;
  /** The same reads for the handlers of its plans: a password Secret it watches is read from the watch. */
  readonly #readObject: ReturnType<typeof objectReader>;
  /** CRDs whose absence was said already: once per type, not once per object that reads it. */
  readonly #saidMissing = new Set<string>();
  readonly #logger: RuntimeLogger;
  /** Generation of objects last found invalid: they are not retried until it changes. */
  readonly #invalid = new Map<string, number | undefined>();
  /**
   * Keys whose last failure cannot succeed as the object stands: a change of spec or of something they watch
   * retries them (and the periodic resync, a safety net), not our own status write.
   */
  readonly #waiting = new Set<string>();
  readonly #reconcileIds = reconcileIds();
  /** Aborted by stop(): plans in flight start no further step. */
  readonly #stopping = new AbortController();
  #resync: NodeJS.Timeout | undefined;
  /** Leaves the resync loop, for a definition that spreads its resync. */
  #leaveResyncLoop: (() => void) | undefined;
  readonly #references: ReferencedWatches;
  /** A log of watch trouble of its own, when the options gave none to share. */
  readonly #ownTrouble: WatchTroubleLog | undefined;
  readonly #bursts: BurstWatches | undefined;
  readonly #wakeups: RecoveryWakeups;
  readonly #repeats: RepeatedFailures;
  readonly #ownWrites = new OwnWrites();
  #stopRecoveries: (() => void) | undefined;
  #stopShardChanges: (() => void) | undefined;

  constructor(definition: ControllerDefinition<P, Q, C, A>, options: ControllerOptions<C, A, QueryIn<Q>>) {
    this.#definition = definition;
    this.#options = options;
    this.#logger = (options.logger ?? silentLogger).child({ controller: definition.name });
    // Each watch's problems go to the log through one WatchTroubleLog (an API server restart is two lines, not
    // one per watch and retry), and each to the metrics. A watch the API server does not answer at all is the
    // reachability report's to tell, when there is one (one line for the outage, however many watches wait).
    const { reachability } = options;
    this.#ownTrouble = options.watchTrouble === undefined ? new WatchTroubleLog(this.#logger) : undefined;
    const trouble = options.watchTrouble ?? this.#ownTrouble ?? new WatchTroubleLog(this.#logger);
    const reporter = (resource: string): WatchTroubleReporter => {
      const watch = trouble.watch(resource);
      return {
        ...watch,
        problem: (message, error, retrying) => {
          if (reachability !== undefined && unansweredKubeRequest(error, { timeouts: true })) {
            const detail = error instanceof Error ? error.message : String(error);
            reachability.unanswered(detail);
            this.#logger.debug(message, { resource, error: detail });
          } else {
            watch.problem(message, error, retrying);
          }
          options.observer?.onInformerProblem?.(resource, message);
        },
        recovered: () => {
          reachability?.answered();
          watch.recovered();
        },
      };
    };
    this.#ownInformers = options.informers === undefined ? new SharedInformers(options.kube) : undefined;
    const informers = options.informers ?? this.#ownInformers ?? new SharedInformers(options.kube);
    const user = (resource: string) => {
      const watch = reporter(resource);
      return {
        onProblem: (message: string, error?: unknown, retrying?: boolean) => { watch.problem(message, error, retrying === true); },
        // An informer accepted again after failures: the API server is back, so what waited for it is retried now.
        onRecovered: () => {
          watch.recovered();
          this.#recovered('kubernetes', { resource });
        },
      };
    };
    this.#primary = informers.acquire({ type: definition.primary.type, namespace: options.namespace }, user(definition.primary.type.plural));
    this.#secondary = definition.secondary(options.config).map((watch) => ({
      watch,
      informer: informers.acquire({ type: watch.type, namespace: watch.namespace ?? options.namespace, labels: watch.labels }, user(watch.type.plural)),
    }));
    this.#queue = new WorkQueue({
      backoff: new KeyedBackoff(options.backoff),
      ...(options.observer?.queue === undefined ? {} : { observer: options.observer.queue }),
      onError: (key, error) => this.#logger.error('reconcile crashed', { key, error: error instanceof Error ? error.message : String(error) }),
      // Namespaces take turns for the workers: one team's burst of objects does not hold back everyone else's.
      lane: namespaceOfKey,
      ...(definition.maxInFlightPerNamespace === undefined ? {} : { maxInFlightPerLane: definition.maxInFlightPerNamespace(options.config) }),
    });
    this.#wakeups = new RecoveryWakeups((key) => { this.#queue.add(key); });
    this.#repeats = new RepeatedFailures(this.#queue);
    this.#references = new ReferencedWatches(options.kube, (key) => { this.#queue.add(key); }, reporter);
    const bursts = reporter('burst watches');
    this.#bursts = options.burstWatches === false ? undefined : new BurstWatches(options.kube, {
      info: (message, meta) => this.#logger.info(message, meta),
      // A burst watch ends at its first problem: nothing to wait for.
      problem: (message, error) => { bursts.problem(message, error, false); },
      watching: (namespaces) => options.observer?.onBurstWatches?.(definition.name, namespaces),
    }, options.burstWatches);
    this.#queries = options.apis.queries({
      ...(this.#bursts === undefined ? {} : { bursts: this.#bursts }),
      referenced: this.#references,
      caches: [
        { type: definition.primary.type, namespace: options.namespace, get: (ns, name) => this.#primary.get(ns, name), list: (ns) => this.#primary.list(ns) },
        ...this.#secondary.map(({ watch, informer }) => ({
          type: watch.type,
          namespace: watch.namespace ?? options.namespace,
          labels: watch.labels,
          get: (ns: string | undefined, name: string) => informer.get(ns, name),
          list: (ns?: string) => informer.list(ns),
        })),
      ],
    });
    this.#readQuery = queryReader(this.#queries);
    this.#readObject = objectReader(this.#queries);
  }

  get name(): string {
    return this.#definition.name;
  }

  /** The types it watches: the API server must serve them before it can start (see Manager). */
  get requires(): readonly ResourceType[] {
    const types = [this.#definition.primary.type, ...this.#secondary.map(({ watch }) => watch.type)];
    return types.filter((type, index) => types.findIndex((other) => crdName(other) === crdName(type) && other.version === type.version) === index);
  }

  /** Starts the informers, waits for their first lists, then starts the workers and the periodic resync. */
  async start(): Promise<void> {
    this.#primary.subscribe((event) => { this.#onPrimary(event); });
    for (const { watch, informer } of this.#secondary) {
      informer.subscribe((event) => {
        for (const key of watch.mapToPrimary(event.object)) if (this.#inScope(key)) this.#repeats.changed(key);
      });
    }
    await Promise.all([this.#primary.start(), ...this.#secondary.map(({ informer }) => informer.start())]);
    this.#stopRecoveries = this.#options.apis.availability.subscribe((change) => { this.#onAvailability(change); });
    this.#stopShardChanges = this.#options.shard?.onChange(() => { this.resync(); });
    this.#queue.start((key) => this.#process(key), { concurrency: this.#options.concurrency ?? 2 });
    this.#enqueueOrphanOwners();
    this.#startResync();
    this.#logger.info('controller started', { objects: this.#primary.keys().length });
  }

  /**
   * Stops taking work, lets each reconcile in flight finish the step it is running (no further step starts),
   * then stops watching. What a stopped plan leaves half done, the next reconcile picks up, as after a crash.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#stopRecoveries?.();
    this.#stopShardChanges?.();
    clearInterval(this.#resync);
    this.#leaveResyncLoop?.();
    await this.#queue.shutdown({ drain: true });
    await this.#references.stop();
    await this.#bursts?.stop();
    await Promise.all([this.#primary.release(), ...this.#secondary.map(({ informer }) => informer.release())]);
    await this.#ownInformers?.stop();
    this.#ownTrouble?.stop();
    this.#logger.info('controller stopped');
  }

  /**
   * The periodic resync: every key at once each period, or, for a definition that spreads it, one key at a
   * time through a resync loop (each round of which also looks for orphans, as resync() does).
   */
  #startResync(): void {
    const spread = this.#definition.spreadResyncMs?.(this.#options.config);
    if (spread === undefined) {
      this.#resync = setInterval(() => { this.resync(); }, this.#options.resyncPeriodMs ?? 600_000);
      this.#resync.unref();
      return;
    }
    if (spread <= 0) return;
    const loop = this.#options.resyncLoops?.loop(spread) ?? new ResyncLoop({ periodMs: spread });
    this.#leaveResyncLoop = loop.join({
      keys: () => {
        this.#enqueueOrphanOwners();
        return this.#primary.keys();
      },
      resync: (key) => {
        const { namespace, name } = splitKey(key);
        // Deleted since the round began: its deletion was handled already.
        if (this.#primary.get(namespace, name) !== undefined) this.#queue.add(key);
      },
    });
  }

  /** Enqueues every primary object and the owners of orphans (what the periodic resync does). */
  resync(): void {
    for (const key of this.#primary.keys()) this.#queue.add(key);
    this.#enqueueOrphanOwners();
  }

  /**
   * Enqueues the (missing) owner of every orphan, a secondary object whose primary object no longer exists
   * (see ControllerDefinition.orphans): its key's run removes them, and retries with backoff like any reconcile.
   */
  #enqueueOrphanOwners(): void {
    const orphans = this.#orphanWatch();
    if (orphans === undefined) return;
    for (const object of orphans.informer.list()) {
      const owner = orphans.ownerOf(object);
      if (owner === undefined) continue;
      const { namespace, name } = splitKey(owner);
      if (this.#inScope(owner) && this.#primary.get(namespace, name) === undefined) this.#queue.add(owner);
    }
  }

  #orphanWatch(): (NonNullable<ControllerDefinition<P, Q, C, A>['orphans']> & { readonly informer: SharedInformer }) | undefined {
    const orphans = this.#definition.orphans;
    const informer = orphans === undefined ? undefined : this.#secondary[orphans.watch]?.informer;
    return orphans === undefined || informer === undefined ? undefined : { ...orphans, informer };
  }

  /**
   * Removes the orphans of a primary object that is gone; 'error' when one could not be removed, with the last
   * failure, so a removal that failed while the API server was away is retried when it is back.
   */
  async #removeOrphans(owner: string): Promise<KeyReconcile<A>> {
    const orphans = this.#orphanWatch();
    if (orphans === undefined) return GONE;
    const removal = await removeOrphans(
      orphans.informer.list().filter((object) => orphans.ownerOf(object) === owner),
      (object) => orphans.orphaned(object, owner),
      async (plan, object) => {
        const logger = this.#logger.child({ key: owner, reconcileId: this.#reconcileIds.next() });
        const result = await this.#run(plan, logger);
        if (!result.ok) logger.warn('could not remove an orphan; will retry', { object: object.metadata.name, problem: result.error?.message });
        return result;
      },
    );
    if (removal.requeue.kind === 'done') return GONE;
    return { result: 'error', requeue: removal.requeue, ...(removal.error === undefined ? {} : { error: removal.error }) };
  }

  /**
   * Whether a key names an object this controller watches. A secondary watch may reach beyond the controller's
   * namespace (enforcement Secrets in one namespace for APIKeys of many): a key of another namespace belongs to
   * that namespace's controller, and its absence here says nothing about whether it exists.
   */
  #inScope(key: string): boolean {
    return this.#options.namespace === undefined || splitKey(key).namespace === this.#options.namespace;
  }

  /** Keys waiting, scheduled and running: for readiness and tests. */
  queueState(): { depth: number; scheduled: number; inFlight: number } {
    return { depth: this.#queue.depth(), scheduled: this.#queue.scheduled(), inFlight: this.#queue.inFlight() };
  }

  #onPrimary(event: InformerEvent): void {
    const key = objectKey(event.object.metadata.namespace, event.object.metadata.name);
    if (event.type === 'deleted') {
      this.#invalid.delete(key);
      this.#waiting.delete(key);
      this.#wakeups.forget(key);
      this.#repeats.forget(key);
      this.#queue.forget(key);
      this.#references.forget(key);
      this.#ownWrites.forget(key);
      // The key's next run finds the object gone and removes its orphans.
      this.#queue.add(key);
      return;
    }
    // A change that leaves spec and lifecycle alone (status, finalizers, labels: mostly our own writes) cannot
    // have fixed a failure, so it does not cut the key's backoff short.
    if (event.type === 'updated' && !specOrLifecycleChanged(event.old, event.object)) {
      // Nor does it help a key that waits for a change.
      if (!this.#waiting.has(key)) this.#queue.addUnlessBackingOff(key);
    }
    else this.#queue.add(key);
  }

  /** An endpoint answers again: the keys that wait for its API are retried now. */
  #onAvailability(change: AvailabilityChange): void {
    if (change.available) this.#recovered(change.api, { endpoint: change.endpoint });
  }

  /** `api` answers again: the keys that wait for it are retried now. */
  #recovered(api: string, where: Record<string, unknown>): void {
    const woken = this.#wakeups.recovered(api);
    if (woken > 0) this.#logger.info('an endpoint answers again: retrying the objects that waited for it', { api, ...where, objects: woken });
  }

  async #process(key: string): Promise<void> {
    // Another replica's: dropped here, and looked at again when ownership changes.
    if (this.#options.shard?.owns(key) === false) {
      this.#queue.forget(key);
      return;
    }
    // The cache still holds the object as it was before this controller's last write to it (another wake-up came
    // first): a reconcile from it would act on a past the object has left. The write's watch event brings the
    // key back, or this check does shortly.
    if (this.#ownWrites.olderThanOwnWrite(key, this.cached(key)?.metadata.resourceVersion)) {
      this.#queue.addAfter(key, OWN_WRITE_RECHECK_MS);
      return;
    }
    const started = Date.now();
    const mark = this.#wakeups.mark();
    // Running, it waits no more: a status write of this very run that comes back while it runs must be held
    // for the run's end (and is dropped there if the run fails), not ignored as one more change of a waiting key.
    this.#waiting.delete(key);
    const result = await this.reconcileKey(key);
    this.#options.observer?.onReconcile?.(this.#definition.name, result.result, Date.now() - started);
    // Our own failure report may have come back as an update while the key ran; it fixed nothing.
    if (result.result === 'error') this.#queue.dropHeld(key);
    const { requeue } = result;
    if (requeue.kind === 'now' || requeue.kind === 'backoff') this.#queue.addRateLimited(key);
    else this.#queue.forget(key);
    if (requeue.kind === 'after') this.#queue.addAfter(key, requeue.afterMs);
    // A failure only a change (or an edit) can fix: our own status writes do not wake it (an invalid spec has
    // its memo, a held generation its record in status).
    if ((requeue.kind === 'onChange' || requeue.kind === 'onEdit') && result.result === 'error') this.#waiting.add(key);
    this.#wakeups.settled(key, mark, result.error);
    this.#repeats.settled(key, requeue.kind === 'backoff' ? result.error : undefined);
  }

  /** The cache's current object of a key: what its next reconcile reads. Exposed for tests and tools. */
  cached(key: string): KubeObject | undefined {
    const { namespace, name } = splitKey(key);
    return this.#primary.get(namespace, name);
  }

  /** One reconcile of one key, from the cache's current object. Exposed for tests and tools. */
  async reconcileKey(key: string): Promise<KeyReconcile<A>> {
    const { namespace, name } = splitKey(key);
    const object = this.#primary.get(namespace, name);
    if (object === undefined) return this.#inScope(key) ? this.#removeOrphans(key) : GONE;
    const logger = this.#logger.child({ key, reconcileId: this.#reconcileIds.next() });
    const generation = object.metadata.generation;
    // Reported already, and the spec is the same: nothing new to say.
    if (this.#invalid.has(key) && this.#invalid.get(key) === generation) return { result: 'invalid', requeue: { kind: 'onChange' } };

    const plans: { readonly plan: Plan<A>; readonly result: PlanResult }[] = [];
    let decided: P | undefined;
    const outcome = await runReconcile(this.#definition, object, {
      read: (queries) => this.#read(queries),
      run: (plan) => this.#run(plan, logger),
      config: this.#options.config,
      now: this.#options.now?.() ?? new Date(),
      entropy: lazyEntropy(this.#options.entropy ?? ((bytes) => randomBytes(bytes))),
      signal: this.#stopping.signal,
      hooks: {
        decided: (decision) => {
          if (decision.kind === 'invalid') {
            logger.warn('invalid spec', { problem: decision.failure.message });
            return;
          }
          this.#invalid.delete(key);
          decided = decision.primary;
          this.#track(key, decided);
          if (decision.kind === 'unreadable') this.#sayMissing(decision.error);
        },
        ran: (plan, result) => {
          plans.push({ plan, result });
          this.#options.observer?.onPlan?.(this.#definition.name, plan, result);
        },
        failed: (failure, next) => {
          // What it waits on while failing so is watched too, until it reconciles again.
          if (decided !== undefined) this.#track(key, decided, failure);
          // A stale view (often of our own write): the next attempt sees the newer object. Worth a debug line.
          if (!next.report) logger.debug('stale view of the object; retrying', { step: failure.step });
          else logger.warn('reconcile failed', { step: failure.step, reason: failure.reason, problem: failure.message, next: next.next });
        },
        reportFailed: (report) => logger.warn('could not record the failure in status', { problem: report.error?.message }),
      },
    });
    const ref = { type: this.#definition.primary.type, namespace, name };
    if ([...plans, ...(outcome.report === undefined ? [] : [outcome.report])].some(({ plan, result }) => wroteTo(plan, result, ref))) this.#ownWrites.wrote(key, object.metadata.resourceVersion);
    return this.#keyReconcile(key, generation, outcome, logger);
  }

  /** Watches what the primary refers to now (and, after `failure`, what it waits on while failing so). */
  #track(key: string, primary: P, failure?: PlanFailure): void {
    const referenced = this.#definition.referenced ?? [];
    this.#references.track(key, referenced.flatMap((watch) => watch.of(primary, this.#options.config, failure).map((ref) => ({ ...ref, type: watch.type, wakesOn: watch.wakesOn }))));
  }

  /** The driver's outcome as the work queue, tests and tools see it; an invalid spec reported is remembered. */
  #keyReconcile(key: string, generation: number | undefined, outcome: ReconcileOutcome<P, A>, logger: RuntimeLogger): KeyReconcile<A> {
    const { decision, result, error, next } = outcome;
    // Never a dry run here, so there is always a requeue.
    const requeue = outcome.requeue ?? { kind: 'backoff' };
    const ran = { requeue, ...('plan' in decision ? { plan: decision.plan } : {}), ...(result === undefined ? {} : { outcome: result }) };
    if (decision.kind === 'invalid') {
      if (result?.ok === true) this.#invalid.set(key, generation);
      return { result: result?.ok === true ? 'invalid' : 'error', ...ran };
    }
    if (outcome.stopped === true) {
      logger.info('stopped before the end of the plan; the next reconcile continues it', { skipped: result?.steps.filter((step) => step.outcome === 'skipped').length });
      return { result: 'error', ...ran };
    }
    if (error !== undefined) {
      return { result: 'error', ...ran, error, ...(next === undefined ? {} : { next }), ...(requeue.kind === 'after' ? { requeueAfterMs: requeue.afterMs } : {}) };
    }
    return { result: requeue.kind === 'after' ? 'requeue' : 'success', ...ran, ...(requeue.kind === 'after' ? { requeueAfterMs: requeue.afterMs } : {}) };
  }

  /** Reads an observe's queries with the API modules' answers, each query by the answer of its kind. */
  #read(queries: Q): Promise<Observed<Q>> {
    return runQueries(queries, this.#readQuery);
  }

  /** A read of a type whose CRD is not installed: said once per type; each object's status says it too. */
  #sayMissing(error: unknown): void {
    if (!(error instanceof TypeNotServed)) return;
    const crd = crdName(error.type);
    if (this.#saidMissing.has(crd)) return;
    this.#saidMissing.add(crd);
    this.#logger.error(`CRD ${crd} is not installed; the objects that read ${error.type.plural} fail until it is, and are retried with backoff`, { crd });
  }

  async #run(plan: Plan<A>, logger: RuntimeLogger): Promise<PlanResult> {
    return interpret(plan, this.#options.apis, {
      signal: this.#stopping.signal,
      readObject: this.#readObject,
      onStep: (step) => {
        this.#options.observer?.onStep?.(this.#definition.name, step);
        if (step.outcome === 'applied') logger.info(step.summary, { why: step.reason, step: step.id });
        else if (step.outcome === 'failed') {
          // A failure the error policy does not report (a write from a cache that lagged, a first creation
          // racing another) is expected and retried: worth a debug line, not a warning.
          const expected = step.error !== undefined && !errorPolicyOf(this.#definition)(step.error, step.kind).report;
          logger[expected ? 'debug' : 'warn'](`failed: ${step.summary}`, { why: step.reason, step: step.id, reason: step.error?.reason, problem: step.error?.message });
        }
      },
    });
  }
}
