import type { ModuleSettings } from './config.js';
import { MODULES, type ControllerName, type ErasedModule } from './controllers.js';

/**
 * The operator's permissions, least privilege, as data: every verb is one the code uses (the Kubernetes handlers
 * write status and finalizers with merge PATCHes, create Events and never patch them; leader election PUTs its
 * Lease). rbac-manifests.ts turns them into Roles and ClusterRoles; the Helm chart's rules are generated from
 * them (scripts/chart-rbac.ts); deploy/base states exactly those of the cluster-wide install (a unit test compares
 * them), and integration tests check both installs against a real API server.
 */

/** The shared runtime (leader election, events) or a controller by name: each gets its own roles. */
export type RbacComponent = ControllerName;

/**
 * Where a rule applies: the namespaces the operator watches (all of them: a ClusterRole; a list, as with
 * `--namespaces`: a Role in each), the cluster whatever it watches (cluster-scoped resources: a ClusterRole in
 * every install), its own namespace (the leader Lease), or a namespace a controller's configuration names
 * (the enforcement namespace): that of the first set of the options `namespaceOf` names.
 */
export type RuleScope =
  | 'watched'
  | 'cluster'
  | { readonly namespace: 'operator' }
  | { readonly namespace: 'configured'; readonly of: (settings: ModuleSettings) => string; readonly namespaceOf: readonly string[] };

export interface RbacRule {
  readonly apiGroups: readonly string[];
  /** `resource` or `resource/subresource`. */
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly scope: RuleScope;
}

/** A module's rule with its scope as the operator places it. */
function operatorRule(rule: ErasedModule['rbac'][number]): RbacRule {
  const { scope } = rule;
  return {
    apiGroups: rule.apiGroups,
    resources: rule.resources,
    verbs: rule.verbs,
    scope: scope === 'watched' ? 'watched' : scope === 'operator' ? { namespace: 'operator' } : { namespace: 'configured', of: scope.namespace, namespaceOf: scope.namespaceOf },
  };
}

export const RBAC_RULES: Readonly<Record<RbacComponent, readonly RbacRule[]>> = {
  runtime: [
    // Leader election happens in the operator's own namespace; with sharding, each replica lists the shard Leases
    // there and deletes those of replicas long gone.
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'create', 'update', 'delete'], scope: { namespace: 'operator' } },
    // The settings it publishes for `keyward plan`, by server-side apply: patch, and create the first time. It never reads them.
    { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'patch'], scope: { namespace: 'operator' } },
    // Events go to the namespaces of the objects they are about; each is a new Event, never a patched series.
    { apiGroups: [''], resources: ['events'], verbs: ['create'], scope: 'watched' },
    // The secure metrics server asks who a scraper's token belongs to and whether it may get /metrics.
    { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'], scope: 'cluster' },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'], scope: 'cluster' },
  ],
  ...Object.fromEntries(MODULES.map((module) => [module.definition.name, module.rbac.map(operatorRule)])),
};

export const RBAC_COMPONENTS: readonly RbacComponent[] = Object.keys(RBAC_RULES);

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
