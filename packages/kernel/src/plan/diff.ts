import { Sensitive } from '../model/sensitive.js';
import { describeUnknown, isOutputRef } from './values.js';

const SENSITIVE = '(sensitive)';

/** A value as a plan shows it: sensitive values and later-known outputs are never printed. */
export function display(value: unknown): string {
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
 * only where the step states the whole value, as a status does). A changed value that is sensitive now hides
 * the old one too, and paths `hide` names show no value at all (a Secret's data).
 */
export function diffLines(observed: unknown, desired: unknown, options: { whole: boolean; prefix?: string; hide?: (path: string) => boolean }): string[] {
  const before = flatten(observed ?? {}, options.prefix ?? '', new Map());
  const after = flatten(desired, options.prefix ?? '', new Map());
  const shown = (path: string, value: unknown, hidden: boolean): string => ((hidden || options.hide?.(path) === true) && !isOutputRef(value) ? SENSITIVE : display(value));
  const lines: string[] = [];
  for (const [path, value] of after) {
    const secret = value instanceof Sensitive;
    if (!before.has(path)) lines.push(`+ ${path}: ${shown(path, value, secret)}`);
    else if (!sameLeaf(before.get(path), value)) lines.push(`~ ${path}: ${shown(path, before.get(path), secret || before.get(path) instanceof Sensitive)} => ${shown(path, value, secret)}`);
  }
  if (options.whole) for (const path of before.keys()) if (!after.has(path)) lines.push(`- ${path}`);
  return lines;
}
