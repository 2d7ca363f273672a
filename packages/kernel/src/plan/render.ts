import { Sensitive } from '../model/sensitive.js';
import type { AnyAction, AnyQuery } from './actions.js';
import type { Vocabulary } from './api.js';
import type { Plan, Step } from './plan.js';
import { isOutputRef } from './values.js';

const KNOWN_AFTER_APPLY = '(known after apply)';
const SENSITIVE = '(sensitive)';
/** Lines of diff shown per step; the rest is counted. */
const MAX_DIFF_LINES = 40;

function renderStep<A extends AnyAction>(vocabulary: Vocabulary<A, AnyQuery>, step: Step<A>, index: number): string[] {
  const lines = [`${String(index + 1)}. ${vocabulary.describe(step.action)}`, `   why: ${step.reason}`];
  const details = vocabulary.details(step.action);
  lines.push(...details.slice(0, MAX_DIFF_LINES).map((line) => `     ${line}`));
  if (details.length > MAX_DIFF_LINES) lines.push(`     ... ${String(details.length - MAX_DIFF_LINES)} more`);
  if (step.compensation !== undefined) {
    lines.push(`   if a later step fails: ${vocabulary.describe(step.compensation.action)} (${step.compensation.reason})`);
  }
  return lines;
}

/** A plan as readable text, like a Terraform plan: what would happen, why, and the object diffs. */
export function renderPlanText<A extends AnyAction>(plan: Plan<A>, vocabulary: Vocabulary<A, AnyQuery>, title?: string): string {
  const header = title === undefined ? [] : [title];
  if (plan.steps.length === 0) return [...header, 'no changes'].join('\n');
  return [...header, ...plan.steps.flatMap((step, index) => renderStep(vocabulary, step, index))].join('\n');
}

/** A JSON-safe copy of a value with sensitive values and later-known outputs replaced by markers. */
export function toDisplayJson(value: unknown): unknown {
  if (value instanceof Sensitive) return SENSITIVE;
  if (isOutputRef(value)) return `${KNOWN_AFTER_APPLY} ${value.step}.${value.output}`;
  if (Array.isArray(value)) return value.map(toDisplayJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toDisplayJson(v)]));
  }
  return value;
}

/** A plan as JSON data (for `keyward plan --output json`); observed objects are left out. */
export function renderPlanJson<A extends AnyAction>(plan: Plan<A>, vocabulary: Vocabulary<A, AnyQuery>): unknown {
  return {
    steps: plan.steps.map((step) => {
      const { observed: _observed, ...action } = step.action as A & { observed?: unknown };
      return {
        id: step.id,
        kind: step.action.kind,
        summary: vocabulary.describe(step.action),
        reason: step.reason,
        action: toDisplayJson(action),
        ...(step.compensation === undefined ? {} : { compensation: toDisplayJson(step.compensation) }),
      };
    }),
  };
}
