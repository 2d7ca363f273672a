import type { AnyAction, AnyQuery, OfKind, OutputsOf, ResultOf } from '../plan/actions.js';
import type { Vocabulary } from '../plan/api.js';
import type { ObjectRef, ResourceType } from '../model/refs.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
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
  /**
   * Reads an object as the running controller's queries do, from its caches when one covers it (a password
   * Secret it watches); absent outside a controller, where handlers read from the API server.
   */
  readonly readObject?: ((ref: ObjectRef) => Promise<KubeObject | undefined>) | undefined;
}

export interface HandlerResult<O> {
  readonly outcome: 'applied' | 'unchanged';
  readonly outputs: O;
}

/** Carries out one kind of action. */
export type Handler<A extends AnyAction> = (action: A, context: HandlerContext) => Promise<HandlerResult<OutputsOf<A>>>;

/** A handler for every kind of `A`: the compiler rejects a table that misses one. */
export type HandlerTable<A extends AnyAction> = { readonly [K in A['kind']]: Handler<OfKind<A, K>> };

/** Answers one kind of query. */
export type QueryHandler<Q extends AnyQuery> = (query: Q) => Promise<ResultOf<Q>> | ResultOf<Q>;

/** An answer for every kind of `Q`. */
export type QueryTable<Q extends AnyQuery> = { readonly [K in Q['kind']]: QueryHandler<OfKind<Q, K>> };

/** What runs a plan: a handler per kind, and the words to describe each step in results and logs. */
export interface Executor<A extends AnyAction> {
  readonly handlers: HandlerTable<A>;
  readonly vocabulary: Vocabulary<A, never>;
}

/** A handler of some kind, its action type unknown here: given only actions of its own kind. */
export type ErasedHandler = (action: never, context: HandlerContext) => Promise<HandlerResult<object>>;

/**
 * Handlers of some kinds only, assembled at run time (a plan's sandbox simulates some APIs, not all): a step of
 * a kind without one fails as an invalid plan.
 */
export interface PartialExecutor<A extends AnyAction> {
  readonly handlers: Readonly<Record<string, ErasedHandler | undefined>>;
  readonly vocabulary: Vocabulary<A, never>;
}

/** What the query runner needs of an informer's cache. */
export interface CacheView {
  readonly type: ResourceType;
  readonly namespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
}

/**
 * The objects a controller watches because its primaries refer to them (see ControllerDefinition.referenced),
 * once their watch has listed; undefined when none covers the read.
 */
export interface WatchedByReference {
  /** Answers for absent objects too (`object` undefined): the watch covers the name. */
  get(type: ResourceType, namespace: string, name: string): { readonly object: KubeObject | undefined } | undefined;
  /** Every object of the type in the namespace, when the whole namespace is watched. */
  list(type: ResourceType, namespace: string): readonly KubeObject[] | undefined;
  /**
   * Whether the watch of the type in the namespace found that the API server does not serve it (its CRD is
   * not installed): a list that asks only if it is served is answered without a request.
   */
  notServed?(type: ResourceType, namespace: string): boolean;
}

/**
 * What the controller asking a query watches: caches of its watched types (reads they can answer never
 * reach the API server), the objects its primaries refer to and, for `onBurst` reads, the short-lived
 * namespace watches of a burst.
 */
export interface QueryScope {
  readonly caches: readonly CacheView[];
  readonly referenced?: WatchedByReference;
  readonly bursts?: { get(type: ResourceType, namespace: string, name: string, fields?: string): KubeObject | undefined };
}
