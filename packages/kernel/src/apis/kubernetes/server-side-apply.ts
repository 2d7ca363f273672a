import { deepEqual } from '../../plan/equality.js';
import type { Json } from '../../plan/values.js';

/**
 * Server-side apply as the API server does it, for the in-memory world: field ownership per manager, maps
 * merged, lists merged by key where Kubernetes declares them maps (containers by name, conditions by type,
 * ...) and replaced whole otherwise, fields a manager stops stating removed unless another manager owns them,
 * and a conflict when a manager sets a field another one owns to a different value (unless forced).
 */

type JsonObject = Record<string, Json>;

/**
 * The reason of an apply refused because another field manager owns a field it sets with a different value
 * (the API server says 409 Conflict, like a stale resourceVersion; unlike that, reading again does not help).
 */
export const FIELD_CONFLICT = 'FieldManagerConflict';

/** The field manager Keyward's applies and creates use. */
export const FIELD_MANAGER = 'keyward';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key of a list Kubernetes merges by key (x-kubernetes-list-type: map), by the list's field name. */
function listKey(field: string, items: readonly Json[]): string | undefined {
  const first = items.find(isObject);
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers': case 'volumes': case 'env': case 'imagePullSecrets':
      return 'name';
    case 'volumeMounts': return 'mountPath';
    case 'conditions': return 'type';
    // Container ports are keyed by containerPort, a Service's by port.
    case 'ports': return first !== undefined && 'containerPort' in first ? 'containerPort' : 'port';
    default: return undefined;
  }
}

/** Identity and server-written fields: part of every object, owned by no one. */
const IDENTITY = new Set([
  'apiVersion', 'kind', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.resourceVersion', 'metadata.generation',
  'metadata.creationTimestamp', 'metadata.deletionTimestamp', 'metadata.managedFields',
]);

/** A field path: dotted keys, keyed list items as `[key=value]`. */
function join(prefix: string, segment: string): string {
  return prefix === '' ? segment : segment.startsWith('[') ? `${prefix}${segment}` : `${prefix}.${segment}`;
}

/** The leaf fields a body states, with their values (atomic lists and scalars are leaves). */
export function statedFields(body: Json, prefix = '', field = '', into = new Map<string, Json>()): Map<string, Json> {
  if (isObject(body)) {
    const entries = Object.entries(body);
    if (entries.length === 0 && prefix !== '') into.set(prefix, body);
    for (const [key, value] of entries) statedFields(value, join(prefix, key), key, into);
  } else if (Array.isArray(body) && listKey(field, body) !== undefined && body.every(isObject)) {
    const key = listKey(field, body) ?? '';
    for (const item of body) {
      const itemPath = join(prefix, `[${key}=${JSON.stringify(item[key] ?? null)}]`);
      into.set(itemPath, { [key]: item[key] ?? null });
      statedFields(item, itemPath, '', into);
    }
  } else if (!IDENTITY.has(prefix)) {
    into.set(prefix, body);
  }
  for (const identity of IDENTITY) into.delete(identity);
  return into;
}

/** Merges `desired` into `current` as an apply does (null removes a field). */
function merge(current: Json | undefined, desired: Json, field: string): Json | undefined {
  if (desired === null) return undefined;
  if (isObject(desired)) {
    const base: JsonObject = isObject(current) ? current : {};
    const merged = new Map<string, Json | undefined>(Object.entries(base));
    for (const [key, value] of Object.entries(desired)) merged.set(key, merge(base[key], value, key));
    return Object.fromEntries([...merged].filter((entry): entry is [string, Json] => entry[1] !== undefined));
  }
  const key = Array.isArray(desired) ? listKey(field, desired) : undefined;
  if (Array.isArray(desired) && key !== undefined && Array.isArray(current) && desired.every(isObject) && current.every(isObject)) {
    const result = [...current];
    for (const item of desired) {
      const at = result.findIndex((existing) => deepEqual(existing[key], item[key]));
      if (at < 0) result.push(item);
      else result[at] = merge(result[at], item, '') as JsonObject;
    }
    return result;
  }
  return desired;
}

/** Removes the field at `path` (as statedFields names them); an emptied map or keyed item goes too. */
function removeField(object: Json | undefined, path: string): Json | undefined {
  const match = /^(\[[^\]]*\]|[^.[]+)(?:\.(.*)|(\[.*))?$/.exec(path);
  if (match === null) return object;
  const [, head = '', restAfterDot, restItem] = match;
  const rest = restAfterDot ?? restItem;
  if (head.startsWith('[')) {
    if (!Array.isArray(object)) return object;
    const [key = '', raw = 'null'] = head.slice(1, -1).split(/=(.*)/s);
    const value = JSON.parse(raw) as Json;
    const items = object as JsonObject[];
    const at = items.findIndex((item) => isObject(item) && deepEqual(item[key], value));
    if (at < 0) return object;
    const kept = rest === undefined ? undefined : removeField(items[at], rest);
    const emptied = kept === undefined || (isObject(kept) && Object.keys(kept).every((k) => k === key));
    return emptied ? items.filter((_, i) => i !== at) : items.map((item, i) => (i === at ? (kept as JsonObject) : item));
  }
  if (!isObject(object) || !(head in object)) return object;
  const kept = rest === undefined ? undefined : removeField(object[head], rest);
  const gone = kept === undefined || (isObject(kept) && Object.keys(kept).length === 0) || (Array.isArray(kept) && kept.length === 0);
  return Object.fromEntries(Object.entries(object).flatMap(([key, value]): [string, Json][] => (key !== head ? [[key, value]] : gone ? [] : [[key, kept]])));
}

/** The value at a field path, as statedFields names them. */
function valueAt(fields: ReadonlyMap<string, Json>, path: string): Json | undefined {
  return fields.get(path);
}

/** Who owns which fields of one object. */
export type FieldOwners = Map<string, Set<string>>;

export interface ApplyOutcome {
  readonly object: JsonObject;
  readonly owners: FieldOwners;
}

/** A conflict: fields another manager owns with a different value. */
export class ApplyConflict extends Error {
  constructor(readonly conflicts: readonly { readonly field: string; readonly manager: string }[]) {
    super(`Apply failed with ${String(conflicts.length)} conflict(s): ${conflicts.map((c) => `conflict with "${c.manager}": .${c.field}`).join('; ')}`);
  }
}

/** Applies `body` as `manager` to `current` (undefined: a new object) with its field owners. */
export function serverSideApply(current: JsonObject | undefined, owners: FieldOwners, body: JsonObject, manager: string, force: boolean): ApplyOutcome {
  const stated = statedFields(body);
  const currentFields = statedFields(current ?? {});
  const conflicts = [...stated].flatMap(([path, value]) => {
    const others = [...(owners.get(path) ?? [])].filter((owner) => owner !== manager);
    return others.length > 0 && !deepEqual(valueAt(currentFields, path), value) ? others.map((other) => ({ field: path, manager: other })) : [];
  });
  if (conflicts.length > 0 && !force) throw new ApplyConflict(conflicts);

  const next: FieldOwners = new Map([...owners].map(([path, managers]) => [path, new Set(managers)]));
  let object: Json | undefined = current ?? {};
  // Fields this manager stated before and no longer does, that nobody else owns, are removed.
  for (const [path, managers] of next) {
    if (!managers.has(manager) || stated.has(path)) continue;
    managers.delete(manager);
    if (managers.size === 0) {
      next.delete(path);
      object = removeField(object, path);
    }
  }
  object = merge(object, body, '') ?? {};
  for (const path of stated.keys()) {
    const managers = next.get(path) ?? new Set<string>();
    // Forced or equal: a different value takes the field over; an equal one shares it.
    if (conflicts.some((conflict) => conflict.field === path)) managers.clear();
    managers.add(manager);
    next.set(path, managers);
  }
  return { object: object as JsonObject, owners: next };
}

/** The owners after `manager` changed `before` into `after` with an update (not an apply): it owns what it changed. */
export function updateOwners(before: JsonObject | undefined, after: JsonObject, owners: FieldOwners, manager: string): FieldOwners {
  const old = statedFields(before ?? {});
  const next: FieldOwners = new Map([...owners].map(([path, managers]) => [path, new Set(managers)]));
  const now = statedFields(after);
  for (const [path, value] of now) {
    if (old.has(path) && deepEqual(old.get(path), value)) continue;
    next.set(path, new Set([manager]));
  }
  for (const path of old.keys()) if (!now.has(path)) next.delete(path);
  return next;
}
