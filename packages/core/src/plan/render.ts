import { Sensitive } from '../model/sensitive.js';
import { describeAction } from './describe.js';
import type { Plan, Step } from './plan.js';
import type { Action } from './registry.js';
import { describeUnknown, isOutputRef } from './values.js';

const KNOWN_AFTER_APPLY = '(known after apply)';
const SENSITIVE = '(sensitive)';
/** Lines of diff shown per step; the rest is counted. */
const MAX_DIFF_LINES = 40;

/** A value as a plan shows it: sensitive values and later-known outputs are never printed. */
function display(value: unknown): string {
  if (value instanceof Sensitive) return SENSITIVE;
  if (isOutputRef(value)) return describeUnknown(value);
  return JSON.stringify(value);
}

/** Leaf paths of a JSON-like value: "metadata.labels.app", "data.AC_ID", "spec.roles[0]". */
function flatten(value: unknown, prefix: string, into: Map<string, unknown>): Map<string, unknown> {
  const isLeaf = value === null || typeof value !== 'object' || value instanceof Sensitive || isOutputRef(value);
  if (isLeaf) {
    into.set(prefix, value);
  } else if (Array.isArray(value)) {
    if (value.length === 0) into.set(prefix, value);
    value.forEach((item, i) => flatten(item, `${prefix}[${String(i)}]`, into));
  } else {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0 && prefix !== '') into.set(prefix, value);
    for (const [key, item] of entries) flatten(item, prefix === '' ? key : `${prefix}.${key}`, into);
  }
  return into;
}

function sameLeaf(a: unknown, b: unknown): boolean {
  if (a instanceof Sensitive || b instanceof Sensitive || isOutputRef(a) || isOutputRef(b)) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Diff lines between what is observed and what a step wants: `+` new, `~` changed, `-` removed (removals
 * only where the step states the whole value, as a status does).
 */
export function diffLines(observed: unknown, desired: unknown, options: { whole: boolean; prefix?: string }): string[] {
  const before = flatten(observed ?? {}, options.prefix ?? '', new Map());
  const after = flatten(desired, options.prefix ?? '', new Map());
  const lines: string[] = [];
  for (const [path, value] of after) {
    if (!before.has(path)) lines.push(`+ ${path}: ${display(value)}`);
    else if (!sameLeaf(before.get(path), value)) lines.push(`~ ${path}: ${display(before.get(path))} => ${display(value)}`);
  }
  if (options.whole) for (const path of before.keys()) if (!after.has(path)) lines.push(`- ${path}`);
  return lines;
}

function detailLines(action: Action): string[] {
  switch (action.kind) {
    case 'k8s.apply': return diffLines(action.observed, action.object, { whole: false });
    case 'k8s.create': return diffLines(undefined, action.object, { whole: false });
    case 'k8s.patch':
      return action.patch.type === 'merge'
        ? diffLines(action.observed, action.patch.body, { whole: false })
        : action.patch.operations.map((op) => `${op.op} ${op.path}${op.value === undefined ? '' : `: ${display(op.value)}`}`);
    case 'k8s.status': return diffLines(action.observed, action.status, { whole: true, prefix: 'status' });
    case 'k8s.event': return [`note: ${action.note}`];
    default: return [];
  }
}

function renderStep(step: Step, index: number): string[] {
  const lines = [`${String(index + 1)}. ${describeAction(step.action)}`, `   why: ${step.reason}`];
  const details = detailLines(step.action);
  lines.push(...details.slice(0, MAX_DIFF_LINES).map((line) => `     ${line}`));
  if (details.length > MAX_DIFF_LINES) lines.push(`     ... ${String(details.length - MAX_DIFF_LINES)} more`);
  if (step.compensation !== undefined) {
    lines.push(`   if a later step fails: ${describeAction(step.compensation.action)} (${step.compensation.reason})`);
  }
  return lines;
}

/** A plan as readable text, like a Terraform plan: what would happen, why, and the object diffs. */
export function renderPlanText(plan: Plan, title?: string): string {
  const header = title === undefined ? [] : [title];
  if (plan.steps.length === 0) return [...header, 'no changes'].join('\n');
  return [...header, ...plan.steps.flatMap(renderStep)].join('\n');
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
export function renderPlanJson(plan: Plan): unknown {
  return {
    steps: plan.steps.map((step) => {
      const { observed: _observed, ...action } = step.action as Action & { observed?: unknown };
      return {
        id: step.id,
        kind: step.action.kind,
        summary: describeAction(step.action),
        reason: step.reason,
        action: toDisplayJson(action),
        ...(step.compensation === undefined ? {} : { compensation: toDisplayJson(step.compensation) }),
      };
    }),
  };
}
