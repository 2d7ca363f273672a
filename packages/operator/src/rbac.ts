import type { ControllerName } from './controllers.js';

/**
 * The operator's permissions, least privilege, as data. deploy/base/rbac-*.yaml states exactly these (a unit
 * test compares them), and an integration test checks them against a real API server.
 */

/** The shared runtime (leader election, events) or one controller: each gets its own roles. */
export type RbacComponent = 'runtime' | ControllerName;

/** Cluster-wide (ClusterRole and ClusterRoleBinding), or one namespace (Role and RoleBinding). */
export type RuleScope = 'cluster' | { readonly namespace: 'operator' | 'enforcement' };

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
    // Events go to the namespaces of the objects they are about.
    { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'], scope: 'cluster' },
  ],
  'keystone-appcred': [
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials'], verbs: ['get', 'list', 'watch', 'patch', 'update'], scope: 'cluster' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapplicationcredentials/status'], verbs: ['get', 'patch', 'update'], scope: 'cluster' },
    { apiGroups: ['keystone.openstack.org'], resources: ['keystoneapis'], verbs: ['get', 'list', 'watch'], scope: 'cluster' },
    // The credential Secrets live next to their CRs, in any namespace.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'], scope: 'cluster' },
  ],
  'apikey-enforcement': [
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys'], verbs: ['get', 'list', 'watch'], scope: 'cluster' },
    { apiGroups: ['devportal.kuadrant.io'], resources: ['apikeys/status'], verbs: ['get', 'patch', 'update'], scope: 'cluster' },
    // Reads the consumers' key Secrets everywhere, but writes only where Authorino looks.
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'], scope: 'cluster' },
    { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'patch'], scope: enforcementNamespace },
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
