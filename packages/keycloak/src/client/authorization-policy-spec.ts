import * as t from 'io-ts';
import { boundedText, oneOf, uniqueList } from '@keyward/kernel/model';
import { DESCRIPTION_MARKER } from '../description-marker.js';

// The policies and permissions of a client's authorization services, as a codec; authorization-policy-crd.ts
// states the same rules as a schema. Fields are named as Keycloak 26's typed policy representations name
// them, but everything is named by name (roles, usernames, group paths, clientIds, policies, resources,
// scopes): Keycloak resolves them on a write and answers with ids.

/** `js` only when the operator allows JavaScript policies (--keycloak-allow-js-policies). */
export const POLICY_TYPES = ['role', 'user', 'group', 'client', 'time', 'regex', 'aggregate', 'js'] as const;
/** A time policy's bounds: dates as Keycloak writes them, and numbered fields with their ends. */
export const TIME_DATE_FIELDS = ['notBefore', 'notOnOrAfter'] as const;
export const TIME_NUMBER_FIELDS = ['dayMonth', 'dayMonthEnd', 'month', 'monthEnd', 'year', 'yearEnd', 'hour', 'hourEnd', 'minute', 'minuteEnd'] as const;
export const TIME_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
export const PERMISSION_TYPES = ['resource', 'scope'] as const;
export const POLICY_LOGICS = ['POSITIVE', 'NEGATIVE'] as const;
export const PERMISSION_DECISION_STRATEGIES = ['UNANIMOUS', 'AFFIRMATIVE', 'CONSENSUS'] as const;

/** Keycloak keeps a policy's description in 255 characters, ours with the marker at its end. */
export const POLICY_DESCRIPTION_MAX_LENGTH = 255 - DESCRIPTION_MARKER.length - 1;

const name = boundedText(255);
const description = boundedText(POLICY_DESCRIPTION_MAX_LENGTH);
const names = uniqueList(t.array(name));
const dateValid = (u: unknown): u is string => typeof u === 'string' && new RegExp(TIME_DATE_PATTERN).test(u);
const date = new t.Type<string>('a date as yyyy-MM-dd HH:mm:ss', dateValid, (u, c) => (dateValid(u) ? t.success(u) : t.failure(u, c)), t.identity);
const count = new t.Type<number>('a whole number from 0', (u): u is number => t.Integer.is(u) && u >= 0, (u, c) => (t.Integer.is(u) && u >= 0 ? t.success(u) : t.failure(u, c)), t.identity);

const common = { description, logic: oneOf(POLICY_LOGICS) };

export const AuthorizationPolicyCodec = t.intersection([
  t.type({ name, type: oneOf(POLICY_TYPES) }),
  t.partial({
    ...common,
    /** role: realm roles by name, client roles as clientId/role. */
    roles: uniqueList(t.array(t.intersection([t.type({ name }), t.partial({ required: t.boolean })])), (role) => role.name),
    fetchRoles: t.boolean,
    /** user: by username. */
    users: names,
    /** group: by path. */
    groups: uniqueList(t.array(t.intersection([t.type({ path: name }), t.partial({ extendChildren: t.boolean })])), (group) => group.path),
    groupsClaim: t.string,
    /** client: by clientId. */
    clients: names,
    ...Object.fromEntries(TIME_DATE_FIELDS.map((field) => [field, date])) as Record<(typeof TIME_DATE_FIELDS)[number], typeof date>,
    ...Object.fromEntries(TIME_NUMBER_FIELDS.map((field) => [field, count])) as Record<(typeof TIME_NUMBER_FIELDS)[number], typeof count>,
    /** regex: a claim of the identity (or of the context, with targetContextAttributes) matched by pattern. */
    targetClaim: t.string,
    pattern: t.string,
    targetContextAttributes: t.boolean,
    /** aggregate: other policies by name, decided by decisionStrategy. */
    policies: names,
    decisionStrategy: oneOf(PERMISSION_DECISION_STRATEGIES),
    /** js: the policy's JavaScript. */
    code: t.string,
  }),
]);

export const AuthorizationPermissionCodec = t.intersection([
  t.type({ name, type: oneOf(PERMISSION_TYPES) }),
  t.partial({ ...common, decisionStrategy: oneOf(PERMISSION_DECISION_STRATEGIES), resources: names, scopes: names, policies: names }),
]);

export type AuthorizationPolicySpec = t.TypeOf<typeof AuthorizationPolicyCodec>;
export type AuthorizationPermissionSpec = t.TypeOf<typeof AuthorizationPermissionCodec>;

export const policyListFields = {
  policies: uniqueList(t.array(AuthorizationPolicyCodec), (policy) => policy.name),
  permissions: uniqueList(t.array(AuthorizationPermissionCodec), (permission) => permission.name),
};
