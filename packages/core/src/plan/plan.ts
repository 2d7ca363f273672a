import type { ActionKind, ActionOf, Action, OutputsOf } from './registry.js';
import { outputRef, type OutputRef } from './values.js';

/** What to run if a later step fails, to undo a step (revoke the credential just created if storing it failed). */
export interface Compensation {
  readonly action: Action;
  readonly reason: string;
}

/** One step of a plan: an action, why it is needed, and optionally how to undo it. */
export interface Step<K extends ActionKind = ActionKind> {
  /** Unique within the plan; outputs are referred to by it. */
  readonly id: string;
  readonly action: ActionOf<K>;
  /** A short sentence for people: logs, events, `keyward plan`. */
  readonly reason: string;
  readonly compensation?: Compensation;
}

/** An ordered list of steps. Steps run in order; the first failure stops the plan. */
export interface Plan {
  readonly steps: readonly Step[];
}

export const emptyPlan: Plan = { steps: [] };

/** A step added to a builder: its id, and typed references to its outputs for later steps. */
export interface StepHandle<K extends ActionKind> {
  readonly id: string;
  output<O extends keyof OutputsOf<K> & string>(name: O): OutputRef<OutputsOf<K>[O]>;
}

/**
 * Builds a plan step by step. Ids are the step's position ("s1", "s2", ...), so equal decisions give equal
 * plans, which keeps reconcile functions pure and their results comparable in tests.
 */
export class PlanBuilder {
  readonly #steps: Step[] = [];

  add<K extends ActionKind>(
    action: ActionOf<K> & { readonly kind: K },
    reason: string,
    compensate?: (step: StepHandle<K>) => Compensation,
  ): StepHandle<K> {
    const id = `s${String(this.#steps.length + 1)}`;
    const handle: StepHandle<K> = { id, output: (name) => outputRef(id, name) };
    const compensation = compensate?.(handle);
    this.#steps.push(compensation === undefined ? { id, action, reason } : { id, action, reason, compensation });
    return handle;
  }

  get size(): number {
    return this.#steps.length;
  }

  build(): Plan {
    return { steps: [...this.#steps] };
  }
}

/** The earliest requeue the plan asks for, if any. */
export function requeueAfterMs(plan: Plan): number | undefined {
  let earliest: number | undefined;
  for (const step of plan.steps) {
    if (step.action.kind === 'control.requeueAfter' && (earliest === undefined || step.action.afterMs < earliest)) earliest = step.action.afterMs;
  }
  return earliest;
}

/** Whether the plan changes anything (a plan of requeues only changes nothing). */
export function changesAnything(plan: Plan): boolean {
  return plan.steps.some((step) => step.action.kind !== 'control.requeueAfter');
}
