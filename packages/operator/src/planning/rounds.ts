import { changesAnything, decide, runQueries, type AnyAction, type ControllerDefinition, type KubeObject, type Plan, type Queries } from '@keyward/core';
import { interpret, toKeywardError, type Executor, type HandlerTable } from '@keyward/core/interpreter';
import { fixedEntropy } from '@keyward/core/testing';
import type { KubeSandbox } from './sandbox.js';

/** Why the reconciles shown end where they do. */
export type RoundsEnd =
  /** The last plan changes nothing: the object has converged. */
  | { readonly kind: 'quiet' }
  /** The round limit was reached with changes still planned. */
  | { readonly kind: 'limit'; readonly rounds: number }
  /** The last plan deletes the object. */
  | { readonly kind: 'gone' }
  /** The last plan uses an API whose effect the sandbox cannot show; what follows depends on it. */
  | { readonly kind: 'notSimulated'; readonly api: string }
  /** A step of the last plan failed in the sandbox (as it may on the cluster). */
  | { readonly kind: 'failed'; readonly message: string }
  /** After the last plan, the object no longer decodes, or its reads fail. */
  | { readonly kind: 'invalid' | 'unreadable'; readonly message: string };

/** What `keyward plan` found for one object. */
export type ObjectOutcome =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'unreadable'; readonly message: string }
  /** The plan of each reconcile in order, the first being what the controller would do now. */
  | { readonly kind: 'planned'; readonly plans: readonly Plan[]; readonly end: RoundsEnd };

export interface RoundsOptions<C> {
  readonly config: C;
  readonly now: Date;
  /** Reconciles planned at most. */
  readonly maxRounds: number;
  readonly sandbox: KubeSandbox;
  /** Sandbox handlers of the APIs besides Kubernetes whose effects can be shown (Keystone, control). */
  readonly handlers: Readonly<Record<string, unknown>>;
}

/**
 * The reconciles the controller would run on `object`, one after the other, as the runtime would run them:
 * each plan is decided from what the sandbox holds (the cluster, plus the writes of the plans before), then
 * applied to the sandbox, until a plan changes nothing, the object is gone, a plan uses an API the sandbox
 * cannot show, or `maxRounds` is reached. Nothing is written anywhere but the sandbox.
 */
export async function planRounds<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  object: KubeObject,
  options: RoundsOptions<C>,
): Promise<ObjectOutcome> {
  const { sandbox, config, now } = options;
  const ref = { type: definition.primary.type, namespace: object.metadata.namespace, name: object.metadata.name };
  const handlers = { ...options.handlers, ...sandbox.handlers() };
  // The table holds a handler for every kind a plan may use, or the plan stops before running (below).
  const executor: Executor<A> = { handlers: handlers as unknown as HandlerTable<A>, vocabulary: definition.apis };
  const plans: Plan<A>[] = [];
  const ended = (end: RoundsEnd): ObjectOutcome => ({ kind: 'planned', plans, end });
  let current = object;
  for (let round = 1; ; round++) {
    const decision = await decide(definition, current, { read: (queries) => runQueries(queries, (query) => sandbox.read(query)), config, now, entropy: fixedEntropy() });
    if (decision.kind === 'invalid') return plans.length === 0 ? { kind: 'invalid', message: decision.failure.message } : ended({ kind: 'invalid', message: decision.failure.message });
    if (decision.kind === 'unreadable') {
      const message = toKeywardError(decision.error).message;
      return plans.length === 0 ? { kind: 'unreadable', message } : ended({ kind: 'unreadable', message });
    }
    plans.push(decision.plan);
    if (!changesAnything(decision.plan)) return ended({ kind: 'quiet' });
    if (round >= options.maxRounds) return ended({ kind: 'limit', rounds: round });
    const unsimulated = decision.plan.steps.find((step) => !(step.action.kind in handlers));
    if (unsimulated !== undefined) return ended({ kind: 'notSimulated', api: unsimulated.action.kind.split('.')[0] ?? unsimulated.action.kind });
    const result = await interpret(decision.plan, executor);
    if (!result.ok) {
      const failed = result.steps.find((step) => step.outcome === 'failed');
      return ended({ kind: 'failed', message: `${failed?.summary ?? 'a step'}: ${result.error?.message ?? 'failed'}` });
    }
    const next = await sandbox.get(ref);
    if (next === undefined) return ended({ kind: 'gone' });
    current = next;
  }
}
