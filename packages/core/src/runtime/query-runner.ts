import type { ResourceType } from '../model/refs.js';
import type { KubeObject } from '../plan/kubernetes.js';
import type { Observed, Queries, Query } from '../plan/queries.js';
import type { KeystoneClient } from '../interpreter/keystone/client.js';
import type { TokenCache } from '../interpreter/keystone/token-cache.js';
import type { KubeClient } from '../interpreter/kubernetes/client.js';

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
}

function sameType(a: ResourceType, b: ResourceType): boolean {
  return a.group === b.group && a.version === b.version && a.plural === b.plural;
}

function hasLabels(object: KubeObject, labels: Readonly<Record<string, string>> | undefined): boolean {
  return Object.entries(labels ?? {}).every(([key, value]) => object.metadata.labels?.[key] === value);
}

/** Whether a cache holds every object of `type` in `namespace` that also has `labels`. */
function covers(cache: CacheView, type: ResourceType, namespace: string | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const namespaceCovered = cache.namespace === undefined || cache.namespace === namespace;
  const labelsCovered = Object.entries(cache.labels ?? {}).every(([key, value]) => labels?.[key] === value);
  return sameType(cache.type, type) && namespaceCovered && labelsCovered;
}

/**
 * Runs the reads an observe function asked for. Kubernetes reads are served from an informer cache whenever
 * one covers them (a get only from an unfiltered cache, since a filtered one cannot tell "absent" from
 * "filtered out"); everything else goes to the API.
 */
export class QueryRunner {
  constructor(private readonly deps: QueryRunnerDependencies) {}

  async run<Q extends Queries>(queries: Q): Promise<Observed<Q>> {
    const entries = await Promise.all(
      Object.entries(queries).map(async ([name, query]) => [name, query === undefined ? undefined : await this.#one(query)] as const),
    );
    return Object.fromEntries(entries) as Observed<Q>;
  }

  async #one(query: Query): Promise<unknown> {
    switch (query.kind) {
      case 'k8s.get': {
        const { ref } = query;
        const complete = this.deps.caches.find((c) => covers(c, ref.type, ref.namespace, undefined));
        if (complete !== undefined) return complete.get(ref.namespace, ref.name);
        const filtered = this.deps.caches.find((c) => covers(c, ref.type, ref.namespace, query.expectLabels));
        return filtered?.get(ref.namespace, ref.name) ?? this.deps.kube.get(ref);
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
}
