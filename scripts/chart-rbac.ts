// The chart's RBAC rules (templates/_rbac.tpl), from the same declarations `keyward rbac` reads: the runtime's
// rules in packages/operator/src/rbac.ts and each controller module's. templates/rbac.yaml places them.
import type { HelmValue } from '@keyward/kernel/plan';
import { moduleNamed } from '../packages/operator/src/controllers.js';
import { RBAC_RULES, type RbacComponent, type RbacRule } from '../packages/operator/src/rbac.js';
import { CHART, GENERATED, namespaceExpression, templateString } from './chart-helm.js';

export const RBAC_TEMPLATE = `${CHART}/templates/_rbac.tpl`;

/** The Helm values a configured scope's options are given by, the first set one's namespace winning. */
function scopeValues(component: RbacComponent, namespaceOf: readonly string[]): HelmValue[] {
  const { options } = moduleNamed(component);
  return namespaceOf.map((field) => {
    const helm = options[field]?.helm;
    if (helm === undefined) throw new Error(`a rule of ${component} lands in the namespace ${field} names, which has no Helm value`);
    return helm;
  });
}

/** A scope as the chart names it: as rbac.ts does, a configured one by its values' paths joined by "|". */
function scopeName(component: RbacComponent, { scope }: RbacRule): string {
  if (typeof scope === 'string') return scope;
  if (scope.namespace === 'operator') return 'operator';
  return scopeValues(component, scope.namespaceOf).map(({ path }) => path).join('|');
}

/** A scalar in a flow sequence or mapping: plain when YAML reads it so, else quoted. */
const flowScalar = (text: string): string => (/^[a-z0-9][-a-z0-9./]*$/i.test(text) ? text : JSON.stringify(text));
const flowList = (items: readonly string[]): string => `[${items.map(flowScalar).join(', ')}]`;

function ruleLine(component: RbacComponent, rule: RbacRule): string {
  return `  - { apiGroups: ${flowList(rule.apiGroups)}, resources: ${flowList(rule.resources)}, verbs: ${flowList(rule.verbs)}, scope: ${flowScalar(scopeName(component, rule))} }`;
}

/** [namespace, the value's path] of the first of `values` whose namespace is not empty; the last one otherwise. */
function firstNamedNamespace([first, ...rest]: readonly HelmValue[]): string {
  if (first === undefined) throw new Error('a configured scope names no value');
  const pair = `(list ${namespaceExpression(first)} ${templateString(first.path)})`;
  return rest.length === 0 ? pair : `(ternary ${pair} ${firstNamedNamespace(rest)} (not (empty ${namespaceExpression(first)})))`;
}

/** Each configured scope once, with its values. */
function configuredScopes(): Map<string, readonly HelmValue[]> {
  const scopes = new Map<string, readonly HelmValue[]>();
  for (const [component, rules] of Object.entries(RBAC_RULES)) {
    for (const { scope } of rules) {
      if (typeof scope === 'string' || scope.namespace !== 'configured') continue;
      const values = scopeValues(component, scope.namespaceOf);
      scopes.set(values.map(({ path }) => path).join('|'), values);
    }
  }
  return scopes;
}

const RULES_COMMENT = `{{- /*
The operator's permissions, as packages/operator/src/rbac.ts (the runtime's) and the controller modules declare
them, per component, in declaration order. A scope says where a rule lands:
  watched:  every watched namespace (a ClusterRole when all are watched)
  cluster:  the cluster, in every install (cluster-scoped resources)
  operator: the release namespace (the leader Lease, the published settings)
  a value's path (several joined by "|": the first that names one): the namespace it names (keyward.namedNamespaces)
Tests render the chart for several values and compare its roles with \`keyward rbac\` for the same settings.
*/ -}}`;

/** The text of templates/_rbac.tpl. */
export function rbacTemplate(): string {
  const rules = Object.entries(RBAC_RULES).flatMap(([component, componentRules]) => [`${component}:`, ...componentRules.map((rule) => ruleLine(component, rule))]);
  const named = [...configuredScopes()].map(([name, values]) => `  ${templateString(name)} ${firstNamedNamespace(values)}`);
  return [
    `{{- /* ${GENERATED} file. */ -}}`,
    '',
    RULES_COMMENT,
    '{{- define "keyward.rbacRules" -}}',
    ...rules,
    '{{- end }}',
    '',
    '{{- /* The namespaces values name for rules, by scope: [the namespace, the value that names it], JSON. */ -}}',
    '{{- define "keyward.namedNamespaces" -}}',
    '{{- toJson (dict',
    ...named,
    ') -}}',
    '{{- end }}',
    '',
  ].join('\n');
}
