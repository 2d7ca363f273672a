import type { AnyAction } from '../plan/actions.js';
import type { Vocabulary } from '../plan/api.js';
import type { Plan, Step } from '../plan/plan.js';
import { applyFormat, isOutputRef, resolveTemplate, type OutputRef, type Value } from '../plan/values.js';
import { KeywardError, type KeywardErrorFields } from './errors.js';
import type { Executor, Handler, HandlerContext, PartialExecutor, PlanResult, StepOutcome, StepResult } from './types.js';

export interface InterpretOptions {
  /** Told about each step as it finishes (logs, metrics). */
  readonly onStep?: (result: StepResult) => void;
  /**
   * Once aborted, no further step starts (the one running finishes): the plan ends as failed with reason
   * "Stopped" and runs no compensation, as if the process had died there. For a quick shutdown; whatever a
   * plan leaves half done, the next reconcile finds, as after a crash.
   */
  readonly signal?: AbortSignal;
  /** Given to handlers (see HandlerContext.readObject): the running controller's cached reads. */
  readonly readObject?: HandlerContext['readObject'];
}

/** The reason of a plan that stopped because its signal was aborted. */
export const STOPPED = 'Stopped';

function stoppedError(): KeywardError {
  return new KeywardError({ api: 'keyward', code: 0, reason: STOPPED, message: 'not started: the controller is stopping', retryable: true });
}

/** Any thrown value as a KeywardError; unexpected ones keep only their message. */
export function toKeywardError(error: unknown): KeywardError {
  if (error instanceof KeywardError) return error;
  return new KeywardError({
    api: 'keyward',
    code: 0,
    reason: 'InternalError',
    message: error instanceof Error ? error.message : String(error),
    // A bug in a handler: trying the same again gives the same.
    retryable: false,
  });
}

function errorFields(error: KeywardError): KeywardErrorFields {
  const { api, code, reason, message, retryable, retryAfterMs } = error;
  return { api, code, reason, message, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

class Outputs implements HandlerContext {
  readonly #byStep = new Map<string, Readonly<Record<string, unknown>>>();
  readonly readObject: HandlerContext['readObject'];

  constructor(readObject: HandlerContext['readObject']) {
    this.readObject = readObject;
  }

  record(step: string, outputs: object): void {
    this.#byStep.set(step, outputs as Readonly<Record<string, unknown>>);
  }

  lookup(ref: OutputRef<unknown>): unknown {
    const outputs = this.#byStep.get(ref.step);
    if (outputs === undefined || !(ref.output in outputs)) {
      throw new KeywardError({ api: 'keyward', code: 0, reason: 'InvalidPlan', message: `step ${ref.step} produced no output "${ref.output}"`, retryable: false });
    }
    return outputs[ref.output];
  }

  /**
   * `action` as a log line may show it once its step ran: each reference to an output that is known by now and
   * is plain text or a number replaced by that value (as formatted), so "create Secret ns/(known after apply)"
   * reads "create Secret ns/ac-x-1a2b3-secret". Other outputs (sensitive values, objects) stay references.
   */
  shown<A extends AnyAction>(action: A): A {
    const show = (value: unknown): unknown => {
      if (isOutputRef(value)) {
        const known = this.#byStep.get(value.step)?.[value.output];
        return typeof known === 'string' || typeof known === 'number' ? applyFormat(value, typeof known === 'number' ? String(known) : known) : value;
      }
      if (Array.isArray(value)) return value.map(show);
      if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
        return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, show(inner)]));
      }
      return value;
    };
    return show(action) as A;
  }

  resolve<T>(value: Value<T>): T {
    return isOutputRef(value) ? (applyFormat(value, this.lookup(value)) as T) : value;
  }

  resolveTemplate(template: Parameters<HandlerContext['resolveTemplate']>[0]): ReturnType<HandlerContext['resolveTemplate']> {
    return resolveTemplate(template, (ref) => this.lookup(ref));
  }
}

function result<A extends AnyAction>(vocabulary: Vocabulary<A, never>, step: Pick<Step<A>, 'id' | 'reason' | 'action'>, outcome: StepOutcome, durationMs: number, error?: KeywardError, outputs?: Outputs): StepResult {
  return {
    id: step.id,
    kind: step.action.kind,
    summary: vocabulary.describe(outputs === undefined ? step.action : outputs.shown(step.action)),
    reason: step.reason,
    outcome,
    durationMs,
    ...(error === undefined ? {} : { error: errorFields(error) }),
  };
}

async function runAction<A extends AnyAction>(executor: Executor<A> | PartialExecutor<A>, action: A, outputs: Outputs): Promise<{ outcome: 'applied' | 'unchanged'; outputs: object }> {
  // The table is keyed by kind, so the handler found matches the action's own type. A plan built against
  // the types of a complete table cannot miss one; a plan read from elsewhere, or a partial table, can.
  const table: object = executor.handlers;
  const handler = (table as Readonly<Record<string, Handler<A> | undefined>>)[action.kind];
  if (handler === undefined) {
    throw new KeywardError({ api: 'keyward', code: 0, reason: 'InvalidPlan', message: `no handler for ${action.kind}`, retryable: false });
  }
  return handler(action, outputs);
}

/**
 * Runs a plan's steps in order with the given handlers. The first failure stops the plan: later steps are
 * "skipped", and the compensations of steps that already applied run in reverse order (not when the plan
 * was stopped by its signal).
 */
export async function interpret<A extends AnyAction>(plan: Plan<A>, executor: Executor<A> | PartialExecutor<A>, options: InterpretOptions = {}): Promise<PlanResult> {
  const outputs = new Outputs(options.readObject);
  const results: StepResult[] = [];
  const applied: Step<A>[] = [];
  let failure: KeywardError | undefined;
  let stopped = false;

  for (const step of plan.steps) {
    if (failure === undefined && options.signal?.aborted === true) {
      failure = stoppedError();
      stopped = true;
    }
    if (failure !== undefined) {
      results.push(result(executor.vocabulary, step, 'skipped', 0));
      continue;
    }
    const started = Date.now();
    try {
      const done = await runAction(executor, step.action, outputs);
      outputs.record(step.id, done.outputs);
      if (done.outcome === 'applied') applied.push(step);
      results.push(result(executor.vocabulary, step, done.outcome, Date.now() - started, undefined, outputs));
    } catch (error) {
      failure = toKeywardError(error);
      results.push(result(executor.vocabulary, step, 'failed', Date.now() - started, failure, outputs));
    }
    const last = results[results.length - 1];
    if (last !== undefined) options.onStep?.(last);
  }

  const compensations: StepResult[] = [];
  if (failure !== undefined && !stopped) {
    for (const step of [...applied].reverse()) {
      if (step.compensation === undefined) continue;
      const compensating = { id: `${step.id}-compensation`, action: step.compensation.action, reason: step.compensation.reason };
      const started = Date.now();
      try {
        const done = await runAction(executor, compensating.action, outputs);
        compensations.push(result(executor.vocabulary, compensating, done.outcome, Date.now() - started));
      } catch (error) {
        compensations.push(result(executor.vocabulary, compensating, 'failed', Date.now() - started, toKeywardError(error)));
      }
      const last = compensations[compensations.length - 1];
      if (last !== undefined) options.onStep?.(last);
    }
  }

  return {
    ok: failure === undefined,
    steps: results,
    compensations,
    ...(failure === undefined ? {} : { error: errorFields(failure) }),
  };
}

/** A dry run: every step reported as "planned", nothing executed. */
export function dryRun<A extends AnyAction>(plan: Plan<A>, vocabulary: Vocabulary<A, never>): PlanResult {
  return { ok: true, steps: plan.steps.map((step) => result(vocabulary, step, 'planned', 0)), compensations: [] };
}
