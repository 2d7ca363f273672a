import { Sensitive } from '../model/sensitive.js';

/**
 * A value an earlier step of the same plan will produce ("known after apply"): the interpreter substitutes it
 * when it runs the step that uses it; renderers print it as `(known after apply)`.
 */
export interface OutputRef<T> {
  readonly kind: 'output';
  readonly step: string;
  readonly output: string;
  /** Text made from a string output: `before` + its first `length` characters + `after` (a name from an id). */
  readonly format?: OutputFormat;
  /** Phantom: the type of the value, for the compiler only. */
  readonly __type?: T;
}

export interface OutputFormat {
  readonly before?: string;
  readonly length?: number;
  readonly after?: string;
}

/** A string built from a string output, e.g. `ac-nova-` + the first 5 characters of a credential id + `-secret`. */
export function formatOutput(ref: OutputRef<string>, format: OutputFormat): OutputRef<string> {
  return { ...ref, format };
}

/** Applies a reference's format to the value looked up for it. */
export function applyFormat(ref: OutputRef<unknown>, value: unknown): unknown {
  if (ref.format === undefined) return value;
  if (typeof value !== 'string') throw new TypeError(`output ${ref.step}.${ref.output} is not text and cannot be formatted`);
  const { before = '', length, after = '' } = ref.format;
  return `${before}${length === undefined ? value : value.slice(0, length)}${after}`;
}

/** How a plan shows a value that is not known yet: formatted references keep their known text. */
export function describeUnknown(ref: OutputRef<unknown>): string {
  return `${ref.format?.before ?? ''}(known after apply)${ref.format?.after ?? ''}`;
}

/** Either a value known while planning or one an earlier step will produce. */
export type Value<T> = T | OutputRef<T>;

export function outputRef<T>(step: string, output: string): OutputRef<T> {
  return { kind: 'output', step, output };
}

export function isOutputRef(value: unknown): value is OutputRef<unknown> {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'output' && 'step' in value && 'output' in value;
}

/**
 * JSON-like data whose leaves may also be sensitive values or outputs of earlier steps: the body of an object
 * to create or a patch. Resolving a template reveals sensitive values, so it happens only at execution time.
 */
export type Template =
  | string
  | number
  | boolean
  | null
  | Sensitive
  | OutputRef<unknown>
  | readonly Template[]
  | { readonly [key: string]: Template | undefined };

/** A template with every output substituted and every sensitive value revealed: ready to send. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Whether a template contains no output of a later-known step (so it can be compared or shown fully). */
export function isFullyKnown(template: Template | undefined): boolean {
  if (template === undefined || template === null || typeof template !== 'object') return true;
  if (isOutputRef(template)) return false;
  if (template instanceof Sensitive) return true;
  if (Array.isArray(template)) return (template as readonly Template[]).every(isFullyKnown);
  return Object.values(template as Record<string, Template | undefined>).every(isFullyKnown);
}

/**
 * Substitutes outputs (through `lookup`) and reveals sensitive values. Keys whose value is undefined are
 * dropped, as JSON.stringify would.
 */
export function resolveTemplate(template: Template, lookup: (ref: OutputRef<unknown>) => unknown): Json {
  if (template === null || typeof template !== 'object') return template;
  if (template instanceof Sensitive) return template.reveal();
  if (isOutputRef(template)) return toJson(applyFormat(template, lookup(template)));
  if (Array.isArray(template)) return (template as readonly Template[]).map((item) => resolveTemplate(item, lookup));
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(template as Record<string, Template | undefined>)) {
    if (value !== undefined) out[key] = resolveTemplate(value, lookup);
  }
  return out;
}

/** An output value as JSON: sensitive outputs are revealed here, because they are being sent. */
function toJson(value: unknown): Json {
  if (value instanceof Sensitive) return toJson(value.reveal());
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, toJson(v)]));
  }
  throw new TypeError(`an output of type ${typeof value} cannot be used in an object`);
}
