import type { AnyAction, AnyQuery } from '../plan/actions.js';
import { vocabulary, type ActionsOfApi, type Api, type QueriesOfApi, type Vocabulary } from '../plan/api.js';
import { AvailabilityListeners, type AvailabilitySource } from './availability.js';
import type { Executor, HandlerTable, QueryScope, QueryTable } from './types.js';

/**
 * The runtime half of an API module: its presentations (the pure half), a handler for each of its actions
 * and an answer for each of its queries. The compiler checks both tables complete.
 */
export interface ApiRuntime<A extends AnyAction, Q extends AnyQuery = never> {
  readonly api: Api<A, Q>;
  readonly handlers: HandlerTable<A>;
  /** Answers to its queries for a controller that watches `scope`. */
  readonly queries: (scope: QueryScope) => QueryTable<Q>;
  /** Its endpoints going down and answering again; the runtime retries what waited for them. */
  readonly availability?: AvailabilitySource;
  /** Stops its background work (probes of unavailable endpoints). */
  close?(): void;
}

/** What `apiSet` accepts: any ApiRuntime (its types are read back from `api`). */
export interface AnyApiRuntime {
  readonly api: Api<AnyAction, AnyQuery>;
  readonly handlers: object;
  readonly queries: (scope: QueryScope) => object;
  readonly availability?: AvailabilitySource;
  close?(): void;
}

/**
 * The APIs a program runs controllers with, put together. A controller can be given an ApiSet only if the set
 * handles every action and answers every query of the controller's vocabulary: a missing module is a
 * compile error where the program assembles them.
 */
export interface ApiSet<A extends AnyAction, Q extends AnyQuery> extends Executor<A> {
  readonly vocabulary: Vocabulary<A, Q>;
  readonly handlers: HandlerTable<A>;
  queries(scope: QueryScope): QueryTable<Q>;
  /** Every module's endpoints going down and coming back. */
  readonly availability: AvailabilitySource;
  /** Stops every module's background work. */
  close(): void;
}

/** Object.assign that refuses a key two modules both define. */
function mergeTables(tables: readonly object[], what: string): object {
  const merged: Record<string, unknown> = {};
  for (const table of tables) {
    for (const [kind, entry] of Object.entries(table)) {
      if (kind in merged) throw new Error(`two API modules both ${what} ${kind}`);
      merged[kind] = entry;
    }
  }
  return merged;
}

/** Puts API modules' runtimes together (kubernetesRuntime(...), keystoneRuntime(...), controlRuntime, ...). */
export function apiSet<const R extends readonly AnyApiRuntime[]>(...runtimes: R): ApiSet<ActionsOfApi<R[number]['api']>, QueriesOfApi<R[number]['api']>> {
  type A = ActionsOfApi<R[number]['api']>;
  type Q = QueriesOfApi<R[number]['api']>;
  const changes = new AvailabilityListeners();
  for (const runtime of runtimes) runtime.availability?.subscribe((change) => { changes.emit(change); });
  // The tables are checked complete per module by ApiRuntime; merged, they cover the union of the modules.
  return {
    vocabulary: vocabulary(...runtimes.map((runtime) => runtime.api)),
    handlers: mergeTables(runtimes.map((runtime) => runtime.handlers), 'handle') as HandlerTable<A>,
    queries: (scope) => mergeTables(runtimes.map((runtime) => runtime.queries(scope)), 'answer') as QueryTable<Q>,
    availability: changes,
    close: () => {
      for (const runtime of runtimes) runtime.close?.();
    },
  };
}

/** Declares an API module's runtime with its tables checked complete against its API. */
export function defineApiRuntime<A extends AnyAction, Q extends AnyQuery = never>(runtime: ApiRuntime<A, Q>): ApiRuntime<A, Q> {
  return runtime;
}
