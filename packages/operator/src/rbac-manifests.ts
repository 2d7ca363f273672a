import { stringify } from 'yaml';
import type { ModuleSettings } from './config.js';
import type { ControllerName } from './controllers.js';
import { RBAC_RULES, rbacObjectName, type RbacComponent, type RuleScope } from './rbac.js';

/** What the operator's roles depend on: what it runs, what it watches, where it lives. */
export interface RbacInstall extends ModuleSettings {
  readonly controllers: readonly ControllerName[];
  /** The namespaces it watches: 'all' gives ClusterRoles, a list gives a Role in each of them instead. */
  readonly namespaces: readonly string[] | 'all';
  /** Where its ServiceAccount and leader election Lease are. */
  readonly operatorNamespace: string;
  readonly serviceAccount: string;
}

export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

/** A rule about a path that is no resource, such as /metrics. */
export interface NonResourceRule {
  readonly nonResourceURLs: readonly string[];
  readonly verbs: readonly string[];
}

interface Metadata {
  readonly name: string;
  readonly namespace?: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface RoleObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'Role' | 'ClusterRole';
  readonly metadata: Metadata;
  readonly rules: readonly PolicyRule[];
}

/** A ClusterRole for others to bind: the operator's ServiceAccount is not. */
export interface GrantableRoleObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'ClusterRole';
  readonly metadata: Metadata;
  readonly rules: readonly NonResourceRule[];
}

export interface BindingObject {
  readonly apiVersion: 'rbac.authorization.k8s.io/v1';
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly metadata: Metadata;
  readonly roleRef: { readonly apiGroup: 'rbac.authorization.k8s.io'; readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
  readonly subjects: readonly { readonly kind: 'ServiceAccount'; readonly name: string; readonly namespace: string }[];
}

export type RbacObject = RoleObject | BindingObject | GrantableRoleObject;

const API_VERSION = 'rbac.authorization.k8s.io/v1';
const LABELS = { 'app.kubernetes.io/name': 'keyward' };

/** The namespaces a rule lands in; undefined stands for cluster-wide. */
function placesOf(scope: RuleScope, install: RbacInstall): readonly (string | undefined)[] {
  if (scope === 'cluster') return [undefined];
  if (scope === 'watched') return install.namespaces === 'all' ? [undefined] : install.namespaces;
  return [scope.namespace === 'operator' ? install.operatorNamespace : scope.of(install)];
}

/**
 * The name of a role in a place: a namespaced install's ClusterRoles carry the operator's namespace, so
 * namespaced installs in namespaces of their own share none (a cluster-wide install is one per cluster).
 */
function roleName(name: string, namespace: string | undefined, install: RbacInstall): string {
  return namespace === undefined && install.namespaces !== 'all' ? `${name}-${install.operatorNamespace}` : name;
}

/** A role of a component in one place (a namespace, or the cluster) and its binding to the ServiceAccount. */
function roleAndBinding(component: RbacComponent, namespace: string | undefined, rules: readonly PolicyRule[], install: RbacInstall): RbacObject[] {
  const kind = namespace === undefined ? 'ClusterRole' : 'Role';
  const metadata: Metadata = { name: roleName(rbacObjectName(component), namespace, install), ...(namespace === undefined ? {} : { namespace }), labels: LABELS };
  return [
    { apiVersion: API_VERSION, kind, metadata, rules },
    {
      apiVersion: API_VERSION,
      kind: `${kind}Binding`,
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: metadata.name },
      subjects: [{ kind: 'ServiceAccount', name: install.serviceAccount, namespace: install.operatorNamespace }],
    },
  ];
}

export const METRICS_READER = 'keyward-metrics-reader';

/** The ClusterRole that lets a scraper read the secure metrics: bind it to Prometheus's ServiceAccount. */
export function metricsReaderRole(install: RbacInstall): GrantableRoleObject {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: { name: roleName(METRICS_READER, undefined, install), labels: LABELS },
    rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
  };
}

/**
 * The Roles, ClusterRoles and bindings of an install: per component (the runtime and each controller), one
 * role per place its rules land in, holding all of its rules there (a watched namespace that is also the
 * operator's or the enforcement namespace gets one Role with both); and the metrics reader's ClusterRole.
 */
export function rbacManifests(install: RbacInstall): RbacObject[] {
  const components: readonly RbacComponent[] = ['runtime', ...install.controllers];
  const operatorRoles = components.flatMap((component) => {
    const rulesByPlace = new Map<string | undefined, PolicyRule[]>();
    for (const { apiGroups, resources, verbs, scope } of RBAC_RULES[component] ?? []) {
      for (const place of placesOf(scope, install)) rulesByPlace.set(place, [...(rulesByPlace.get(place) ?? []), { apiGroups, resources, verbs }]);
    }
    return [...rulesByPlace].flatMap(([namespace, rules]) => roleAndBinding(component, namespace, rules, install));
  });
  return [...operatorRoles, metricsReaderRole(install)];
}

/** The install's RBAC as one multi-document YAML stream, for `keyward rbac | kubectl apply -f -`. */
export function rbacYaml(install: RbacInstall): string {
  return rbacManifests(install).map((object) => stringify(object)).join('---\n');
}
