import type { AnyQuery, ResultOf } from './actions.js';

/** What `observe` returns: named queries; an entry may be undefined when there is nothing to read. */
export type Queries = Readonly<Record<string, AnyQuery | undefined>>;

/** The query types an observe's entries may have. */
export type QueryIn<Q extends Queries> = NonNullable<Q[keyof Q]>;

/** The result of a query, or undefined for an entry that asked nothing. */
export type ResultOrNothing<Q> = Q extends AnyQuery ? ResultOf<Q> : undefined;

/** What `reconcile` receives: each named query's result. */
export type Observed<Q extends Queries> = { readonly [N in keyof Q]: ResultOrNothing<Q[N]> };

/** An observe's entries in the order they can be read: first the unguarded ones, then each `whenAbsent` one. */
export interface QueryStages {
  readonly independent: readonly (readonly [string, AnyQuery | undefined])[];
  /** Name, query, and the name of the entry it waits for. */
  readonly guarded: readonly (readonly [string, AnyQuery, string])[];
}

/** Splits an observe's queries by `whenAbsent`; a guard that is not another unguarded entry is a programming error. */
export function queryStages(queries: Queries): QueryStages {
  const independent: (readonly [string, AnyQuery | undefined])[] = [];
  const guarded: (readonly [string, AnyQuery, string])[] = [];
  for (const [name, query] of Object.entries(queries)) {
    if (query?.whenAbsent === undefined) {
      independent.push([name, query]);
      continue;
    }
    const guard = queries[query.whenAbsent];
    if (guard === undefined || guard.whenAbsent !== undefined) {
      throw new Error(`query ${name}: whenAbsent must name another entry of the same observe that waits for none itself, not "${query.whenAbsent}"`);
    }
    guarded.push([name, query, query.whenAbsent]);
  }
  return { independent, guarded };
}

/**
 * Reads an observe's queries with `read`: the independent ones together, then each guarded one whose guard
 * came back undefined. The one order every reader (runtime, plan command, in-memory world) follows.
 */
export async function runQueries<Q extends Queries>(queries: Q, read: (query: AnyQuery) => unknown): Promise<Observed<Q>> {
  const { independent, guarded } = queryStages(queries);
  const first = await Promise.all(independent.map(async ([name, query]) => [name, query === undefined ? undefined : await read(query)] as const));
  const results = new Map<string, unknown>(first);
  const then = await Promise.all(guarded.map(async ([name, query, guard]) => [name, results.get(guard) === undefined ? await read(query) : undefined] as const));
  return Object.fromEntries([...first, ...then]) as Observed<Q>;
}
