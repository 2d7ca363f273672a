import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { int32From, keysOf } from './field-kinds.js';

// A realm's password policy: Keycloak's policy string, or the Kopf operator's object of typed fields, which
// means the string it renders ("length(12) and notUsername"). The two share one field name with two types, so
// the schema takes any value, and the codec checks either and reads it to the string.

/**
 * The Kopf operator's typed fields, each the Keycloak policy of its name, in the order it renders them: a number
 * (its least value) is `name(value)`, a switch is `name` when on, the pattern is `regexPattern(pattern)`.
 */
export const PASSWORD_POLICY_FIELDS = {
  length: 1,
  upperCase: 0,
  lowerCase: 0,
  digits: 0,
  specialChars: 0,
  notUsername: 'switch',
  notEmail: 'switch',
  hashIterations: 1,
  passwordHistory: 0,
  forceExpiredPasswordChange: 0,
  maxLength: 1,
  regexPattern: 'pattern',
} as const;

type PolicyField = keyof typeof PASSWORD_POLICY_FIELDS;
const POLICY_FIELDS = keysOf(PASSWORD_POLICY_FIELDS);

const fieldOf = (key: PolicyField): f.AnyField => {
  const kind = PASSWORD_POLICY_FIELDS[key];
  if (kind === 'switch') return f.boolean();
  if (kind === 'pattern') return f.nonEmpty();
  return int32From(kind);
};

const TypedPolicy = f.object(Object.fromEntries(POLICY_FIELDS.map((key) => [key, fieldOf(key)])) as Record<PolicyField, f.AnyField>);

/** Keycloak's policy string of the Kopf operator's typed fields. */
export function policyString(policy: Readonly<Partial<Record<PolicyField, number | boolean | string>>>): string {
  return POLICY_FIELDS.flatMap((key) => {
    const value = policy[key];
    if (value === undefined || value === false) return [];
    return [value === true ? key : `${key}(${String(value)})`];
  }).join(' and ');
}

export const PASSWORD_POLICY_TYPE_MESSAGE = 'passwordPolicy is Keycloak\'s policy string or the Kopf operator\'s object of typed fields';
const unknownFieldMessage = `the Kopf operator's password policy has the fields ${POLICY_FIELDS.join(', ')}`;

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Either form, read as the policy string. */
const policyCodec = new t.Type<string, string>(
  'Keycloak\'s policy string or the Kopf operator\'s object of typed fields',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u === 'string') return t.success(u);
    if (!isObject(u)) return t.failure(u, c, PASSWORD_POLICY_TYPE_MESSAGE);
    const unknown = Object.keys(u).find((key) => !(POLICY_FIELDS as readonly string[]).includes(key));
    if (unknown !== undefined) return t.failure(u, c, `${unknownFieldMessage}, not ${unknown}`);
    const typed = TypedPolicy.codec.validate(u, c);
    return typed._tag === 'Left' ? typed : t.success(policyString(typed.right as Partial<Record<PolicyField, number | boolean | string>>));
  },
  t.identity,
);

export const PasswordPolicy = f.field(policyCodec, {
  // One field name with two types: a structural schema cannot type it, and the API server runs no CEL rule on an
  // untyped field, so it takes any value here and the codec is what refuses a bad one (the realm is then Stalled).
  'x-kubernetes-preserve-unknown-fields': true,
  description: `Keycloak's policy string, e.g. "length(12) and notUsername"; or the Kopf operator's object of typed fields (${POLICY_FIELDS.join(', ')}), read as the string it renders, in that order.`,
});
