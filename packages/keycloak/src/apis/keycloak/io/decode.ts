import { KeywardError } from '@keyward/kernel/interpreter';
import { type HttpResponse } from '@keyward/runtime/io';
import type { KeycloakObject } from '../representations.js';

function isObject(value: unknown): value is KeycloakObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A response Keycloak should not have sent; not retryable (the same call gets the same answer). */
export function badResponse(response: Pick<HttpResponse, 'status'>, description: string, what: string): KeywardError {
  return new KeywardError({
    api: 'keycloak',
    code: response.status,
    reason: 'BadResponse',
    message: `${description}: unexpected Keycloak response (HTTP ${String(response.status)}): ${what}`,
    retryable: false,
  });
}

/**
 * Checks that `value` is an object whose `fields` are non-empty strings: the fields Keyward reads to address
 * or name what it got. Everything else Keycloak sent is kept as it came (JSON, so it fits KeycloakObject).
 * Only field names are quoted in errors, never values: bodies may hold secrets.
 */
function checked<R extends KeycloakObject>(value: unknown, fields: readonly (keyof R & string)[], where: string, response: HttpResponse, description: string): R {
  if (!isObject(value)) throw badResponse(response, description, `${where} is not an object`);
  const missing = fields.filter((field) => typeof value[field] !== 'string' || value[field] === '');
  if (missing.length > 0) throw badResponse(response, description, `${where} has no ${missing.join(', ')}`);
  return value as R;
}

/** The body as one representation with `fields` present. */
export function objectBody<R extends KeycloakObject>(response: HttpResponse, fields: readonly (keyof R & string)[], description: string): R {
  return checked<R>(response.body, fields, 'the body', response, description);
}

/** The body as a list of representations, each with `fields` present. */
export function listBody<R extends KeycloakObject>(response: HttpResponse, fields: readonly (keyof R & string)[], description: string): R[] {
  const { body } = response;
  if (!Array.isArray(body)) throw badResponse(response, description, 'the body is not a list');
  return body.map((item: unknown, index) => checked<R>(item, fields, `item ${String(index)}`, response, description));
}

/** A string field of a representation, if it has one. */
export function stringField(object: KeycloakObject, field: string): string | undefined {
  const value = object[field];
  return typeof value === 'string' ? value : undefined;
}

/** A list-of-strings field (a client's redirect URIs, its scope names); [] when absent. */
export function stringsField(object: KeycloakObject, field: string): string[] {
  const value = object[field];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The id a 201 names in its Location header: the last path segment (a realm's and a role's is the name,
 * percent-encoded).
 */
export function createdId(response: HttpResponse, description: string): string {
  const location = response.headers['location'];
  const segment = location === undefined ? undefined : new URL(location, 'http://location.invalid').pathname.split('/').pop();
  if (segment === undefined || segment === '') throw badResponse(response, description, 'no Location header naming what was created');
  return decodeURIComponent(segment);
}
