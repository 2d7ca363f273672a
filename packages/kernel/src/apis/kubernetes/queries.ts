import type { ObjectRef, ResourceType } from '../../model/refs.js';
import type { AnyQuery, Returns } from '../../plan/actions.js';
import type { KubeObject } from './actions.js';

/** Reads one object; `undefined` when it does not exist. Served from the informer cache when the type is watched. */
export interface GetQuery extends AnyQuery, Returns<KubeObject | undefined> {
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
export interface ListQuery extends AnyQuery, Returns<readonly KubeObject[]> {
  readonly kind: 'k8s.list';
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly ifServed?: false;
}

/**
 * A list of another operator's kind that a controller can do without: when the API server does not serve the
 * type (its CRD is not installed) the result is undefined instead of a failure.
 */
export interface ListIfServedQuery extends AnyQuery, Returns<readonly KubeObject[] | undefined> {
  readonly kind: 'k8s.list';
  readonly type: ResourceType;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly ifServed: true;
}

export type KubernetesQuery = GetQuery | ListQuery | ListIfServedQuery;
