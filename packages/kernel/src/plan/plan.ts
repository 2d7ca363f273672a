import type { AnyAction, OfKind, OutputsOf } from './actions.js';
import { REQUEUE_AFTER, type RequeueAfterAction } from '../apis/control/actions.js';
import { outputRef, type OutputRef } from './values.js';

/** What to run if a later step fails, to undo a step (revoke the credential just created if storing it failed). */
export interface Compensation<A extends AnyAction = AnyAction> {
  readonly action: A;
  readonly reason: string;
}

/** One step of a plan: an action, why it is needed, and optionally how to undo it. */
export interface Step<A extends AnyAction = AnyAction> {
  /** Unique within the plan; outputs are referred to by it. */
  readonly id: string;
  readonly action: A;
  /** A short sentence for people: logs, events, `keyward plan`. */
  readonly reason: string;
  readonly compensation?: Compensation<A>;
}

/** An ordered list of steps. Steps run in order; the first failure stops the plan. */
export interface Plan<A extends AnyAction = AnyAction> {
  readonly steps: readonly Step<A>[];
}

export const emptyPlan: Plan<never> = { steps: [] };

/** A step added to a builder: its id, and typed references to its outputs for later steps. */
export interface StepHandle<A extends AnyAction> {
  readonly id: string;
  output<O extends keyof OutputsOf<A> & string>(name: O): OutputRef<OutputsOf<A>[O]>;
}

/** Where a helper adds steps of `A`: any PlanBuilder whose vocabulary includes `A`. */
export interface PlanSteps<A extends AnyAction> {
  add(action: A, reason: string): unknown;
}

/**
 * Builds a plan step by step, from the actions of `A` only. Ids are the step's position ("s1", "s2", ...), so
 * equal decisions give equal plans, which keeps reconcile functions pure and their results comparable in tests.
 */
export class PlanBuilder<A extends AnyAction> {
  readonly #steps: Step<A>[] = [];

  add<K extends A['kind']>(
    action: OfKind<A, K> & { readonly kind: K },
    reason: string,
    compensate?: (step: StepHandle<OfKind<A, K>>) => Compensation<A>,
  ): StepHandle<OfKind<A, K>> {
    const id = `s${String(this.#steps.length + 1)}`;
    const handle: StepHandle<OfKind<A, K>> = { id, output: (name) => outputRef(id, name) };
    const compensation = compensate?.(handle);
    this.#steps.push(compensation === undefined ? { id, action, reason } : { id, action, reason, compensation });
    return handle;
  }

  get size(): number {
    return this.#steps.length;
  }

  build(): Plan<A> {
    return { steps: [...this.#steps] };
  }
}

function isRequeue(action: AnyAction): action is RequeueAfterAction {
  return action.kind === REQUEUE_AFTER;
}

/** The earliest requeue the plan asks for, if any. */
export function requeueAfterMs(plan: Plan): number | undefined {
  let earliest: number | undefined;
  for (const { action } of plan.steps) {
    if (isRequeue(action) && (earliest === undefined || action.afterMs < earliest)) earliest = action.afterMs;
  }
  return earliest;
}

/** Whether the plan changes anything (a plan of requeues only changes nothing). */
export function changesAnything(plan: Plan): boolean {
  return plan.steps.some((step) => !isRequeue(step.action));
}
