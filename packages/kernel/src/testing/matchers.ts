import type { AnyAction, OfKind } from '../plan/actions.js';
import { changesAnything, type Plan } from '../plan/plan.js';

/** The kinds of a plan's steps, in order: compact to assert on. */
export function actionKinds(plan: Plan): string[] {
  return plan.steps.map((step) => step.action.kind);
}

/** Every action of one kind in a plan, typed. */
export function actionsOf<A extends AnyAction, K extends A['kind']>(plan: Plan<A>, kind: K): OfKind<A, K>[] {
  return plan.steps.map((step) => step.action).filter((action): action is OfKind<A, K> => action.kind === kind);
}

/** Whether a plan changes nothing (only requeues, or nothing at all). */
export function isQuiet(plan: Plan): boolean {
  return !changesAnything(plan);
}
