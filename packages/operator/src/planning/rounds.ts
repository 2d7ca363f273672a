import { changesAnything, emptyPlan, runQueries, type Queries } from '@keyward/kernel/plan';
import { type AnyAction, type ControllerDefinition, type KubeObject, type Plan, runReconcile } from '@keyward/kernel';
import { interpret, toKeywardError, type ErasedHandler, type Requeue } from '@keyward/kernel/interpreter';
import { fixedEntropy } from '@keyward/kernel/testing';
import { readyCondition, type ReadyCondition } from './conditions.js';
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
  /**
   * A step of the last plan failed in the sandbox (as it will on the cluster: a Secret read refused, say); the
   * failure was reported there as the controller's error policy says (`reported`: the Ready condition the
   * controller writes then), and `then` says what the controller does next.
   */
  | {
    readonly kind: 'failed';
    /** The failed step: its number in the plan (from 1) and what it does. */
    readonly step: number;
    readonly summary: string;
    readonly reason: string;
    readonly message: string;
    readonly then: string;
    readonly reported?: ReadyCondition;
  }
  /**
   * A failure recorded in status holds the object's `generation` (Keycloak refused that spec, say): the
   * controller reads and sends nothing for it until the object is edited.
   */
  | { readonly kind: 'held'; readonly generation: number }
  /** After the last plan, the object no longer decodes. */
  | { readonly kind: 'invalid'; readonly message: string }
  /** After the last plan, the object's reads fail. */
  | { readonly kind: 'unreadable'; readonly reason: string; readonly message: string };

/** What `keyward plan` found for one object. */
export type ObjectOutcome =
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'unreadable'; readonly reason: string; readonly message: string }
  /** The plan of each reconcile in order, the first being what the controller would do now. */
  | { readonly kind: 'planned'; readonly plans: readonly Plan[]; readonly end: RoundsEnd };

/** Whether the reconciles shown for an object end in a failure (a refused step or read, an invalid spec): it would not converge. */
export function failsToConverge(outcome: ObjectOutcome): boolean {
  return outcome.kind !== 'planned' || outcome.end.kind === 'failed' || outcome.end.kind === 'invalid' || outcome.end.kind === 'unreadable';
}

export interface RoundsOptions<C> {
  readonly config: C;
  readonly now: Date;
  /** Reconciles planned at most. */
  readonly maxRounds: number;
  readonly sandbox: KubeSandbox;
  /** Sandbox handlers of the APIs besides Kubernetes whose effects can be shown (Keystone, control). */
  readonly handlers: SandboxHandlers;
}

/** Handlers that act on a plan's sandbox, by kind: the kinds a sandbox cannot show have none. */
export type SandboxHandlers = Readonly<Record<string, ErasedHandler>>;

/** The API of the first step of `plan` that the sandbox cannot show, if any. */
function unsimulatedApi(plan: Plan, handlers: SandboxHandlers): string | undefined {
  const step = plan.steps.find((candidate) => !(candidate.action.kind in handlers));
  return step === undefined ? undefined : step.action.kind.split('.')[0] ?? step.action.kind;
}

/** What the runtime does after a failure the error policy has it report. */
const FOLLOWS: Readonly<Record<Exclude<Requeue['kind'], 'done' | 'now'>, string>> = {
  backoff: 'retries with backoff',
  after: 'retries when the API said to',
  onChange: 'waits for the object to change',
  onEdit: 'sends nothing for this generation again until the object is edited',
};

/**
 * The reconciles the controller would run on `object`, one after the other, as the runtime runs them (the same
 * driver, error policy included): each plan is decided from what the sandbox holds (the cluster, plus the
 * writes of the plans before), then applied to the sandbox, until a plan changes nothing, the object is gone,
 * a plan uses an API the sandbox cannot show, a step fails, a recorded failure holds the object, or
 * `maxRounds` is reached. A stale view is retried, as the runtime retries it. Nothing is written anywhere but
 * the sandbox.
 */
export async function planRounds<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  object: KubeObject,
  options: RoundsOptions<C>,
): Promise<ObjectOutcome> {
  const { sandbox, config, now, maxRounds } = options;
  const ref = { type: definition.primary.type, namespace: object.metadata.namespace, name: object.metadata.name };
  const handlers: SandboxHandlers = { ...options.handlers, ...sandbox.handlers() };
  const plans: Plan<A>[] = [];
  const ended = (end: RoundsEnd): ObjectOutcome => ({ kind: 'planned', plans, end });
  let current = object;
  for (let round = 1; ; round++) {
    const outcome = await runReconcile(definition, current, {
      read: (queries) => runQueries(queries, (query) => sandbox.read(query)),
      // A handler reads what it needs (a password Secret) from the sandbox, as the controller's handlers read it.
      run: (plan) => interpret(plan, { handlers, vocabulary: definition.apis }, { readObject: (objectRef) => sandbox.get(objectRef) }),
      config,
      now,
      entropy: fixedEntropy(),
      // What is not run: reports of what cannot be decided, a plan that changes nothing, the last one shown, and
      // a plan whose effects the sandbox cannot show.
      dryRun: (decision) => decision.kind !== 'planned' || !changesAnything(decision.plan) || round >= maxRounds || unsimulatedApi(decision.plan, handlers) !== undefined,
    });
    const { decision } = outcome;
    if (decision.kind === 'invalid') return plans.length === 0 ? { kind: 'invalid', message: decision.failure.message } : ended({ kind: 'invalid', message: decision.failure.message });
    if (decision.kind === 'unreadable') {
      const { reason, message } = toKeywardError(decision.error);
      return plans.length === 0 ? { kind: 'unreadable', reason, message } : ended({ kind: 'unreadable', reason, message });
    }
    // Held: what the controller does now is nothing at all.
    if (decision.kind === 'held') return { kind: 'planned', plans: [...plans, emptyPlan], end: { kind: 'held', generation: decision.generation } };
    plans.push(decision.plan);
    if (!changesAnything(decision.plan)) return ended({ kind: 'quiet' });
    if (round >= maxRounds) return ended({ kind: 'limit', rounds: round });
    const api = unsimulatedApi(decision.plan, handlers);
    if (api !== undefined) return ended({ kind: 'notSimulated', api });
    const { requeue, result, error, report } = outcome;
    if (error !== undefined && requeue !== undefined && requeue.kind !== 'now' && requeue.kind !== 'done') {
      const failed = result?.steps.find((step) => step.outcome === 'failed');
      const step = decision.plan.steps.findIndex((candidate) => candidate.id === failed?.id) + 1;
      const reported = report === undefined ? undefined : readyCondition(await sandbox.get(ref));
      return ended({
        kind: 'failed', step, summary: failed?.summary ?? 'a step', reason: error.reason, message: error.message, then: FOLLOWS[requeue.kind],
        ...(reported === undefined ? {} : { reported }),
      });
    }
    const next = await sandbox.get(ref);
    if (next === undefined) return ended({ kind: 'gone' });
    current = next;
  }
}
