// How the chart's generated templates read a module option's value, shared by chart-values.ts and chart-rbac.ts.
import type { HelmValue } from '@keyward/kernel/plan';

export const CHART = 'deploy/helm/keyward';

export const GENERATED = 'pnpm generate:chart writes this from the operator\'s modules; change them, not this';

/** The template expression of a value, as the option's variable takes it. */
export function valueExpression(helm: HelmValue): string {
  const value = `.Values.${helm.path}`;
  if (typeof helm.type === 'object') return `(join "," (${value} | default (list)))`;
  return helm.emptyMeansReleaseNamespace === true ? `(${value} | default .Release.Namespace)` : value;
}

/** The template expression of the namespace a value names: itself, or the namespace of its namespace/name. */
export function namespaceExpression(helm: HelmValue): string {
  if (helm.type === 'namespacedName') return `(regexReplaceAll "/.*$" .Values.${helm.path} "")`;
  if (helm.type === 'namespace' || helm.type === 'text') return valueExpression(helm);
  throw new Error(`${helm.path} names no namespace`);
}

/** A string as a template's literal (Go's quoting of the text the modules hold is JSON's). */
export function templateString(text: string): string {
  return JSON.stringify(text);
}
