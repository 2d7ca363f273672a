// Identities bound to the roles deploy/base ships, for tests that must run the operator with exactly the
// permissions a cluster would give it.
import type { ResourceType } from '@keyward/kernel';
import { kubeConfigFor, serviceAccountIdentity, waitFor, type ServiceAccountIdentity } from '@keyward/test-env';
import { KubeClient as Client } from '@keyward/runtime/io';
import { defaultAPIKeyConfig } from '@keyward/apikey-enforcement';
import { rbacObjectName, type RbacComponent } from '../src/rbac.js';
import { rbacManifests, type RbacInstall } from '../src/rbac-manifests.js';
import { OPERATOR_NAMESPACE, baseManifests, type Manifest } from './deploy.js';

const rbacType = (kind: string, plural: string, namespaced: boolean): ResourceType => ({ group: 'rbac.authorization.k8s.io', version: 'v1', kind, plural, namespaced });
export const RBAC_TYPES: Readonly<Record<string, ResourceType>> = {
  Role: rbacType('Role', 'roles', true),
  RoleBinding: rbacType('RoleBinding', 'rolebindings', true),
  ClusterRole: rbacType('ClusterRole', 'clusterroles', false),
  ClusterRoleBinding: rbacType('ClusterRoleBinding', 'clusterrolebindings', false),
};

/** The resource type of every kind an install ships (deploy/ and the Helm chart), for applying them. */
export const MANIFEST_TYPES: Readonly<Record<string, ResourceType>> = {
  CustomResourceDefinition: { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false },
  Namespace: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  ServiceAccount: { group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true },
  Service: { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  Deployment: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  PodDisruptionBudget: { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true },
  ...RBAC_TYPES,
};

/** Kinds in the order a cluster accepts them: definitions and namespaces before what lives in them. */
const APPLY_ORDER = ['CustomResourceDefinition', 'Namespace'];

export function inApplyOrder(objects: readonly Manifest[]): Manifest[] {
  const rank = (object: Manifest): number => (APPLY_ORDER.includes(object.kind) ? APPLY_ORDER.indexOf(object.kind) : APPLY_ORDER.length);
  return [...objects].sort((a, b) => rank(a) - rank(b));
}

/** Where the namespaced Roles of deploy/base go: the operator's namespace (leases) and the enforcement one. */
export interface RoleNamespaces {
  readonly operator: string;
  readonly enforcement: string;
}

export const DEPLOYED_NAMESPACES: RoleNamespaces = { operator: OPERATOR_NAMESPACE, enforcement: defaultAPIKeyConfig.enforcementNamespace };

export interface DeployedIdentity extends ServiceAccountIdentity {
  /** Deletes what was made for this identity (cluster-wide bindings outlive the test namespace). */
  readonly remove: () => Promise<void>;
}

/** What the helpers here read of an RBAC object, from deploy/ or from rbac-manifests.ts. */
interface RbacObjectLike {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string | undefined };
  readonly rules?: unknown;
}

const refOf = (object: RbacObjectLike): { type: ResourceType; namespace: string | undefined; name: string } => {
  const type = RBAC_TYPES[object.kind];
  if (type === undefined) throw new Error(`not an RBAC object: ${object.kind}`);
  return { type, namespace: type.namespaced ? object.metadata.namespace : undefined, name: object.metadata.name };
};

/**
 * A ServiceAccount `name` in `namespace` bound to the roles deploy/base ships for `components`, and to nothing
 * else. ClusterRoles are applied as shipped; Roles are copied from the namespaces they ship in to
 * `namespaces` (a test's own lease and enforcement namespaces), unchanged but for that.
 */
export async function deployedIdentity(admin: Client, options: { namespace: string; name: string; components: readonly RbacComponent[]; namespaces: RoleNamespaces }): Promise<DeployedIdentity> {
  const identity = await serviceAccountIdentity(options.namespace, options.name);
  const retarget = (namespace: string | undefined): string | undefined =>
    namespace === DEPLOYED_NAMESPACES.operator ? options.namespaces.operator : namespace === DEPLOYED_NAMESPACES.enforcement ? options.namespaces.enforcement : namespace;
  const roles = baseManifests().filter(
    (object) => (object.kind === 'Role' || object.kind === 'ClusterRole') && options.components.some((component) => rbacObjectName(component) === object.metadata.name),
  );
  const made: Manifest[] = [];
  for (const role of roles) {
    const namespace = retarget(role.metadata.namespace);
    const placed: Manifest = { ...role, metadata: { ...role.metadata, ...(namespace === undefined ? {} : { namespace }) } };
    await admin.apply(refOf(placed), placed);
    const binding: Manifest = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: `${role.kind}Binding`,
      metadata: { name: `${role.metadata.name}-${options.namespace}-${options.name}`, ...(namespace === undefined ? {} : { namespace }) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: role.kind, name: role.metadata.name },
      subjects: [{ kind: 'ServiceAccount', name: options.name, namespace: options.namespace }],
    };
    await admin.apply(refOf(binding), binding);
    made.push(binding);
  }
  await waitUntilAuthorized(identity, roles.map((role) => ({ ...role, metadata: { ...role.metadata, namespace: retarget(role.metadata.namespace) } })));
  return {
    ...identity,
    remove: async () => {
      for (const object of made) await admin.delete(refOf(object));
    },
  };
}

/**
 * The ServiceAccount of `install` (in its operator namespace) bound to exactly the roles `keyward rbac` prints
 * for it, which are applied as printed. For a namespaced install, everything made lives in the install's
 * namespaces.
 */
export async function generatedIdentity(admin: Client, install: RbacInstall): Promise<ServiceAccountIdentity> {
  const identity = await serviceAccountIdentity(install.operatorNamespace, install.serviceAccount);
  const objects = rbacManifests(install);
  for (const object of objects) await admin.apply(refOf(object), object);
  // The roles bound to it; the metrics reader's is for scrapers and bound to nobody.
  const bound = new Set(objects.filter((object) => object.kind.endsWith('Binding')).map((binding) => `${binding.metadata.namespace ?? ''}/${binding.metadata.name}`));
  await waitUntilAuthorized(identity, objects.filter((object) => (object.kind === 'Role' || object.kind === 'ClusterRole') && bound.has(`${object.metadata.namespace ?? ''}/${object.metadata.name}`)));
  return identity;
}

/** The authorizer learns of new bindings from its informers, a moment after they are written. */
async function waitUntilAuthorized(identity: ServiceAccountIdentity, roles: readonly RbacObjectLike[]): Promise<void> {
  const client = new Client(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
  try {
    for (const role of roles) {
      const [rule] = role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      const [resource = '', subresource] = rule?.resources[0]?.split('/') ?? [];
      const attributes = { group: rule?.apiGroups[0], resource, subresource, verb: rule?.verbs[0], namespace: role.metadata.namespace };
      await waitFor(async () => ((await mayDo(client, attributes)) ? true : undefined), { what: `${identity.userName} to be granted ${role.kind} ${role.metadata.name}`, timeoutMs: 10_000, intervalMs: 200 });
    }
  } finally {
    client.close();
  }
}

/** What a SelfSubjectAccessReview asks: may the caller do `verb` on the resource in `namespace` (none: all)? */
export interface AccessQuestion {
  readonly group: string | undefined;
  readonly resource: string;
  readonly subresource?: string | undefined;
  readonly verb: string | undefined;
  readonly namespace: string | undefined;
}

/** The authorizer's answer for the client's own identity. */
export async function mayDo(client: Client, question: AccessQuestion): Promise<boolean> {
  const review = await client.raw<{ status?: { allowed?: boolean } }>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: question } },
    what: 'review access',
    verb: 'create',
    resource: 'selfsubjectaccessreviews',
  });
  return review.status?.allowed === true;
}
