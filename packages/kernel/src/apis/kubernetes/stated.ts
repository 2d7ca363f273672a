import type { ObjectRef } from '../../model/refs.js';
import { Sensitive } from '../../model/sensitive.js';
import { deepEqual } from '../../plan/equality.js';
import type { PlanSteps } from '../../plan/plan.js';
import { isOutputRef, type Json, type Template } from '../../plan/values.js';
import type { ApplyAction, KubeObject, ObjectTemplate } from './actions.js';

type JsonObject = Record<string, Json>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Secret body with `stringData` folded into base64 `data`, as the server stores it. */
function withStringDataEncoded(body: JsonObject): JsonObject {
  const { stringData, ...rest } = body;
  if (!isObject(stringData)) return body;
  const data: JsonObject = isObject(rest['data']) ? { ...rest['data'] } : {};
  for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8').toString('base64');
  return { ...rest, data };
}

function isSubsetMap(wanted: Json | undefined, actual: unknown): boolean {
  if (!isObject(wanted)) return true;
  const have = isObject(actual) ? actual : {};
  return Object.entries(wanted).every(([key, value]) => deepEqual(have[key], value));
}

/**
 * Whether an existing object already has everything a create-only body states: the same top-level fields
 * (data, type, spec, ...), and the body's labels and annotations among its own. Server-filled metadata
 * (uid, resourceVersion, managedFields) is ignored.
 */
export function hasStatedContent(existing: KubeObject, body: Json): boolean {
  if (!isObject(body)) return false;
  const wanted = withStringDataEncoded(body);
  const { metadata, apiVersion: _v, kind: _k, ...fields } = wanted;
  const meta = isObject(metadata) ? metadata : {};
  return (
    Object.entries(fields).every(([key, value]) => deepEqual(existing[key], value)) &&
    isSubsetMap(meta['labels'], existing.metadata.labels) &&
    isSubsetMap(meta['annotations'], existing.metadata.annotations)
  );
}

/**
 * Whether `observed` already holds every value `desired` states: maps as subsets (the server and other
 * managers add fields), lists element by element and of the same length, null as absent (stating null removes
 * a field), sensitive values compared revealed, and a value known only after an earlier step never held. A
 * top-level `stringData` counts as the base64 `data` the server stores it as.
 */
export function holdsStated(observed: unknown, desired: Template | undefined): boolean {
  if (desired === null || typeof desired !== 'object' || Array.isArray(desired) || isOutputRef(desired) || desired instanceof Sensitive) return holdsValue(observed, desired);
  const { stringData, ...rest } = desired as Readonly<Record<string, Template | undefined>>;
  return holdsValue(observed, rest) && (stringData === undefined || holdsStringData(isObject(observed) ? observed['data'] : undefined, stringData));
}

function holdsValue(observed: unknown, desired: Template | undefined): boolean {
  if (desired === undefined) return true;
  if (desired === null) return observed === null || observed === undefined;
  if (isOutputRef(desired)) return false;
  if (desired instanceof Sensitive) return observed === desired.reveal();
  if (Array.isArray(desired)) {
    const items = desired as readonly Template[];
    return Array.isArray(observed) && observed.length === items.length && items.every((item, i) => holdsValue(observed[i], item));
  }
  if (typeof desired === 'object') {
    const have = isObject(observed) ? observed : {};
    return Object.entries(desired as Readonly<Record<string, Template | undefined>>).every(([key, value]) => holdsValue(have[key], value));
  }
  return deepEqual(observed, desired);
}

function holdsStringData(data: unknown, stringData: Template | undefined): boolean {
  if (stringData === undefined || stringData === null || typeof stringData !== 'object' || Array.isArray(stringData) || isOutputRef(stringData) || stringData instanceof Sensitive) return false;
  const have = isObject(data) ? data : {};
  return Object.entries(stringData as Readonly<Record<string, Template | undefined>>).every(([key, value]) => {
    if (value === undefined) return true;
    if (isOutputRef(value)) return false;
    const text = value instanceof Sensitive ? value.reveal() : typeof value === 'string' ? value : JSON.stringify(value);
    return have[key] === Buffer.from(text, 'utf8').toString('base64');
  });
}

/**
 * Adds a server-side apply of `object` only when `observed` does not already hold everything it states, so a
 * plan of many objects is quiet on resync. Returns whether a step was added.
 */
export function addApplyIfChanged(plan: PlanSteps<ApplyAction>, ref: ObjectRef, observed: KubeObject | undefined, object: ObjectTemplate, reason: string, options: { readonly force?: boolean } = {}): boolean {
  if (observed !== undefined && holdsStated(observed, object)) return false;
  plan.add({ kind: 'k8s.apply', ref, object, observed, ...(options.force === undefined ? {} : { force: options.force }) }, reason);
  return true;
}
