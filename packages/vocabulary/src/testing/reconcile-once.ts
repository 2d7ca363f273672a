import { describeRef, type ObjectRef } from '../model/refs.js';
import type { AnyAction } from '../plan/actions.js';
import type { ControllerDefinition, PlanFailure } from '../plan/controller.js';
import type { Plan } from '../plan/plan.js';
import type { Observed, Queries } from '../plan/queries.js';
import { decide, type Decision } from '../plan/reconcile-once.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import { defaultErrorPolicy, type FailureResponse } from '../interpreter/error-policy.js';
import { toKeywardError } from '../interpreter/interpret.js';
import type { PlanResult } from '../interpreter/types.js';
import { fixedEntropy } from './clock.js';

/** Where a reconcile reads and acts: an in-memory world, or a real cluster with its API modules. */
export interface ReconcileTarget<A extends AnyAction> {
  readonly get: (ref: ObjectRef) => Promise<KubeObject | undefined> | KubeObject | undefined;
  readonly read: <Q extends Queries>(queries: Q) => Promise<Observed<Q>>;
  readonly run: (plan: Plan<A>) => Promise<PlanResult>;
}

export interface ReconcileOnceOptions<C> {
  readonly config: C;
  /** Default: the current time. */
  readonly now?: Date;
  /** Default: fixedEntropy(). */
  readonly entropy?: (bytes: number) => Uint8Array;
  /** Decide only: run nothing (what `keyward plan` does). */
  readonly dryRun?: boolean;
}

export interface ReconcileOnceResult<P, A extends AnyAction> {
  readonly decision: Decision<P, A>;
  /** How the plan (or the invalid-spec report) ran; absent on a dry run and when reading failed. */
  readonly result?: PlanResult;
  /** After a failure: what the error policy decided, and the failure report that ran if it is reported. */
  readonly next?: FailureResponse;
  readonly report?: { readonly plan: Plan<A>; readonly result: PlanResult };
}

/**
 * One reconcile as the runtime does it: decode, observe, reconcile, run the plan, and after a failure what the
 * controller's error policy says (a stale view is not reported; other failures are, in status). For tests,
 * examples and tools; the runtime runs the same `decide` with its caches and backoff around it.
 */
export async function reconcileOnce<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  target: ReconcileTarget<A>,
  object: KubeObject | ObjectRef,
  options: ReconcileOnceOptions<C>,
): Promise<ReconcileOnceResult<P, A>> {
  const now = options.now ?? new Date();
  const current = 'metadata' in object ? object : await target.get(object);
  if (current === undefined) throw new Error(`${describeRef(object as ObjectRef)} does not exist`);
  const decision = await decide(definition, current, { read: (queries) => target.read(queries), config: options.config, now, entropy: options.entropy ?? fixedEntropy() });
  if (options.dryRun === true) return { decision };
  if (decision.kind === 'invalid') return { decision, result: await target.run(decision.plan) };
  const failureOf = async (failure: PlanFailure, next: FailureResponse) => {
    if (!next.report) return undefined;
    const plan = definition.reportFailure(decision.primary, failure, now, options.config);
    return { plan, result: await target.run(plan) };
  };
  const policy = definition.errorPolicy ?? defaultErrorPolicy;
  if (decision.kind === 'unreadable') {
    const error = toKeywardError(decision.error);
    const next = policy(error);
    const report = await failureOf({ step: 'read the current state', action: 'observe', reason: error.reason, message: error.message, retryable: error.retryable }, next);
    return { decision, next, ...(report === undefined ? {} : { report }) };
  }
  const result = await target.run(decision.plan);
  if (result.ok || result.error === undefined) return { decision, result };
  const failed = result.steps.find((step) => step.outcome === 'failed');
  const next = policy(result.error);
  const { reason, message, retryable } = result.error;
  const report = await failureOf({ step: failed?.summary ?? 'unknown step', action: failed?.kind ?? 'unknown', reason, message, retryable }, next);
  return { decision, result, next, ...(report === undefined ? {} : { report }) };
}
