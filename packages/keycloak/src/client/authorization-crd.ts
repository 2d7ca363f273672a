import { MANAGED_BY } from '../ownership.js';
import {
  AUTHORIZATION_CLIENT_MESSAGE,
  AUTHORIZATION_NAME_MAX_LENGTH,
  DECISION_STRATEGIES,
  MAX_AUTHORIZATION_RESOURCES,
  MAX_AUTHORIZATION_SCOPES,
  MAX_RESOURCE_SCOPES,
  POLICY_ENFORCEMENT_MODES,
  RESOURCE_MARKER_MESSAGE,
  RESOURCE_SCOPE_MESSAGE,
} from './authorization-spec.js';
import { policyListSchemas } from './authorization-policy-crd.js';

// The schema of spec.authorizationSettings: the same rules as authorization-spec.ts's codec.

const text = { type: 'string' };
const name = { type: 'string', minLength: 1, maxLength: AUTHORIZATION_NAME_MAX_LENGTH };
const byName = (items: object, maxItems: number) => ({ type: 'array', maxItems, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items });

const scopeSchema = { type: 'object', required: ['name'], properties: { name, displayName: text, iconUri: text } };

const resourceSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name,
    displayName: text,
    type: text,
    uris: { type: 'array', items: text, 'x-kubernetes-list-type': 'set' },
    scopes: { type: 'array', maxItems: MAX_RESOURCE_SCOPES, items: name, 'x-kubernetes-list-type': 'set', description: 'Scopes by name; each must be listed in authorizationSettings.scopes.' },
    attributes: {
      type: 'object',
      additionalProperties: text,
      'x-kubernetes-validations': [{ rule: `!('${MANAGED_BY}' in self)`, message: RESOURCE_MARKER_MESSAGE }],
    },
    ownerManagedAccess: { type: 'boolean' },
  },
};

export const authorizationSettingsSchema = {
  type: 'object',
  description: 'The client\'s authorization services (needs a confidential client with settings.serviceAccountsEnabled). Scopes and resources are managed by name when listed.',
  'x-kubernetes-validations': [
    {
      rule: '!has(self.resources) || self.resources.all(r, !has(r.scopes) || r.scopes.all(s, has(self.scopes) && self.scopes.exists(x, x.name == s)))',
      message: RESOURCE_SCOPE_MESSAGE,
      fieldPath: '.resources',
    },
  ],
  properties: {
    policyEnforcementMode: { type: 'string', enum: [...POLICY_ENFORCEMENT_MODES] },
    decisionStrategy: { type: 'string', enum: [...DECISION_STRATEGIES] },
    allowRemoteResourceManagement: { type: 'boolean' },
    scopes: byName(scopeSchema, MAX_AUTHORIZATION_SCOPES),
    resources: byName(resourceSchema, MAX_AUTHORIZATION_RESOURCES),
    ...policyListSchemas,
  },
};

/** The rule across the client's fields, as crossFieldProblem states it. */
export const authorizationClientRule = {
  rule: '!has(self.authorizationSettings) || (!(has(self.publicClient) && self.publicClient) && has(self.settings) && has(self.settings.serviceAccountsEnabled) && self.settings.serviceAccountsEnabled)',
  message: AUTHORIZATION_CLIENT_MESSAGE,
  fieldPath: '.authorizationSettings',
};
