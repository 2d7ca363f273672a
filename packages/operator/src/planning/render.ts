import { stringify } from 'yaml';
import { renderPlanJson, renderPlanText, type AnyAction, type Plan } from '@keyward/kernel';
import { type AnyQuery, type Vocabulary } from '@keyward/kernel/plan';
import { conditionText, type ReadyCondition } from './conditions.js';
import { failsToConverge, type ObjectOutcome, type RoundsEnd } from './rounds.js';

/** What `keyward plan` says about one object. */
export interface PlannedObject {
  readonly entry: 'object';
  readonly kind: string;
  readonly namespace: string | undefined;
  readonly name: string;
  /** An object of the file that the cluster does not have yet. */
  readonly isNew: boolean;
  /** The object's Ready condition on the cluster, when it exists and has one. */
  readonly current?: ReadyCondition;
  readonly vocabulary: Vocabulary<AnyAction, AnyQuery>;
  readonly outcome: ObjectOutcome;
}

/** A kind whose CRD is not installed: nothing of it can be planned. */
export interface MissingKind {
  readonly entry: 'missing';
  readonly kind: string;
  readonly crd: string;
  readonly hint: string;
  /** Objects of the kind in the file, which could not be created. */
  readonly inFile?: number;
}

export type PlanEntry = PlannedObject | MissingKind;

function indent(text: string, by: string): string[] {
  return text.split('\n').map((line) => `${by}${line}`);
}

function endLine(end: RoundsEnd, rounds: number): string | undefined {
  switch (end.kind) {
    case 'quiet': return undefined;
    case 'limit': return `stopped after ${String(end.rounds)} reconciles that all change something; it may not settle`;
    case 'gone': return 'then the object is gone';
    case 'notSimulated': return `later reconciles: not shown (they depend on what the ${end.api} API does, which a plan does not simulate)`;
    case 'failed': return [
      `${rounds > 1 ? `reconcile ${String(rounds)} ` : ''}fails at step ${String(end.step)}, ${end.summary} (${end.reason}): ${end.message}`,
      `  the steps after it are not taken; the controller ${end.reported === undefined ? '' : `reports ${conditionText(end.reported, false)} and `}${end.then} (later reconciles: not shown)`,
    ].join('\n');
    case 'held': return `a failure recorded in status holds generation ${String(end.generation)}: the controller sends nothing for it again until the object is edited`;
    case 'invalid': return `reconcile ${String(rounds + 1)}: invalid spec: ${end.message}`;
    case 'unreadable': return `reconcile ${String(rounds + 1)}: ${unreadableText(end)}`;
  }
}

function unreadableText({ reason, message }: { readonly reason: string; readonly message: string }): string {
  return `cannot read what it needs (${reason}): ${message}`;
}

/** The object's condition on the cluster, where it says something: it is not Ready, or the plan shows a failure. */
function currentLine(entry: PlannedObject): string[] {
  const { current } = entry;
  return current !== undefined && (current.status !== 'True' || failsToConverge(entry.outcome)) ? [`  now: ${conditionText(current)}`] : [];
}

function renderPlanned(plans: readonly Plan[], end: RoundsEnd, vocabulary: Vocabulary<AnyAction, AnyQuery>): string[] {
  const last = endLine(end, plans.length);
  const [only] = plans;
  if (plans.length === 1 && only !== undefined) return [...indent(renderPlanText(only, vocabulary), '  '), ...(last === undefined ? [] : [`  ${last}`])];
  const rounds = plans.flatMap((plan, index) => plan.steps.length === 0
    ? [`  reconcile ${String(index + 1)}: no changes`]
    : [`  reconcile ${String(index + 1)}:`, ...indent(renderPlanText(plan, vocabulary), '    ')]);
  return [...rounds, ...(last === undefined ? [] : [`  ${last}`])];
}

function renderEntry(entry: PlanEntry): string {
  if (entry.entry === 'missing') {
    const what = entry.inFile === undefined ? 'nothing to plan' : `the ${entry.inFile === 1 ? 'object' : `${String(entry.inFile)} objects`} of the file cannot be created`;
    return `${entry.kind}: CRD ${entry.crd} is not installed; ${entry.hint} (${what})`;
  }
  const title = `${entry.kind} ${entry.namespace === undefined ? '' : `${entry.namespace}/`}${entry.name}${entry.isNew ? ' (new)' : ''}`;
  const { outcome } = entry;
  const head = [title, ...currentLine(entry)];
  switch (outcome.kind) {
    case 'invalid': return [...head, `  invalid spec: ${outcome.message}`].join('\n');
    case 'unreadable': return [...head, `  ${unreadableText(outcome)}`].join('\n');
    case 'planned': return [...head, ...renderPlanned(outcome.plans, outcome.end, entry.vocabulary)].join('\n');
  }
}

/** The plans as text, like a Terraform plan: per object, each reconcile's steps, why, and the diffs. */
export function renderText(entries: readonly PlanEntry[]): string {
  if (entries.length === 0) return 'no objects found';
  return entries.map(renderEntry).join('\n\n');
}

function endJson(end: RoundsEnd): Record<string, unknown> {
  const { kind, ...details } = end;
  return { end: kind, ...details };
}

/**
 * The plans as JSON: `settings` (what the controllers were configured with, and from where) and `objects`: per
 * object, `plan` (the next reconcile) and `later` (the reconciles its writes lead to, in order) with `end`
 * saying why they stop; or `invalid` or `unreadable`; a kind whose CRD is missing as `notInstalled`.
 */
export function renderJson(entries: readonly PlanEntry[], settings: unknown): string {
  const objects = entries.map((entry) => {
    if (entry.entry === 'missing') return { kind: entry.kind, notInstalled: entry.crd, hint: entry.hint, ...(entry.inFile === undefined ? {} : { inFile: entry.inFile }) };
    const { kind, namespace, name, outcome, vocabulary } = entry;
    const base = { kind, namespace, name, ...(entry.isNew ? { new: true } : {}), ...(entry.current === undefined ? {} : { current: entry.current }) };
    switch (outcome.kind) {
      case 'invalid': return { ...base, invalid: outcome.message };
      case 'unreadable': return { ...base, unreadable: outcome.message, reason: outcome.reason };
      case 'planned': {
        const [first, ...later] = outcome.plans;
        return { ...base, plan: renderPlanJson(first ?? { steps: [] }, vocabulary), later: later.map((plan) => renderPlanJson(plan, vocabulary)), ...endJson(outcome.end) };
      }
    }
  });
  return JSON.stringify({ settings, objects }, null, 2);
}

/** The same content as renderJson, in YAML (`-o yaml`): built from the JSON, so the two cannot differ. */
export function renderYaml(entries: readonly PlanEntry[], settings: unknown): string {
  const json: unknown = JSON.parse(renderJson(entries, settings));
  return stringify(json, { lineWidth: 0 }).trimEnd();
}
