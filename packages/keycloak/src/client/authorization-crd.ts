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
import { pruneRuleDescription } from '../prune.js';

// The schema of spec.authorizationSettings: the same rules as authorization-spec.ts's codec.

const text = { type: 'string' };
const name = { type: 'string', minLength: 1, maxLength: AUTHORIZATION_NAME_MAX_LENGTH };
const byName = (items: object, maxItems: number, description: string) => ({ type: 'array', maxItems, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items, description });

const scopeSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...name, description: 'The scope\'s name, e.g. view.' },
    displayName: { ...text, description: 'The name shown for the scope.' },
    iconUri: { ...text, description: 'The URI of the scope\'s icon.' },
  },
};

const resourceSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...name, description: 'The resource\'s name.' },
    displayName: { ...text, description: 'The name shown for the resource.' },
    type: { ...text, description: 'The resource\'s type, e.g. urn:my-app:resources:document; a permission may cover every resource of a type.' },
    uris: { type: 'array', items: text, 'x-kubernetes-list-type': 'set', description: 'The URIs (paths) the resource stands for.' },
    scopes: { type: 'array', maxItems: MAX_RESOURCE_SCOPES, items: name, 'x-kubernetes-list-type': 'set', description: 'Scopes by name; each must be listed in authorizationSettings.scopes.' },
    attributes: {
      type: 'object',
      additionalProperties: text,
      description: 'The resource\'s attributes, compared key by key; keys left out stay.',
      'x-kubernetes-validations': [{ rule: `!('${MANAGED_BY}' in self)`, message: RESOURCE_MARKER_MESSAGE }],
    },
    ownerManagedAccess: { type: 'boolean', description: 'Whether the resource\'s owner manages who may access it (user-managed access).' },
  },
};

export const authorizationSettingsSchema = {
  type: 'object',
  description:
    'The client\'s authorization services (needs a confidential client with settings.serviceAccountsEnabled): their settings, and the scopes, resources, policies and permissions listed, by name. ' +
    'A spec that stops stating them leaves them on.',
  'x-kubernetes-validations': [
    {
      rule: '!has(self.resources) || self.resources.all(r, !has(r.scopes) || r.scopes.all(s, has(self.scopes) && self.scopes.exists(x, x.name == s)))',
      message: RESOURCE_SCOPE_MESSAGE,
      fieldPath: '.resources',
    },
  ],
  properties: {
    policyEnforcementMode: {
      type: 'string',
      enum: [...POLICY_ENFORCEMENT_MODES],
      description: 'ENFORCING (a request no permission grants is denied), PERMISSIVE (a request no permission covers is granted) or DISABLED (every request is granted).',
    },
    decisionStrategy: { type: 'string', enum: [...DECISION_STRATEGIES], description: 'How the permissions over a resource combine: UNANIMOUS (all must grant), AFFIRMATIVE (one suffices) or CONSENSUS (more grant than deny).' },
    allowRemoteResourceManagement: { type: 'boolean', description: 'Whether the resource server may manage its resources through Keycloak\'s protection API.' },
    scopes: byName(scopeSchema, MAX_AUTHORIZATION_SCOPES, `Authorization scopes, by name; a scope a resource still uses is kept. ${pruneRuleDescription('authorizationSettings.scopes')}`),
    resources: byName(resourceSchema, MAX_AUTHORIZATION_RESOURCES, `Resources, by name. ${pruneRuleDescription('authorizationSettings.resources')}`),
    ...policyListSchemas,
  },
};

/** The rule across the client's fields, as crossFieldProblem states it. */
export const authorizationClientRule = {
  rule: '!has(self.authorizationSettings) || (!(has(self.publicClient) && self.publicClient) && has(self.settings) && has(self.settings.serviceAccountsEnabled) && self.settings.serviceAccountsEnabled)',
  message: AUTHORIZATION_CLIENT_MESSAGE,
  fieldPath: '.authorizationSettings',
};
