import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { AnyAction } from '../plan/actions.js';
import type { ControllerDefinition, PlanFailure } from '../plan/controller.js';
import { requeueAfterMs, type Plan } from '../plan/plan.js';
import type { Observed, Queries } from '../plan/queries.js';
import { decide, type Decision } from '../plan/reconcile-once.js';
import { defaultErrorPolicy, type ErrorPolicy, type FailureResponse } from './error-policy.js';
import type { KeywardErrorFields } from './errors.js';
import { STOPPED, toKeywardError } from './interpret.js';
import type { PlanResult } from './types.js';
import { deferStatus, readBackPlan, withDeferredStatus, type Deferred } from './read-back.js';

/** When the object is reconciled again after this reconcile, besides when it or something it watches changes. */
export type Requeue =
  /** Nothing is due: the next change, or the periodic resync, brings the next reconcile. */
  | { readonly kind: 'done' }
  /** After a delay: the plan's requeueAfter, or a failure's Retry-After. */
  | { readonly kind: 'after'; readonly afterMs: number }
  /** A stale view (a Kubernetes Conflict): again soon, nothing reported. */
  | { readonly kind: 'now' }
  /** A failure that may pass: again after the key's growing backoff. */
  | { readonly kind: 'backoff' }
  /** A failure (or an invalid spec) that only a change can fix: not again until the object, or what it watches, changes. */
  | { readonly kind: 'onChange' }
  /**
   * A failure only an edit of the object can fix, recorded with its generation, or an object held so (see
   * ControllerDefinition.heldGeneration): whatever wakes it, nothing is read or sent until its generation changes.
   */
  | { readonly kind: 'onEdit' };

/** Where a reconcile reads and runs its plans: the runtime's caches and API modules, a sandbox, an in-memory world. */
export interface DriveTarget<Q extends Queries, A extends AnyAction> {
  readonly read: (queries: Q) => Promise<Observed<Q>>;
  readonly run: (plan: Plan<A>) => Promise<PlanResult>;
}

/** Told of a reconcile's moments, for what only its caller does (logs, metrics, caches). */
export interface DriveHooks<P, A extends AnyAction> {
  /** Right after deciding, before anything runs. */
  readonly decided?: (decision: Decision<P, A>) => void;
  /** The reconcile's own plan once it ran (not an invalid spec's report, nor a failure's). */
  readonly ran?: (plan: Plan<A>, result: PlanResult) => void;
  /** A failed read or plan and what the error policy says follows, before the failure is reported. */
  readonly failed?: (failure: PlanFailure, next: FailureResponse) => void;
  /** The report of a failure could not be written. */
  readonly reportFailed?: (result: PlanResult) => void;
}

export interface DriveOptions<P, Q extends Queries, C, A extends AnyAction> extends DriveTarget<Q, A> {
  readonly config: C;
  readonly now: Date;
  /** See ReconcileInput.entropy. */
  readonly entropy: (bytes: number) => Uint8Array;
  /** Decide only and run nothing: always, or for the decisions it returns true for. */
  readonly dryRun?: boolean | ((decision: Decision<P, A>) => boolean);
  /**
   * The signal the caller's `run` stops plans with: once it is aborted, a plan that stopped part-way is no
   * failure (nothing is reported; the next reconcile picks it up, as after a crash).
   */
  readonly signal?: AbortSignal;
  readonly hooks?: DriveHooks<P, A>;
}

/** A read-back within a reconcile: its decision and how its plan ran. */
export interface ReadBack<P, A extends AnyAction> {
  readonly decision: Decision<P, A>;
  readonly result: PlanResult;
}

/**
 * Read-backs in one reconcile, at most: changes that wait for a reading (a link to a scope the realm creation
 * made) are read back again, and a plan that still changes something after that many has its status written
 * as without them, for the next reconcile to go on.
 */
export const MAX_READ_BACKS = 3;

/** What one reconcile did and what follows it. */
export interface ReconcileOutcome<P, A extends AnyAction> {
  readonly decision: Decision<P, A>;
  /** How the plan (or the invalid spec's report) ran; absent on a dry run, when reading failed and when held. */
  readonly result?: PlanResult;
  /** The failure of the read or the plan. */
  readonly error?: KeywardErrorFields;
  /** After a failure: what the error policy decided. */
  readonly next?: FailureResponse;
  /** The failure report, when the error policy has it reported. */
  readonly report?: { readonly plan: Plan<A>; readonly result: PlanResult };
  /** The plan stopped part-way because the caller's signal was aborted. */
  readonly stopped?: true;
  /**
   * The reconciles that read the plan's changes back (see ControllerDefinition.readsBack), in order: each one's
   * decision and how its plan ran (without its status write, but for the last). `result` is then of the
   * reconcile's own plan without its status write.
   */
  readonly readBacks?: readonly ReadBack<P, A>[];
  /** Absent on a dry run. */
  readonly requeue?: Requeue;
}

/** The error policy a controller follows: its own, or the default. */
export function errorPolicyOf(definition: { readonly errorPolicy?: ErrorPolicy | undefined }): ErrorPolicy {
  return definition.errorPolicy ?? defaultErrorPolicy;
}

/** What the error policy's response means for the next reconcile; an edit is waited for only where the generation is recorded. */
function requeueAfterFailure(next: FailureResponse, recordsGeneration: boolean): Requeue {
  switch (next.next) {
    case 'retry': return { kind: 'now' };
    case 'backoff': return { kind: 'backoff' };
    case 'requeueAfter': return { kind: 'after', afterMs: next.afterMs };
    case 'waitForChange': return { kind: 'onChange' };
    case 'waitForEdit': return recordsGeneration ? { kind: 'onEdit' } : { kind: 'onChange' };
  }
}

/** The failure of a plan, as the reconciler is asked to report it: the step that failed and why. */
function planFailure(result: PlanResult, error: KeywardErrorFields): PlanFailure {
  const failed = result.steps.find((step) => step.outcome === 'failed');
  return { step: failed?.summary ?? 'unknown step', action: failed?.kind ?? 'unknown', reason: error.reason, message: error.message, retryable: error.retryable };
}

/**
 * Runs one reconcile of `object` to its outcome: decide (decode, observe, reconcile), run the plan, and after a
 * failure apply the controller's error policy, report the failure in status when it says so, and say when the
 * object is reconciled next; a generation that a recorded failure holds is neither planned nor sent again.
 * The one driver of the loop: the runtime, the test kit, `converge` and `keyward plan` all call it, each with
 * its own reads and runner, so they cannot drift apart.
 */
export async function runReconcile<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  object: KubeObject,
  options: DriveOptions<P, Q, C, A>,
): Promise<ReconcileOutcome<P, A>> {
  const { config, now, hooks } = options;
  const decision = await decide(definition, object, { read: options.read, config, now, entropy: options.entropy });
  hooks?.decided?.(decision);
  if (options.dryRun === true || (typeof options.dryRun === 'function' && options.dryRun(decision))) return { decision };

  const fail = async (failure: PlanFailure, error: KeywardErrorFields, primary: P, result?: PlanResult): Promise<ReconcileOutcome<P, A>> => {
    const next = errorPolicyOf(definition)(error, failure.action);
    hooks?.failed?.(failure, next);
    const ran = { decision, ...(result === undefined ? {} : { result }), error, next, requeue: requeueAfterFailure(next, definition.heldGeneration !== undefined) };
    // A stale view: nothing is wrong, and reporting it would only make the status flap.
    if (!next.report) return ran;
    const plan = definition.reportFailure(primary, failure, now, config);
    const reported = await options.run(plan);
    if (!reported.ok) hooks?.reportFailed?.(reported);
    return { ...ran, report: { plan, result: reported } };
  };

  // A recorded failure holds this generation: nothing was read, and nothing runs until the object is edited.
  if (decision.kind === 'held') return { decision, requeue: { kind: 'onEdit' } };
  if (decision.kind === 'invalid') {
    // Reported once, the spec waits for a change; a report that could not be written is tried again.
    const result = await options.run(decision.plan);
    return { decision, result, requeue: result.ok ? { kind: 'onChange' } : { kind: 'backoff' } };
  }
  if (decision.kind === 'unreadable') {
    const error = toKeywardError(decision.error);
    const failure = { step: 'read the current state', action: 'observe', reason: error.reason, message: error.message, retryable: error.retryable };
    return fail(failure, error, decision.primary);
  }
  const { plan, primary } = decision;
  const run = async (ran: Plan<A>): Promise<PlanResult> => {
    const result = await options.run(ran);
    hooks?.ran?.(ran, result);
    return result;
  };
  /** What follows a run: the requeue `plan` asks for, or the failure, reported from the stored object. */
  const settle = async (asked: Plan<A>, result: PlanResult, said: Pick<ReconcileOutcome<P, A>, 'result' | 'readBacks'>): Promise<ReconcileOutcome<P, A>> => {
    if (result.ok) {
      const afterMs = requeueAfterMs(asked);
      return { decision, ...said, requeue: afterMs === undefined ? { kind: 'done' } : { kind: 'after', afterMs } };
    }
    const error = result.error ?? toKeywardError(new Error('the plan failed without an error'));
    if (error.reason === STOPPED && options.signal?.aborted === true) return { decision, ...said, error, stopped: true, requeue: { kind: 'backoff' } };
    return { ...(await fail(planFailure(result, error), error, primary, result)), ...said };
  };
  const deferring = (candidate: Plan<A>) => (definition.readsBack?.(candidate) === true ? deferStatus(candidate, definition.primary.type, object) : undefined);

  const initial = deferring(plan);
  if (initial === undefined) {
    const result = await run(plan);
    return settle(plan, result, { result });
  }
  const first = await run(initial.first);
  if (!first.ok) return settle(plan, first, { result: first });
  const readBacks: ReadBack<P, A>[] = [];
  let deferred: Deferred<A> = initial;
  let asked: Plan<A> = plan;
  for (let count = 1; ; count++) {
    // Read back from the object as the plans so far leave it; when that cannot be read, their status is written.
    const again: Decision<P, A> = await decide(definition, withDeferredStatus(object, deferred), { read: options.read, config, now, entropy: options.entropy });
    if (again.kind !== 'planned') return settle(asked, await run({ steps: [deferred.status] }), { result: first, readBacks });
    const next: Plan<A> = readBackPlan(again.plan, definition.primary.type, object, deferred);
    const more: Deferred<A> | undefined = count < MAX_READ_BACKS ? deferring(next) : undefined;
    const result = await run(more?.first ?? next);
    readBacks.push({ decision: { ...again, plan: next }, result });
    if (more === undefined || !result.ok) return settle(next, result, { result: first, readBacks });
    deferred = more;
    asked = next;
  }
}

/** What removing a gone object's orphans did, and when its key runs again. */
export interface OrphanRemoval {
  /** The last failure, when a removal failed. */
  readonly error?: KeywardErrorFields;
  readonly requeue: Requeue;
}

/**
 * Removes what a gone primary object left behind (ControllerDefinition.orphans): `orphaned` plans each removal
 * and `run` runs it. A removal that failed is tried again after the key's growing backoff: with the owner gone,
 * no change of it can say when.
 */
export async function removeOrphans<A extends AnyAction>(
  objects: readonly KubeObject[],
  orphaned: (object: KubeObject) => Plan<A>,
  run: (plan: Plan<A>, object: KubeObject) => Promise<PlanResult>,
): Promise<OrphanRemoval> {
  let error: KeywardErrorFields | undefined;
  let anyFailed = false;
  for (const object of objects) {
    const result = await run(orphaned(object), object);
    if (result.ok) continue;
    anyFailed = true;
    error = result.error ?? error;
  }
  if (!anyFailed) return { requeue: { kind: 'done' } };
  return { ...(error === undefined ? {} : { error }), requeue: { kind: 'backoff' } };
}
