import { deepEqual } from './equality.js';
import type { Json } from './values.js';

type JsonObject = Record<string, Json>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON merge patch (RFC 7386) that turns `observed` into `desired`: changed and new fields are set, fields
 * `desired` lacks are set to null (removed), nested objects are patched recursively.
 */
export function mergePatch(observed: unknown, desired: Json): Json {
  if (!isObject(desired) || !isObject(observed)) return desired;
  const patch: JsonObject = {};
  for (const [key, value] of Object.entries(desired)) {
    if (!deepEqual(observed[key], value)) patch[key] = mergePatch(observed[key], value);
  }
  for (const key of Object.keys(observed)) if (!(key in desired)) patch[key] = null;
  return patch;
}

/** Applies an RFC 7386 JSON merge patch: null removes a field, objects merge recursively, anything else replaces. */
export function applyMergePatch(target: unknown, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const base: JsonObject = isObject(target) ? target : {};
  const removed = new Set(Object.entries(patch).filter(([, value]) => value === null).map(([key]) => key));
  const result: JsonObject = Object.fromEntries(Object.entries(base).filter(([key]) => !removed.has(key)));
  for (const [key, value] of Object.entries(patch)) if (value !== null) result[key] = applyMergePatch(base[key], value);
  return result;
}
