import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decode } from '@keyward/kernel/model';
import { KeywardError } from '@keyward/kernel/interpreter';
import { defaultErrorDetail } from '../../../io/http/error-detail.js';
import type { HttpResponse as KeystoneResponse } from '../../../io/http/types.js';

/** A non-empty string (ids, names, secrets). */
const nonEmpty = new t.Type<string>(
  'a non-empty string',
  (u): u is string => typeof u === 'string' && u !== '',
  (u, c) => (typeof u === 'string' && u !== '' ? t.success(u) : t.failure(u, c)),
  t.identity,
);

/**
 * A Keystone timestamp, decoded to canonical ISO 8601 UTC ("2030-01-01T00:00:00.000Z"). Keystone writes tokens'
 * expiry with a "Z" but application credentials' without a zone (it means UTC), and with microseconds.
 */
const timestamp = new t.Type<string>(
  'a timestamp',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(u) ? u : `${u}Z`;
    const ms = Date.parse(zoned);
    return Number.isNaN(ms) ? t.failure(u, c) : t.success(new Date(ms).toISOString());
  },
  t.identity,
);

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

export const TokenBody = t.type({
  token: t.type({ expires_at: timestamp, user: t.type({ id: nonEmpty }) }),
});

const AccessRule = t.type({ service: t.string, path: t.string, method: t.string });

export const CreatedApplicationCredentialBody = t.type({
  application_credential: t.intersection([
    t.type({
      id: nonEmpty,
      name: nonEmpty,
      secret: nonEmpty,
      expires_at: nullable(timestamp),
      roles: t.array(t.type({ name: nonEmpty })),
    }),
    // Absent when the credential has none.
    t.partial({ access_rules: t.array(AccessRule) }),
  ]),
});

export const ApplicationCredentialListBody = t.type({
  application_credentials: t.array(
    t.intersection([
      t.type({ id: nonEmpty, name: nonEmpty, expires_at: nullable(timestamp) }),
      t.partial({ description: nullable(t.string) }),
    ]),
  ),
});

/**
 * Checks a Keystone body against `codec`; a mismatch is a non-retryable BadResponse naming the fields that did
 * not fit. Only field paths are quoted, never values: the body may hold a secret or a token.
 */
export function decodeBody<A>(codec: t.Decoder<unknown, A>, response: KeystoneResponse, description: string): A {
  if (response.body === undefined) throw badResponse(response, description, 'not a JSON body');
  const result = decode(codec, response.body);
  if (!isLeft(result)) return result.right;
  const paths = [...new Set(result.left.problems.map((problem) => (problem.path === '' ? 'body' : problem.path)))];
  throw badResponse(response, description, `missing or invalid ${paths.join(', ')}`);
}

export function badResponse(response: KeystoneResponse, description: string, what: string): KeywardError {
  return new KeywardError({
    api: 'keystone',
    code: response.status,
    reason: 'BadResponse',
    message: `${description}: malformed Keystone response (HTTP ${String(response.status)}): ${what}`,
    retryable: false,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * "Unauthorized: The request you have made requires authentication." from Keystone's {"error": {"title",
 * "message"}} body; any other answer (a proxy's, say) as the generic decoder reads it.
 */
export function keystoneErrorDetail(response: KeystoneResponse): string {
  const error = isRecord(response.body) ? response.body['error'] : undefined;
  if (!isRecord(error)) return defaultErrorDetail(response);
  return [error['title'], error['message']].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
}
