import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { DESCRIPTION_MARKER } from '../description-marker.js';
import { untypedAs } from '../known-fields.js';
import { pruneRuleDescription } from '../prune.js';

// The policies and permissions of a client's authorization services, each field declared once for the codec
// and the CRD schema. Fields are named as Keycloak 26's typed policy representations name them, but everything
// is named by name (roles, usernames, group paths, clientIds, policies, resources, scopes): Keycloak resolves
// them on a write and answers with ids.

/** `js` only when the operator allows JavaScript policies (--keycloak-allow-js-policies). */
export const POLICY_TYPES = ['role', 'user', 'group', 'client', 'time', 'regex', 'aggregate', 'js'] as const;
/** A time policy's bounds: dates as Keycloak writes them, and numbered fields with their ends. */
export const TIME_DATE_FIELDS = ['notBefore', 'notOnOrAfter'] as const;
export const TIME_NUMBER_FIELDS = ['dayMonth', 'dayMonthEnd', 'month', 'monthEnd', 'year', 'yearEnd', 'hour', 'hourEnd', 'minute', 'minuteEnd'] as const;
const TIME_DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';
export const PERMISSION_TYPES = ['resource', 'scope'] as const;
export const POLICY_LOGICS = ['POSITIVE', 'NEGATIVE'] as const;
export const PERMISSION_DECISION_STRATEGIES = ['UNANIMOUS', 'AFFIRMATIVE', 'CONSENSUS'] as const;

/** Keycloak keeps a policy's description in 255 characters, ours with the marker at its end. */
export const POLICY_DESCRIPTION_MAX_LENGTH = 255 - DESCRIPTION_MARKER.length - 1;

const name = f.text(255);
const names = f.set(name);
const dateValid = (u: unknown): u is string => typeof u === 'string' && new RegExp(TIME_DATE_PATTERN).test(u);
const date = f.field(new t.Type<string>('a date as yyyy-MM-dd HH:mm:ss', dateValid, (u, c) => (dateValid(u) ? t.success(u) : t.failure(u, c)), t.identity), { type: 'string', pattern: TIME_DATE_PATTERN });
const countValid = (u: unknown): u is number => t.Integer.is(u) && u >= 0;
const count = f.field(new t.Type<number>('a whole number from 0', countValid, (u, c) => (countValid(u) ? t.success(u) : t.failure(u, c)), t.identity), { type: 'integer', minimum: 0 });

const common = (what: string) => ({
  name: name.describe(`The ${what}'s name, unique among the client's policies and permissions.`).required(),
  description: f.text(POLICY_DESCRIPTION_MAX_LENGTH).describe(`The ${what}'s description; Keyward adds its marker after it.`),
  logic: f.enumOf(POLICY_LOGICS).describe('POSITIVE (the result as it is) or NEGATIVE (the result reversed).'),
});
const decisionStrategy = (howPoliciesCombine: string) => f.enumOf(PERMISSION_DECISION_STRATEGIES)
  .describe(`${howPoliciesCombine}: UNANIMOUS (all must grant), AFFIRMATIVE (one suffices) or CONSENSUS (more grant than deny).`);

const TIME_DATE_DESCRIPTIONS: Readonly<Record<(typeof TIME_DATE_FIELDS)[number], string>> = {
  notBefore: 'time: when the policy starts granting, as yyyy-MM-dd HH:mm:ss.',
  notOnOrAfter: 'time: when the policy stops granting, as yyyy-MM-dd HH:mm:ss.',
};

const TIME_NUMBER_DESCRIPTIONS: Readonly<Record<(typeof TIME_NUMBER_FIELDS)[number], string>> = {
  dayMonth: 'time: the day of the month (1-31) from which the policy grants.',
  dayMonthEnd: 'time: the day of the month up to which the policy grants.',
  month: 'time: the month (1-12) from which the policy grants.',
  monthEnd: 'time: the month up to which the policy grants.',
  year: 'time: the year from which the policy grants.',
  yearEnd: 'time: the year up to which the policy grants.',
  hour: 'time: the hour (0-23) from which the policy grants.',
  hourEnd: 'time: the hour up to which the policy grants.',
  minute: 'time: the minute (0-59) from which the policy grants.',
  minuteEnd: 'time: the minute up to which the policy grants.',
};

/** One field per key of `descriptions`, each `of` with its description. */
function described<K extends string, F extends f.Field<t.Mixed>>(descriptions: Readonly<Record<K, string>>, of: F): Record<K, F> {
  // Every key of `descriptions` is given a field, which Object.fromEntries cannot type.
  return Object.fromEntries(Object.entries<string>(descriptions).map(([key, description]) => [key, of.describe(description)])) as Record<K, F>;
}

export const AuthorizationPolicy = f.object({
  ...common('policy'),
  type: f.enumOf(POLICY_TYPES).describe('What the policy checks; the fields that start with a type\'s name below are that type\'s.').required(),
  roles: f.listMap('name', f.object({
    name: name.describe('A realm role by name, or a client role as clientId/role.').required(),
    required: f.boolean().describe('Whether the user must hold this role, whatever other roles they hold.'),
  }).describe('A realm role by name, or a client role as clientId/role.')).describe('role: the roles that grant; the user needs one of them, and each one marked required.'),
  fetchRoles: f.boolean().describe('role: whether the user\'s roles are read from Keycloak rather than from the token.'),
  users: names.describe('user: the users, by username.'),
  groups: f.listMap('path', f.object({
    path: name.describe('The group\'s path, e.g. /staff/ops.').required(),
    extendChildren: f.boolean().describe('Whether members of the group\'s subgroups count too.'),
  })).describe('group: the groups the user must be in, by path.'),
  groupsClaim: f.string().describe('group: the token claim holding the user\'s groups; left out, they are read from Keycloak.'),
  clients: names.describe('client: the clients, by clientId.'),
  ...described(TIME_DATE_DESCRIPTIONS, date),
  ...described(TIME_NUMBER_DESCRIPTIONS, count),
  targetClaim: f.string().describe('regex: the claim matched.'),
  pattern: f.string().describe('regex: the pattern.'),
  targetContextAttributes: f.boolean().describe('regex: whether targetClaim names an attribute of the request\'s context rather than a claim of the token.'),
  policies: names.describe('aggregate: policies by name.'),
  decisionStrategy: decisionStrategy('aggregate: how the policies combine'),
  code: f.string().describe('js: the JavaScript, run inside Keycloak; only with the operator\'s --keycloak-allow-js-policies.'),
});

export const AuthorizationPermission = f.object({
  ...common('permission'),
  type: f.enumOf(PERMISSION_TYPES).describe('resource (covers the resources listed) or scope (covers the scopes listed).').required(),
  decisionStrategy: decisionStrategy('How the permission\'s policies combine'),
  resources: names.describe('Resources by name.'),
  resourceType: name.describe('Covers every resource of this type (a resource\'s type), besides the resources listed; a scope permission, with the scopes listed.'),
  scopes: names.describe('Scopes by name.'),
  policies: names.describe('Policies by name.'),
});

// Each list also takes the Kopf operator's object of lists per type (authorization-upstream.ts reads it into
// this one): a structural schema gives a field one type, so both are untyped in the CRD and the codec alone
// checks them, as clientRoles and passwordPolicy.
const UNTYPED = 'Untyped in the CRD (it takes two shapes): the API server stores it as given, and a bad value is reported as invalid in status. The list is atomic to server-side apply.';

export const AuthorizationPolicies = untypedAs(f.listMap('name', AuthorizationPolicy)).describe(
  `Policies, by name: a list of items with a type, or the Kopf operator's object of lists per type (rolePolicies, userPolicies, groupPolicies, clientPolicies, timePolicies, regexPolicies, aggregatePolicies, javascriptPolicies with allowJavaScriptPolicies). ${pruneRuleDescription('authorizationSettings.policies')} ${UNTYPED}`,
);
export const AuthorizationPermissions = untypedAs(f.listMap('name', AuthorizationPermission)).describe(
  `Resource and scope permissions, by name: a list of items with a type, or the Kopf operator's object of lists per type (resourcePermissions, scopePermissions). ${pruneRuleDescription('authorizationSettings.permissions')} ${UNTYPED}`,
);

export type AuthorizationPolicySpec = t.TypeOf<typeof AuthorizationPolicy.codec>;
export type AuthorizationPermissionSpec = t.TypeOf<typeof AuthorizationPermission.codec>;
