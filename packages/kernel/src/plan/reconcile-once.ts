import { isLeft } from 'fp-ts/lib/Either.js';
import type { DecodeFailure } from '../model/codec.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { AnyAction } from './actions.js';
import type { ControllerDefinition } from './controller.js';
import type { Plan } from './plan.js';
import type { Observed, Queries } from './queries.js';

/** What a reconcile decides with, besides the object: where reads go, the configuration, time and randomness. */
export interface ReconcileContext<Q extends Queries, C> {
  /** Reads an observe's queries: the runtime's caches and clients, a cluster, or an in-memory world. */
  readonly read: (queries: Q) => Promise<Observed<Q>>;
  readonly config: C;
  readonly now: Date;
  /** See ReconcileInput.entropy. */
  readonly entropy: (bytes: number) => Uint8Array;
}

/** What one reconcile decided, before anything ran. */
export type Decision<P, A extends AnyAction> =
  /** The spec does not decode: `plan` reports it (status and event). */
  | { readonly kind: 'invalid'; readonly failure: DecodeFailure; readonly plan: Plan<A> }
  /** Reading the current state failed with `error` (the object decoded as `primary`). */
  | { readonly kind: 'unreadable'; readonly primary: P; readonly error: unknown }
  /** A failure recorded for this `generation` waits for an edit (see ControllerDefinition.heldGeneration): nothing is read or planned. */
  | { readonly kind: 'held'; readonly primary: P; readonly generation: number }
  | { readonly kind: 'planned'; readonly primary: P; readonly plan: Plan<A> };

/**
 * The generation of `primary` that a recorded failure holds, if it does. Deletion is never held: its cleanup
 * sends other requests than the spec that failed.
 */
function heldGeneration<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(definition: ControllerDefinition<P, Q, C, A>, primary: P): number | undefined {
  const { generation, deletionTimestamp } = primary.metadata;
  if (generation === undefined || deletionTimestamp !== undefined) return undefined;
  return definition.heldGeneration?.(primary) === generation ? generation : undefined;
}

/**
 * Decode, observe, reconcile: the one sequence the runtime, `keyward plan` and the test kit all follow, so
 * they cannot drift apart; an object whose generation a recorded failure holds stops after decoding. Pure
 * apart from `context.read`.
 */
export async function decide<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  object: KubeObject,
  context: ReconcileContext<Q, C>,
): Promise<Decision<P, A>> {
  const decoded = definition.primary.decode(object);
  if (isLeft(decoded)) return { kind: 'invalid', failure: decoded.left, plan: definition.reportInvalid(object, decoded.left, context.now) };
  const primary = decoded.right;
  const held = heldGeneration(definition, primary);
  if (held !== undefined) return { kind: 'held', primary, generation: held };
  let observed: Observed<Q>;
  try {
    observed = await context.read(definition.observe(primary, context.config));
  } catch (error) {
    return { kind: 'unreadable', primary, error };
  }
  const plan = definition.reconcile({ primary, observed, now: context.now, config: context.config, entropy: context.entropy });
  return { kind: 'planned', primary, plan };
}
