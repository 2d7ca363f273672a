import type { Plan } from '../plan/plan.js';
import type { ActionKind, ActionOf } from '../plan/registry.js';

/** The kinds of a plan's steps, in order: compact to assert on. */
export function actionKinds(plan: Plan): string[] {
  return plan.steps.map((step) => step.action.kind);
}

/** Every action of one kind in a plan, typed. */
export function actionsOf<K extends ActionKind>(plan: Plan, kind: K): ActionOf<K>[] {
  return plan.steps.filter((step) => step.action.kind === kind).map((step) => step.action as ActionOf<K>);
}

/** Whether a plan changes nothing (only requeues, or nothing at all). */
export function isQuiet(plan: Plan): boolean {
  return plan.steps.every((step) => step.action.kind === 'control.requeueAfter');
}
