import type { ObjectRef, ResourceType } from '../model/refs.js';
import type { Sensitive } from '../model/sensitive.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { ApplicationCredentialSummary } from '../apis/keystone/actions.js';

/** Reads one object; `undefined` when it does not exist. Served from the informer cache when the type is watched. */
export interface GetQuery {
  readonly kind: 'k8s.get';
  readonly ref: ObjectRef;
  /**
   * Labels the object is expected to carry: a cache filtered by them answers when it holds the object, and
   * only a miss goes to the API (an object that lost its labels, or one written before we labelled it).
   */
  readonly expectLabels?: Readonly<Record<string, string>>;
  /**
   * Only an object carrying these labels counts; one without them reads as `undefined` (it is not ours). A
   * cache filtered by them answers alone, so an absent object costs no request either.
   */
  readonly requireLabels?: Readonly<Record<string, string>>;
  /**
   * The name of another `k8s.get` of the same observe: read this object only when that one does not exist,
   * else this entry's result is `undefined` without a request. For reads needed only before something is
   * created (the source of a copy), so converged objects cost no request.
   */
  readonly whenAbsent?: string;
  /**
   * For objects read directly (no watch covers them) that many primaries read at about the same time, such
   * as the sources a backlog of new objects each copy from: after a burst of such reads in one namespace,
   * the runtime may answer them from a short-lived watch of that namespace instead of one GET each. The
   * result is the same (a miss still asks the API); only the number of requests changes.
   */
  readonly onBurst?: BurstRead;
}

/** How a burst of direct reads may be served instead (see GetQuery.onBurst). */
export interface BurstRead {
  /** Watch the object's namespace while the burst lasts. */
  readonly watch: 'namespace';
  /**
   * A field selector (`type=Opaque`) narrowing what that watch holds, so large objects of other kinds (Helm
   * release records, for Secrets) are not kept in memory; objects outside it are read by GET.
   */
  readonly fields?: string;
}

/** Lists objects of a type, in one namespace or all, narrowed by labels (equality only). */
export interface ListQuery {
  readonly kind: 'k8s.list';
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** A user's application credentials (optionally those with one name). Authenticates with the given password. */
export interface KeystoneListApplicationCredentialsQuery {
  readonly kind: 'keystone.listApplicationCredentials';
  readonly endpoint: string;
  readonly userName: string;
  readonly userDomain: string;
  readonly projectName: string;
  readonly projectDomain: string;
  readonly password: Sensitive;
  readonly name?: string;
}

/** Query kinds and their results; extended like ActionRegistry. */
export interface QueryRegistry {
  'k8s.get': { query: GetQuery; result: KubeObject | undefined };
  'k8s.list': { query: ListQuery; result: readonly KubeObject[] };
  'keystone.listApplicationCredentials': { query: KeystoneListApplicationCredentialsQuery; result: readonly ApplicationCredentialSummary[] };
}

export type QueryKind = keyof QueryRegistry;
export type Query = QueryRegistry[QueryKind]['query'];
export type ResultOf<Q extends Query> = QueryRegistry[Q['kind']]['result'];

/** What `observe` returns: named queries; an entry may be undefined when there is nothing to read. */
export type Queries = Readonly<Record<string, Query | undefined>>;

/** The result of a query, or undefined for an entry that asked nothing. */
export type ResultOrNothing<Q> = Q extends Query ? ResultOf<Q> : undefined;

/** What `reconcile` receives: each named query's result. */
export type Observed<Q extends Queries> = { readonly [N in keyof Q]: ResultOrNothing<Q[N]> };

/** An observe's entries in the order they can be read: first the unguarded ones, then each `whenAbsent` one. */
export interface QueryStages {
  readonly independent: readonly (readonly [string, Query | undefined])[];
  /** Name, query, and the name of the get it waits for. */
  readonly guarded: readonly (readonly [string, GetQuery, string])[];
}

/** Splits an observe's queries by `whenAbsent`; a guard that is not another unguarded get is a programming error. */
export function queryStages(queries: Queries): QueryStages {
  const independent: (readonly [string, Query | undefined])[] = [];
  const guarded: (readonly [string, GetQuery, string])[] = [];
  for (const [name, query] of Object.entries(queries)) {
    if (query?.kind !== 'k8s.get' || query.whenAbsent === undefined) {
      independent.push([name, query]);
      continue;
    }
    const guard = queries[query.whenAbsent];
    if (guard?.kind !== 'k8s.get' || guard.whenAbsent !== undefined) {
      throw new Error(`query ${name}: whenAbsent must name another k8s.get of the same observe that has no whenAbsent itself, not "${query.whenAbsent}"`);
    }
    guarded.push([name, query, query.whenAbsent]);
  }
  return { independent, guarded };
}
