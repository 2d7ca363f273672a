import { deepEqual } from '../../../plan/equality.js';
import type { KubeObject } from '../actions.js';
import type { Json } from '../../../plan/values.js';

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
