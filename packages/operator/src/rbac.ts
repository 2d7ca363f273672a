import type { ControllerName } from './controllers.js';

/**
 * The operator's permissions, least privilege, as data: every verb is one the code uses (the Kubernetes handlers
 * write status and finalizers with merge PATCHes, create Events and never patch them; leader election PUTs its
 * Lease). rbac-manifests.ts turns them into Roles and ClusterRoles; deploy/base states exactly those of the
 * cluster-wide install (a unit test compares them), and integration tests check both installs against a real API
 * server.
 */

/** The shared runtime (leader election, events) or one controller: each gets its own roles. */
export type RbacComponent = 'runtime' | ControllerName;

/**
 * Where a rule applies: the namespaces the operator watches (all of them: a ClusterRole; a list, as with
 * `--namespaces`: a Role in each), its own namespace (the leader Lease), or the enforcement namespace.
 */
export type RuleScope = 'watched' | { readonly namespace: 'operator' | 'enforcement' };

export interface RbacRule {
  readonly apiGroups: readonly string[];
  /** `resource` or `resource/subresource`. */
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly scope: RuleScope;
}

const operatorNamespace = { namespace: 'operator' } as const;
const enforcementNamespace = { namespace: 'enforcement' } as const;

export const RBAC_RULES: Readonly<Record<RbacComponent, readonly RbacRule[]>> = {
  runtime: [
    // Leader election happens in the operator's own namespace.
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'], scope: operatorNamespace },
    // Events go to the namespaces of the objects they are about; each is a new Event, never a patched series.
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'], scope: 'watched' },
  ],
  'keystone-appcred': [
    // patch: finalizers. Status is a merge patch of the status subresource; nothing is ever replaced (PUT).
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials'], verbs: ['get', 'list', 'watch', 'patch'], scope: 'watched' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials/status'], verbs: ['patch'], scope: 'watched' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapis'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // The credential Secrets live next to their CRs; patch: their labels and protection finalizer.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'watched' },
  ],
  'apikey-enforcement': [
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys/status'], verbs: ['patch'], scope: 'watched' },
    // Reads the consumers' key Secrets next to their APIKeys.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'], scope: 'watched' },
    // Watches its enforcement Secrets where Authorino looks (and sweeps orphans there); creates and deletes them,
    // never changes one in place.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'delete'], scope: enforcementNamespace },
  ],
};

export const RBAC_COMPONENTS = Object.keys(RBAC_RULES) as RbacComponent[];

/** Name of the ClusterRole, Role and bindings of a component. */
export function rbacObjectName(component: RbacComponent): string {
  return `keyward-${component}`;
}

/** One verb on one resource in one scope: what an access review asks about. */
export interface Permission {
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string | undefined;
  readonly verb: string;
  readonly scope: RuleScope;
}

/** The rules spelled out, one permission per group, resource and verb. */
export function permissionsOf(rules: readonly RbacRule[]): Permission[] {
  return rules.flatMap((rule) =>
    rule.apiGroups.flatMap((apiGroup) =>
      rule.resources.flatMap((resourcePath) => {
        const [resource = resourcePath, subresource] = resourcePath.split('/');
        return rule.verbs.map((verb) => ({ apiGroup, resource, subresource, verb, scope: rule.scope }));
      }),
    ),
  );
}
