// What the fuzz scenario asks of each message: the codec's verdict on an object, whether an API server
// rejection or an InvalidSpec message names the field, and whether a text holds a raw control or bidi character.
import { isLeft } from 'fp-ts/lib/Either.js';
import { escapeInvisible, isDns1123Subdomain } from '@keyward/kernel/model';
import { type KubeObject } from '@keyward/kernel';
import { decodeAPIKey } from '@keyward/apikey-enforcement';
import { decodeAppCred } from '@keyward/keystone-appcred';
import type { FuzzKind } from './fuzz-objects.js';

/**
 * The field paths the operator's codec finds wrong in `object` (as JSON.parse reads it): empty when the
 * operator would accept it. Metadata the API server fills in is made up, so only the spec is judged.
 */
export function codecProblems(kind: FuzzKind, object: KubeObject): string[] {
  const stored = { ...object, metadata: { uid: 'fuzz', namespace: 'fuzz', generation: 1, ...object.metadata } };
  const decoded = kind === 'appcred' ? decodeAppCred(stored) : decodeAPIKey(stored);
  return isLeft(decoded) ? decoded.left.problems.map((problem) => problem.path) : [];
}

/** Whether JSON text holds a number no JavaScript value writes so (365.0, 2^53+1): only the API server sees it as written. */
export function unrepresentable(json: string): boolean {
  return JSON.stringify(JSON.parse(json)) !== json;
}

/**
 * `value` as the API server validates it: a field set to null is dropped first (a CRD field is not nullable),
 * so `expirationDays: null` gets its default. The codec never sees such a null in a stored object either.
 */
export function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null).map(([key, item]) => [key, withoutNullFields(item)]));
}

/** Paths of what the API server itself checks beyond the spec: an invalid name. */
export function metadataProblems(name: string): string[] {
  return isDns1123Subdomain(name) ? [] : ['metadata.name'];
}

/** Whether `message` names one of `paths` as a field ("spec.roles[1]: Duplicate value"). */
export function namesOneOf(message: string, paths: readonly string[]): boolean {
  return paths.some((path) => path !== '' && message.includes(`${path}:`));
}

/** Whether `message` names some field below `root` ("status.conditions[0].status: ..."), whichever it is. */
export function namesAFieldOf(message: string, root: string): boolean {
  return new RegExp(`(^|[\\s\\[,])${root}(\\.[A-Za-z_][\\w-]*|\\[\\d+\\])*: `).test(message);
}

/** Whether a text holds a control or bidi character as such, not escaped. */
export function hasInvisible(text: string): boolean {
  return escapeInvisible(text) !== text;
}

/** The message of an API server's Status object. */
export function statusMessage(body: unknown): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : JSON.stringify(body);
}
