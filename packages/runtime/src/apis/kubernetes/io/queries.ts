import { hasLabels, type GetQuery, type KubernetesQuery } from '@keyward/kernel/plan';
import { type ObjectRef, type ResourceType, type KubeObject } from '@keyward/kernel';
import { KeywardError, type CacheView, type QueryScope, type QueryTable } from '@keyward/kernel/interpreter';
import type { KubeClient } from './client.js';

/** A 404 for a collection: the API server does not serve the type (a CRD that is not installed). */
function notServed(error: unknown): boolean {
  return error instanceof KeywardError && error.api === 'kubernetes' && error.code === 404;
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
 * Kubernetes reads for a controller that watches `scope`: served from an informer cache whenever one covers
 * them (a get from an unfiltered cache, or from a filtered one when the get requires its labels; otherwise a
 * filtered cache cannot tell "absent" from "filtered out", and a miss goes to the API), or from the watch of
 * an object its primaries refer to, which covers that name (or that namespace) entirely.
 */
export function kubernetesQueries(kube: KubeClient, { caches, referenced, bursts }: QueryScope): QueryTable<KubernetesQuery> {
  const fromBurst = ({ ref, onBurst }: GetQuery): KubeObject | undefined =>
    onBurst?.watch === 'namespace' && ref.namespace !== undefined ? bursts?.get(ref.type, ref.namespace, ref.name, onBurst.fields) : undefined;
  const byReference = ({ type, namespace, name }: ObjectRef) => (namespace === undefined ? undefined : referenced?.get(type, namespace, name));
  return {
    'k8s.get': async (query) => {
      const { ref, requireLabels } = query;
      const labelled = (object: KubeObject | undefined): KubeObject | undefined => (object !== undefined && hasLabels(object, requireLabels) ? object : undefined);
      const complete = caches.find((c) => covers(c, ref.type, ref.namespace, undefined));
      if (complete !== undefined) return labelled(complete.get(ref.namespace, ref.name));
      if (requireLabels !== undefined) {
        const authoritative = caches.find((c) => covers(c, ref.type, ref.namespace, requireLabels));
        if (authoritative !== undefined) return labelled(authoritative.get(ref.namespace, ref.name));
        const watched = byReference(ref);
        return labelled(watched === undefined ? await kube.get(ref) : watched.object);
      }
      const filtered = caches.find((c) => covers(c, ref.type, ref.namespace, query.expectLabels));
      const cached = filtered?.get(ref.namespace, ref.name);
      if (cached !== undefined) return cached;
      const watched = byReference(ref);
      if (watched !== undefined) return watched.object;
      return fromBurst(query) ?? kube.get(ref);
    },
    'k8s.list': async (query) => {
      const cache = caches.find((c) => covers(c, query.type, query.namespace, query.labels));
      if (cache !== undefined) return cache.list(query.namespace).filter((object) => hasLabels(object, query.labels));
      const watched = query.namespace === undefined ? undefined : referenced?.list(query.type, query.namespace);
      if (watched !== undefined) return watched.filter((object) => hasLabels(object, query.labels));
      if (query.ifServed !== true) return (await kube.listAll(query.type, { namespace: query.namespace, labels: query.labels })).items;
      // A watch that found the type not served answers for it: no request for each read while the CRD is missing.
      if (query.namespace !== undefined && referenced?.notServed?.(query.type, query.namespace) === true) return undefined;
      try {
        return (await kube.listAll(query.type, { namespace: query.namespace, labels: query.labels })).items;
      } catch (error) {
        if (notServed(error)) return undefined;
        throw error;
      }
    },
  };
}
