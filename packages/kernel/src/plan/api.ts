import type { AnyAction, AnyQuery, OfKind } from './actions.js';

/** How plans show one kind of action: a line naming what it does, and optionally what it changes. */
export interface ActionPresentation<A extends AnyAction> {
  /** One line naming objects but never values, e.g. "delete Secret ns/name". */
  describe(action: A): string;
  /** Diff lines for `keyward plan` ("+ data.key: (sensitive)"); never a secret. */
  details?(action: A): readonly string[];
}

/** How a failed read of one kind of query is named, e.g. "list Secrets in ns". */
export interface QueryPresentation<Q extends AnyQuery> {
  describe(query: Q): string;
}

// Type-only key carrying an API's action and query types, so they can be recovered from the value.
declare const typesKey: unique symbol;

/**
 * The pure half of an API module: its name and, for each of its action and query kinds, how plans describe
 * it. What a domain package imports; the handlers that do the I/O are its runtime half (see ApiRuntime).
 * The compiler checks that every kind of `A` and `Q` is presented.
 */
export interface Api<A extends AnyAction, Q extends AnyQuery = never> {
  readonly name: string;
  readonly actions: { readonly [K in A['kind']]: ActionPresentation<OfKind<A, K>> };
  readonly queries: { readonly [K in Q['kind']]: QueryPresentation<OfKind<Q, K>> };
  readonly [typesKey]?: { readonly action: A; readonly query: Q };
}

/** The actions of an API (or of a union of APIs). */
export type ActionsOfApi<T> = T extends { readonly [typesKey]?: { readonly action: infer A } } ? A : never;
/** The queries of an API (or of a union of APIs). */
export type QueriesOfApi<T> = T extends { readonly [typesKey]?: { readonly query: infer Q } } ? Q : never;

/**
 * The APIs a controller uses, merged: plans of their actions can be described and rendered, and reads of
 * their queries named. A kind none of them presents is shown by its kind alone.
 */
export interface Vocabulary<A extends AnyAction, Q extends AnyQuery> {
  /** Names of the APIs, in the order given. */
  readonly apis: readonly string[];
  describe(action: A): string;
  details(action: A): readonly string[];
  describeQuery(query: Q): string;
}

type PresentationTable = Readonly<Record<string, { describe(value: never): string; details?(value: never): readonly string[] } | undefined>>;

/** Merges the presentations of several APIs; a kind two of them claim is a programming error. */
export function vocabulary<const T extends readonly Api<AnyAction, AnyQuery>[]>(...apis: T): Vocabulary<ActionsOfApi<T[number]>, QueriesOfApi<T[number]>> {
  const actions = merge(apis.map((api) => [api.name, api.actions as PresentationTable] as const));
  const queries = merge(apis.map((api) => [api.name, api.queries as PresentationTable] as const));
  // Each table is keyed by kind, so the entry found presents exactly the value's type.
  const call = (table: PresentationTable, value: AnyAction, method: 'describe' | 'details'): string | readonly string[] | undefined => {
    const entry = table[value.kind] as { describe(value: AnyAction): string; details?(value: AnyAction): readonly string[] } | undefined;
    return method === 'describe' ? entry?.describe(value) : entry?.details?.(value);
  };
  return {
    apis: apis.map((api) => api.name),
    describe: (action) => (call(actions, action, 'describe') as string | undefined) ?? action.kind,
    details: (action) => (call(actions, action, 'details') as readonly string[] | undefined) ?? [],
    describeQuery: (query) => (call(queries, query, 'describe') as string | undefined) ?? query.kind,
  };
}

function merge(tables: readonly (readonly [string, PresentationTable])[]): PresentationTable {
  const merged: Record<string, PresentationTable[string]> = {};
  const owner = new Map<string, string>();
  for (const [api, table] of tables) {
    for (const [kind, entry] of Object.entries(table)) {
      const claimed = owner.get(kind);
      if (claimed !== undefined && claimed !== api) throw new Error(`APIs ${claimed} and ${api} both define the kind ${kind}`);
      owner.set(kind, api);
      merged[kind] = entry;
    }
  }
  return merged;
}

/** Declares an API's presentations with its action and query types checked complete. */
export function defineApi<A extends AnyAction, Q extends AnyQuery = never>(api: Api<A, Q>): Api<A, Q> {
  return api;
}
