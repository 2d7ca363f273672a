import { describeRef, type ObjectRef } from '../model/refs.js';
import type { AnyAction } from '../plan/actions.js';
import type { ControllerDefinition } from '../plan/controller.js';
import { changesAnything, type Plan } from '../plan/plan.js';
import type { Observed, Queries } from '../plan/queries.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import { runReconcile, type ReconcileOutcome } from '../interpreter/drive.js';
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
  /** Decide only: run nothing. */
  readonly dryRun?: boolean;
}

/** See ReconcileOutcome: the decision, how its plan ran, and after a failure the policy's answer and report. */
export type ReconcileOnceResult<P, A extends AnyAction> = ReconcileOutcome<P, A>;

async function current(target: Pick<ReconcileTarget<AnyAction>, 'get'>, object: KubeObject | ObjectRef): Promise<KubeObject> {
  const found = 'metadata' in object ? object : await target.get(object);
  if (found === undefined) throw new Error(`${describeRef(object as ObjectRef)} does not exist`);
  return found;
}

/**
 * One reconcile as the runtime does it (the same driver): decode, observe, reconcile, run the plan, and after a
 * failure what the controller's error policy says (a stale view is not reported; other failures are, in
 * status). For tests, examples and tools.
 */
export async function reconcileOnce<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  target: ReconcileTarget<A>,
  object: KubeObject | ObjectRef,
  options: ReconcileOnceOptions<C>,
): Promise<ReconcileOnceResult<P, A>> {
  return runReconcile(definition, await current(target, object), {
    read: (queries) => target.read(queries),
    run: (plan) => target.run(plan),
    config: options.config,
    now: options.now ?? new Date(),
    entropy: options.entropy ?? fixedEntropy(),
    ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
  });
}

export interface ConvergeOptions<C> {
  readonly config: C;
  /** The time of each reconcile; default: the current time. */
  readonly now?: () => Date;
  /** The random bytes of the n-th reconcile (from 1); default: fixedEntropy() for all. */
  readonly entropy?: (round: number) => (bytes: number) => Uint8Array;
  /** Reconciles at most; default 8. */
  readonly maxRounds?: number;
  /** Runs after each reconcile that is followed by another (a clock moves on, other controllers act). */
  readonly between?: (round: number) => Promise<void> | void;
}

/**
 * Reconciles `ref` as the runtime would, one reconcile after the other, until a plan changes nothing or the
 * outcome leaves nothing to retry (a failure that waits for a change or an edit, an invalid spec); every round's
 * decision and outcome, in order. Fails when `maxRounds` reconciles have not settled it.
 */
export async function converge<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  target: ReconcileTarget<A>,
  ref: ObjectRef,
  options: ConvergeOptions<C>,
): Promise<readonly ReconcileOnceResult<P, A>[]> {
  const maxRounds = options.maxRounds ?? 8;
  const rounds: ReconcileOnceResult<P, A>[] = [];
  for (let round = 1; round <= maxRounds; round++) {
    const object = await target.get(ref);
    if (object === undefined && round > 1) return rounds;
    const outcome = await reconcileOnce(definition, target, object ?? ref, {
      config: options.config,
      now: options.now?.() ?? new Date(),
      ...(options.entropy === undefined ? {} : { entropy: options.entropy(round) }),
    });
    // Each read-back is a round of its own: its plan is what the next reconcile would have planned without it.
    const { readBacks = [], ...own } = outcome;
    const ran = [own, ...readBacks];
    const last = { ...own, ...ran[ran.length - 1] };
    rounds.push(...ran.slice(0, -1).map(({ decision, result }) => ({ decision, ...(result === undefined ? {} : { result }) })), last);
    const { decision, requeue } = last;
    const quiet = decision.kind === 'planned' && last.result?.ok === true && !changesAnything(decision.plan);
    if (quiet || requeue?.kind === 'onChange' || requeue?.kind === 'onEdit') return rounds;
    if (round < maxRounds) await options.between?.(round);
  }
  throw new Error(`${describeRef(ref)} did not converge in ${String(maxRounds)} reconciles`);
}
