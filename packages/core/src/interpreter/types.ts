import type { ActionKind, ActionOf, OutputsOf } from '../plan/registry.js';
import type { Json, OutputRef, Template, Value } from '../plan/values.js';
import type { KeywardErrorFields } from './errors.js';

/** What became of one step. "planned" is a dry run's answer: it would run. */
export type StepOutcome = 'applied' | 'unchanged' | 'failed' | 'skipped' | 'planned';

export interface StepResult {
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly reason: string;
  readonly outcome: StepOutcome;
  readonly durationMs: number;
  readonly error?: KeywardErrorFields;
}

/** How a plan went: a result per step, and for a failed plan the compensations that ran. */
export interface PlanResult {
  readonly ok: boolean;
  readonly steps: readonly StepResult[];
  readonly compensations: readonly StepResult[];
  /** The first failure, when the plan failed. */
  readonly error?: KeywardErrorFields;
}

/** Given to handlers: substitutes outputs of earlier steps into the action's values. */
export interface HandlerContext {
  resolve<T>(value: Value<T>): T;
  /** Substitutes outputs and reveals sensitive values: only for bodies about to be sent. */
  resolveTemplate(template: Template): Json;
  lookup(ref: OutputRef<unknown>): unknown;
}

export interface HandlerResult<O> {
  readonly outcome: 'applied' | 'unchanged';
  readonly outputs: O;
}

export type Handler<K extends ActionKind> = (action: ActionOf<K>, context: HandlerContext) => Promise<HandlerResult<OutputsOf<K>>>;

/** A handler for every kind of the ActionRegistry: the compiler rejects a table that misses one. */
export type Handlers = { readonly [K in ActionKind]: Handler<K> };

/** Part of a handler table, as each API's module provides it. */
export type HandlerSet<K extends ActionKind> = { readonly [P in K]: Handler<P> };
