import { pruneRuleDescription } from '../prune.js';
import { PERMISSION_DECISION_STRATEGIES, PERMISSION_TYPES, POLICY_DESCRIPTION_MAX_LENGTH, POLICY_LOGICS, POLICY_TYPES, TIME_DATE_FIELDS, TIME_DATE_PATTERN, TIME_NUMBER_FIELDS } from './authorization-policy-spec.js';

// The schema of authorizationSettings.policies and .permissions: the same rules as authorization-policy-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: 255 };
const names = (description: string) => ({ type: 'array', items: name, 'x-kubernetes-list-type': 'set', description });
const byKey = (key: string, items: object, description: string) => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [key], items, description });
const common = (what: string) => ({
  name: { ...name, description: `The ${what}'s name, unique among the client's policies and permissions.` },
  description: { type: 'string', minLength: 1, maxLength: POLICY_DESCRIPTION_MAX_LENGTH, description: `The ${what}'s description; Keyward adds its marker after it.` },
  logic: { type: 'string', enum: [...POLICY_LOGICS], description: 'POSITIVE (the result as it is) or NEGATIVE (the result reversed).' },
});
const decisionStrategy = (howPoliciesCombine: string) => ({
  type: 'string',
  enum: [...PERMISSION_DECISION_STRATEGIES],
  description: `${howPoliciesCombine}: UNANIMOUS (all must grant), AFFIRMATIVE (one suffices) or CONSENSUS (more grant than deny).`,
});

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

const policySchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    ...common('policy'),
    type: { type: 'string', enum: [...POLICY_TYPES], description: 'What the policy checks; the fields that start with a type\'s name below are that type\'s.' },
    roles: byKey(
      'name',
      {
        type: 'object',
        required: ['name'],
        properties: {
          name: { ...name, description: 'A realm role by name, or a client role as clientId/role.' },
          required: { type: 'boolean', description: 'Whether the user must hold this role, whatever other roles they hold.' },
        },
        description: 'A realm role by name, or a client role as clientId/role.',
      },
      'role: the roles that grant; the user needs one of them, and each one marked required.',
    ),
    fetchRoles: { type: 'boolean', description: 'role: whether the user\'s roles are read from Keycloak rather than from the token.' },
    users: names('user: the users, by username.'),
    groups: byKey(
      'path',
      {
        type: 'object',
        required: ['path'],
        properties: {
          path: { ...name, description: 'The group\'s path, e.g. /staff/ops.' },
          extendChildren: { type: 'boolean', description: 'Whether members of the group\'s subgroups count too.' },
        },
      },
      'group: the groups the user must be in, by path.',
    ),
    groupsClaim: { type: 'string', description: 'group: the token claim holding the user\'s groups; left out, they are read from Keycloak.' },
    clients: names('client: the clients, by clientId.'),
    ...Object.fromEntries(TIME_DATE_FIELDS.map((field) => [field, { type: 'string', pattern: TIME_DATE_PATTERN, description: TIME_DATE_DESCRIPTIONS[field] }])),
    ...Object.fromEntries(TIME_NUMBER_FIELDS.map((field) => [field, { type: 'integer', minimum: 0, description: TIME_NUMBER_DESCRIPTIONS[field] }])),
    targetClaim: { type: 'string', description: 'regex: the claim matched.' },
    pattern: { type: 'string', description: 'regex: the pattern.' },
    targetContextAttributes: { type: 'boolean', description: 'regex: whether targetClaim names an attribute of the request\'s context rather than a claim of the token.' },
    policies: names('aggregate: policies by name.'),
    decisionStrategy: decisionStrategy('aggregate: how the policies combine'),
    code: { type: 'string', description: 'js: the JavaScript, run inside Keycloak; only with the operator\'s --keycloak-allow-js-policies.' },
  },
};

const permissionSchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    ...common('permission'),
    type: { type: 'string', enum: [...PERMISSION_TYPES], description: 'resource (covers the resources listed) or scope (covers the scopes listed).' },
    decisionStrategy: decisionStrategy('How the permission\'s policies combine'),
    resources: names('Resources by name.'),
    scopes: names('Scopes by name.'),
    policies: names('Policies by name.'),
  },
};

export const policyListSchemas = {
  policies: byKey('name', policySchema, `Policies, by name. ${pruneRuleDescription('authorizationSettings.policies')}`),
  permissions: byKey('name', permissionSchema, `Resource and scope permissions, by name. ${pruneRuleDescription('authorizationSettings.permissions')}`),
};
