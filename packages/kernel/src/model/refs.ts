/** A Kubernetes resource type: enough to build URLs and to name it in messages. */
export interface ResourceType {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

/** One object of a resource type. */
export interface ObjectRef {
  readonly type: ResourceType;
  readonly namespace?: string | undefined;
  readonly name: string;
}

export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** "namespace/name" (or "name" when cluster-scoped): the key of the work queue and of caches. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

export function refKey(ref: Pick<ObjectRef, 'namespace' | 'name'>): string {
  return objectKey(ref.namespace, ref.name);
}

/** "Secret team-a/db" — how objects are named in reasons, events and errors. */
export function describeRef(ref: ObjectRef): string {
  return `${ref.type.kind} ${refKey(ref)}`;
}

export function splitKey(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Well-known core types, so domains do not spell them out again. */
export const coreTypes = {
  secret: { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  configMap: { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  namespace: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  service: { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  deployment: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  job: { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true },
  lease: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  event: { group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
} as const satisfies Record<string, ResourceType>;
