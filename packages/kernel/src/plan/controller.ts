import type { Either } from 'fp-ts/lib/Either.js';
import type { DecodeFailure } from '../model/codec.js';
import type { ResourceType } from '../model/refs.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { AnyAction } from './actions.js';
import type { Vocabulary } from './api.js';
import type { ErrorPolicy } from '../interpreter/error-policy.js';
import type { Plan } from './plan.js';
import type { Observed, Queries, QueryIn } from './queries.js';

/** What a reconcile function gets: only data. Time and randomness are inputs, so the function stays pure. */
export interface ReconcileInput<P, Q extends Queries, C> {
  readonly primary: P;
  readonly observed: Observed<Q>;
  readonly now: Date;
  readonly config: C;
  /**
   * This reconcile's random bytes (credential name suffixes, keys): the first `bytes` of them, the same ones
   * on every call with the same length. Fixed in tests (see fixedEntropy).
   */
  readonly entropy: (bytes: number) => Uint8Array;
}

/** A failed plan, as the reconciler sees it when asked to describe the failure in status. */
export interface PlanFailure {
  /** The step that failed, in the words of describeAction. */
  readonly step: string;
  /** Its action kind, or "observe" when reading the current state failed. */
  readonly action: string;
  readonly reason: string;
  /** Safe for status and events: built from API reasons and names, never from secrets. */
  readonly message: string;
  readonly retryable: boolean;
}

/** Another kind the controller watches, and how its objects lead to primary objects. */
export interface SecondaryWatch {
  readonly type: ResourceType;
  /** Watch this namespace instead of the controller's (objects a controller keeps in one place, like enforcement Secrets). */
  readonly namespace?: string;
  /** Narrows the watch (and the cache) to objects with these labels. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Keys ("namespace/name") of the primary objects to reconcile when this object changes. Pure. */
  readonly mapToPrimary: (object: KubeObject) => readonly string[];
}

/**
 * A controller as data: what it watches and the pure functions that decide. The runtime in
 * @keyward/runtime/controller runs it; a test can call the functions directly.
 */
export interface ControllerDefinition<P extends KubeObject, Q extends Queries, C, A extends AnyAction = AnyAction> {
  readonly name: string;
  /**
   * The APIs whose actions its plans use and whose queries its observe asks (kubernetesApi, keystoneApi, ...):
   * how its plans are described, and what the runtime it runs in must be able to handle.
   */
  readonly apis: Vocabulary<A, QueryIn<Q>>;
  readonly primary: {
    readonly type: ResourceType;
    /** Validates and defaults an object; a Left is an invalid spec (terminal until the object changes). */
    readonly decode: (object: KubeObject) => Either<DecodeFailure, P>;
  };
  /** Other kinds to watch; may depend on the operator's configuration (a namespace, say). */
  readonly secondary: (config: C) => readonly SecondaryWatch[];
  /** What to read before deciding. Pure. */
  readonly observe: (primary: P, config: C) => Q;
  /** What to do. Pure. */
  readonly reconcile: (input: ReconcileInput<P, Q, C>) => Plan<A>;
  /** The status (and event) that reports a failed read or plan. Pure. */
  readonly reportFailure: (primary: P, failure: PlanFailure, now: Date, config: C) => Plan<A>;
  /** What follows a failed reconcile (retry, back off, wait for a change); defaultErrorPolicy when absent. */
  readonly errorPolicy?: ErrorPolicy;
  /**
   * The generation a failure that waits for an edit (the policy's waitForEdit) left recorded in the object's
   * status by reportFailure, if any. While the object is at that generation and not being deleted, it is
   * neither read nor planned: nothing is sent again, whatever wakes it, after a restart too. Pure.
   */
  readonly heldGeneration?: (primary: P) => number | undefined;
  /** The status (and event) that reports an invalid spec. Pure. */
  readonly reportInvalid: (object: KubeObject, failure: DecodeFailure, now: Date) => Plan<A>;
  /**
   * Objects a primary names but does not own and that carry no labels of ours (a password Secret, a
   * consumer's Secret): watched while some primary refers to them, one watch per type and namespace however
   * many are named there (objects no primary names are held without their content), and a change wakes the
   * primaries that name the object. Without a name, every object of the type in the namespace is referred to
   * (another operator's objects a primary finds by namespace, such as KeystoneAPI). Reads of them are
   * answered from these watches once they have listed. `failure` is why the reconcile just failed, when it
   * did: what an object waits on while it fails so (the operator's own credentials Secret, say) is watched
   * until it reconciles again. Pure.
   */
  readonly referenced?: readonly {
    readonly type: ResourceType;
    readonly of: (primary: P, config: C, failure?: PlanFailure) => readonly { readonly namespace: string; readonly name?: string }[];
    /**
     * Which updates of a referenced object wake the primaries that refer to it: what they read of it changed.
     * Every update does when absent; an object that appears or goes away always does. Pure.
     */
    readonly wakesOn?: (before: KubeObject, after: KubeObject) => boolean;
  }[];
  /**
   * Objects of a secondary watch that belong to a primary object by name rather than by owner reference
   * (owner references cannot cross namespaces). When the owner is gone (deleted while watched, or missing at
   * start-up and every resync) `orphaned` plans their removal. Pure.
   */
  readonly orphans?: {
    /** Index into `secondary(config)`. */
    readonly watch: number;
    /** The key ("namespace/name") of the primary object an object belongs to, if it is one of ours. */
    readonly ownerOf: (object: KubeObject) => string | undefined;
    readonly orphaned: (object: KubeObject, owner: string) => Plan<A>;
  };
  /**
   * Reconciles of one namespace's objects running at once, at most, when its plans spend a budget charged by
   * namespace (a server's per-namespace rate limit): more would only hold workers, and their requests
   * would queue past that limiter's longest wait. Unlimited (up to the concurrency) when absent.
   */
  readonly maxInFlightPerNamespace?: (config: C) => number;
  /**
   * Its periodic resync, spread: every object is checked again once per this many milliseconds, one at a time
   * through the process's one resync loop (with jitter), rather than all at once; 0 turns the periodic check
   * off. Absent: all objects are enqueued together every resync period of the runtime.
   */
  readonly spreadResyncMs?: (config: C) => number;
  /**
   * Plans whose changes are read back in the same reconcile: once such a plan ran, the object is observed and
   * reconciled again, from the status the plan states, and only that second plan's status is written (or the
   * first's, when the second states none or cannot read). For a status that says Ready only once what was
   * changed was read back: it saves the status write that would say the changes are under way. Only a plan
   * with one status write of the primary, known before it runs, is read back. Pure.
   */
  readonly readsBack?: (plan: Plan<A>) => boolean;
}
