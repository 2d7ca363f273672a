import type { KubeObject } from '@keyward/kernel';
import { parse } from 'yaml';
import { policyYaml } from './config-map.js';
import { entries } from './read.js';
import type { Keystone } from './spec.js';
import type { StepReport } from './status.js';

/** A policy.yaml's rules: a map of rule name to check string, or why it is not one. */
function parseRules(text: string): Record<string, string> | string {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    return `it is not YAML (${error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)})`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'it is not a map of rule to check string';
  const rules = Object.entries(parsed as Record<string, unknown>);
  const bad = rules.find(([, check]) => typeof check !== 'string');
  return bad === undefined ? Object.fromEntries(rules as [string, string][]) : `rule ${bad[0]} is not a check string`;
}

/**
 * The policy.yaml the pods get, undefined without policyOverrides: the inline rules, the ConfigMap's policy.yaml
 * as it is, or with both the ConfigMap's rules with the inline ones over them (as C5C3 has it). A report when
 * the ConfigMap is missing, empty or not a map of rules.
 */
export function policyOf(cr: Keystone, configMap: KubeObject | undefined): string | StepReport | undefined {
  const overrides = cr.spec.policyOverrides;
  if (overrides === undefined) return undefined;
  const inline = overrides.rules ?? {};
  if (overrides.configMapRef === undefined) return policyYaml(inline);
  const name = overrides.configMapRef.name;
  const text = entries(configMap)['policy.yaml'];
  if (text === undefined || text.trim() === '') {
    return { status: 'False', reason: 'PolicyNotFound', message: `ConfigMap ${name} not found or without a non-empty policy.yaml` };
  }
  if (Object.keys(inline).length === 0) return text;
  const fromConfigMap = parseRules(text);
  if (typeof fromConfigMap === 'string') return { status: 'False', reason: 'PolicyInvalid', message: `the policy.yaml of ConfigMap ${name} cannot take the inline rules: ${fromConfigMap}` };
  return policyYaml({ ...fromConfigMap, ...inline });
}
