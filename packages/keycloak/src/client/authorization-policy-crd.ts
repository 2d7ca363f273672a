import { PERMISSION_DECISION_STRATEGIES, PERMISSION_TYPES, POLICY_DESCRIPTION_MAX_LENGTH, POLICY_LOGICS, POLICY_TYPES, TIME_DATE_FIELDS, TIME_DATE_PATTERN, TIME_NUMBER_FIELDS } from './authorization-policy-spec.js';

// The schema of authorizationSettings.policies and .permissions: the same rules as authorization-policy-spec.ts.

const name = { type: 'string', minLength: 1, maxLength: 255 };
const names = (description: string) => ({ type: 'array', items: name, 'x-kubernetes-list-type': 'set', description });
const byKey = (key: string, items: object) => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [key], items });
const common = {
  name,
  description: { type: 'string', minLength: 1, maxLength: POLICY_DESCRIPTION_MAX_LENGTH },
  logic: { type: 'string', enum: [...POLICY_LOGICS] },
};

const policySchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    ...common,
    type: { type: 'string', enum: [...POLICY_TYPES] },
    roles: byKey('name', { type: 'object', required: ['name'], properties: { name, required: { type: 'boolean' } }, description: 'A realm role by name, or a client role as clientId/role.' }),
    fetchRoles: { type: 'boolean' },
    users: names('Users by username.'),
    groups: byKey('path', { type: 'object', required: ['path'], properties: { path: name, extendChildren: { type: 'boolean' } } }),
    groupsClaim: { type: 'string' },
    clients: names('Clients by clientId.'),
    ...Object.fromEntries(TIME_DATE_FIELDS.map((field) => [field, { type: 'string', pattern: TIME_DATE_PATTERN, description: 'time: yyyy-MM-dd HH:mm:ss' }])),
    ...Object.fromEntries(TIME_NUMBER_FIELDS.map((field) => [field, { type: 'integer', minimum: 0 }])),
    targetClaim: { type: 'string', description: 'regex: the claim matched.' },
    pattern: { type: 'string', description: 'regex: the pattern.' },
    targetContextAttributes: { type: 'boolean' },
    policies: names('aggregate: policies by name.'),
    decisionStrategy: { type: 'string', enum: [...PERMISSION_DECISION_STRATEGIES] },
    code: { type: 'string', description: 'js: the JavaScript, run inside Keycloak; only with the operator\'s --keycloak-allow-js-policies.' },
  },
};

const permissionSchema = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    ...common,
    type: { type: 'string', enum: [...PERMISSION_TYPES] },
    decisionStrategy: { type: 'string', enum: [...PERMISSION_DECISION_STRATEGIES] },
    resources: names('Resources by name.'),
    scopes: names('Scopes by name.'),
    policies: names('Policies by name.'),
  },
};

export const policyListSchemas = {
  policies: { ...byKey('name', policySchema), description: 'Role, user, group and client policies, managed by name; unlisted ones Keyward made are removed.' },
  permissions: { ...byKey('name', permissionSchema), description: 'Resource and scope permissions, managed by name; unlisted ones Keyward made are removed.' },
};
