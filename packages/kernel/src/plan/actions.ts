/**
 * Actions and queries are plain data with a `kind` ("<api>.<verb>"). The vocabulary is open: each API module
 * declares its own kinds as types, a controller's plans are typed by the union of the kinds it may emit, and
 * the compiler checks where controllers and API modules are put together that every kind has a handler.
 */

/** Any action: data naming what to do, interpreted by the handler of its kind. */
export interface AnyAction {
  readonly kind: string;
}

/** Any query: data naming what to read before deciding. */
export interface AnyQuery {
  readonly kind: string;
  /**
   * The name of another entry of the same observe: read this one only when that one's result is undefined
   * (the source of a copy is needed only while the copy is missing), else this result is undefined without a
   * read. The entry named must not itself wait for another.
   */
  readonly whenAbsent?: string;
}

// Type-only keys: they never exist at run time, they carry an action's outputs and a query's result type.
declare const outputsKey: unique symbol;
declare const resultKey: unique symbol;

/** Outputs of actions that produce nothing later steps use. */
export type NoOutputs = Readonly<Record<string, never>>;

/** Declares, on an action type, what its step produces for later steps of the plan. */
export interface Produces<O extends object> {
  readonly [outputsKey]?: O;
}

/** Declares, on a query type, what reading it gives. */
export interface Returns<R> {
  readonly [resultKey]?: R;
}

/** The outputs an action's step produces (NoOutputs unless its type says otherwise through Produces). */
export type OutputsOf<A> = A extends { readonly [outputsKey]?: infer O } ? (unknown extends O ? NoOutputs : O) : NoOutputs;

/** The result of a query (as its type declares through Returns). */
export type ResultOf<Q> = Q extends { readonly [resultKey]?: infer R } ? R : unknown;

/** The member of an action (or query) union with the given kind. */
export type OfKind<T extends { readonly kind: string }, K extends T['kind']> = Extract<T, { readonly kind: K }>;
