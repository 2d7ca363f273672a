import type { ResourceType } from '../model/refs.js';
import { hasLabels, type KubeObject } from '../apis/kubernetes/actions.js';
import { queryStages, type GetQuery, type Observed, type Queries, type Query } from '../plan/queries.js';
import type { KeystoneClient } from '../apis/keystone/io/client.js';
import type { TokenCache } from '../apis/keystone/io/token-cache.js';
import type { KubeClient } from '../apis/kubernetes/io/client.js';

/** What the query runner needs of an informer's cache. */
export interface CacheView {
  readonly type: ResourceType;
  readonly namespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
}

export interface QueryRunnerDependencies {
  readonly kube: KubeClient;
  /** Caches of the watched types; reads they can answer never reach the API server. */
  readonly caches: readonly CacheView[];
  readonly keystoneClientFor: (endpoint: string) => KeystoneClient;
  readonly tokens: TokenCache;
  /** Answers `onBurst` gets during a burst (see BurstWatches); without it they are GETs. */
  readonly bursts?: { get(type: ResourceType, namespace: string, name: string, fields?: string): KubeObject | undefined };
}

function sameType(a: ResourceType, b: ResourceType): boolean {
  return a.group === b.group && a.version === b.version && a.plural === b.plural;
}

/** Whether a cache holds every object of `type` in `namespace` that also has `labels`. */
function covers(cache: CacheView, type: ResourceType, namespace: string | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const namespaceCovered = cache.namespace === undefined || cache.namespace === namespace;
  const labelsCovered = Object.entries(cache.labels ?? {}).every(([key, value]) => labels?.[key] === value);
  return sameType(cache.type, type) && namespaceCovered && labelsCovered;
}

/**
 * Runs the reads an observe function asked for. Kubernetes reads are served from an informer cache whenever
 * one covers them: a get from an unfiltered cache, or from a filtered one when the get requires its labels
 * (otherwise a filtered cache cannot tell "absent" from "filtered out", and a miss goes to the API).
 */
export class QueryRunner {
  constructor(private readonly deps: QueryRunnerDependencies) {}

  async run<Q extends Queries>(queries: Q): Promise<Observed<Q>> {
    const { independent, guarded } = queryStages(queries);
    const first = await Promise.all(independent.map(async ([name, query]) => [name, query === undefined ? undefined : await this.#one(query)] as const));
    const results = new Map<string, unknown>(first);
    const then = await Promise.all(guarded.map(async ([name, query, guard]) => [name, results.get(guard) === undefined ? await this.#one(query) : undefined] as const));
    return Object.fromEntries([...first, ...then]) as Observed<Q>;
  }

  async #one(query: Query): Promise<unknown> {
    switch (query.kind) {
      case 'k8s.get': {
        const { ref, requireLabels } = query;
        const labelled = (object: KubeObject | undefined): KubeObject | undefined => (object !== undefined && hasLabels(object, requireLabels) ? object : undefined);
        const complete = this.deps.caches.find((c) => covers(c, ref.type, ref.namespace, undefined));
        if (complete !== undefined) return labelled(complete.get(ref.namespace, ref.name));
        if (requireLabels !== undefined) {
          const authoritative = this.deps.caches.find((c) => covers(c, ref.type, ref.namespace, requireLabels));
          return authoritative === undefined ? labelled(await this.deps.kube.get(ref)) : labelled(authoritative.get(ref.namespace, ref.name));
        }
        const filtered = this.deps.caches.find((c) => covers(c, ref.type, ref.namespace, query.expectLabels));
        return filtered?.get(ref.namespace, ref.name) ?? this.#fromBurst(query) ?? this.deps.kube.get(ref);
      }
      case 'k8s.list': {
        const cache = this.deps.caches.find((c) => covers(c, query.type, query.namespace, query.labels));
        if (cache !== undefined) return cache.list(query.namespace).filter((object) => hasLabels(object, query.labels));
        return (await this.deps.kube.listAll(query.type, { namespace: query.namespace, labels: query.labels })).items;
      }
      case 'keystone.listApplicationCredentials': {
        const client = this.deps.keystoneClientFor(query.endpoint);
        const session = await this.deps.tokens.token(client, query);
        return client.listApplicationCredentials(session.token, session.userId, query.name === undefined ? {} : { name: query.name });
      }
    }
  }

  #fromBurst({ ref, onBurst }: GetQuery): KubeObject | undefined {
    return onBurst?.watch === 'namespace' && ref.namespace !== undefined ? this.deps.bursts?.get(ref.type, ref.namespace, ref.name, onBurst.fields) : undefined;
  }
}
