import { conditionColumn, conditionSchema, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN, namespacedCrd } from '@keyward/vocabulary';
import { endpointsSchema } from '../endpoints.js';
import { PROTOCOLS, protocolMapperSchema } from '../protocol-mappers.js';
import { keycloakClientType } from '../types.js';
import { DEFAULT_GRACE_PERIOD } from './rotated-secret.js';
import { pruneUnlistedSchema } from '../prune.js';
import { authorizationClientRule, authorizationSettingsSchema } from './authorization-crd.js';
import {
  CLIENT_ID_MAX_LENGTH,
  CLIENT_PRUNABLE_FIELDS,
  CLIENT_ROLE_NAME_MAX_LENGTH,
  BEARER_ONLY_PUBLIC_MESSAGE,
  DELETION_POLICIES,
  MAX_LIFESPAN_SECONDS,
  NAMESPACE_MAX_LENGTH,
  NAMESPACE_PATTERN,
  PKCE_METHODS,
  PROVIDED_SECRET_MESSAGE,
  PUBLIC_SECRET_MESSAGE,
  REGENERATE_TOKEN_MAX_LENGTH,
  RESERVED_ATTRIBUTES,
  RESERVED_ATTRIBUTES_MESSAGE,
  ROTATION_PERIOD_PATTERN,
  SECRET_KEY_MAX_LENGTH,
  SECRET_KEY_PATTERN,
} from './spec.js';
import { listMapOf } from '../list-schema.js';

const text = { type: 'string' };
const nonEmpty = { type: 'string', minLength: 1 };
const flag = { type: 'boolean' };
const timestamp = { type: 'string', format: 'date-time' };
const stringMap = { type: 'object', additionalProperties: text };
const stringSet = { type: 'array', items: text, 'x-kubernetes-list-type': 'set' };
const nameSet = { type: 'array', items: nonEmpty, 'x-kubernetes-list-type': 'set' };
const lifespan = { type: 'integer', minimum: 1, maximum: MAX_LIFESPAN_SECONDS, description: 'Seconds.' };
const objectName = { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN };
const immutable = (message: string) => [{ rule: 'self == oldSelf', message }];

const ROTATION_ENABLED = '(has(self.secretRotation) && self.secretRotation.enabled)';

/**
 * The rules across fields, in the codec's order (crossFieldProblem), each naming the field the codec names.
 * Those about regenerateSecret are the codec's alone: a field that is a string or a boolean has no type the
 * API server's CEL can read, so such a spec is stored and then reported as invalid in status.
 */
const crossFieldRules = [
  { rule: '!(has(self.publicClient) && self.publicClient && has(self.bearerOnly) && self.bearerOnly)', message: BEARER_ONLY_PUBLIC_MESSAGE, fieldPath: '.bearerOnly' },
  { rule: '!(has(self.publicClient) && self.publicClient && has(self.clientSecret))', message: PUBLIC_SECRET_MESSAGE, fieldPath: '.clientSecret' },
  { rule: `!(has(self.publicClient) && self.publicClient && ${ROTATION_ENABLED})`, message: PUBLIC_SECRET_MESSAGE, fieldPath: '.secretRotation' },
  { rule: `!(has(self.clientSecret) && ${ROTATION_ENABLED})`, message: PROVIDED_SECRET_MESSAGE, fieldPath: '.secretRotation' },
  authorizationClientRule,
];

const reservedAttributesRule = { rule: RESERVED_ATTRIBUTES.map((key) => `!('${key}' in self)`).join(' && '), message: RESERVED_ATTRIBUTES_MESSAGE };

const specSchema = {
  type: 'object',
  required: ['clientId', 'realmRef'],
  'x-kubernetes-validations': crossFieldRules,
  properties: {
    clientId: { ...nonEmpty, maxLength: CLIENT_ID_MAX_LENGTH, description: 'The clientId in Keycloak.', 'x-kubernetes-validations': immutable('clientId is immutable: a different clientId is a different client; create a new KeycloakClient') },
    clientName: text,
    description: text,
    realmRef: {
      type: 'object',
      required: ['name'],
      description: 'The KeycloakRealm object of the realm; its namespace defaults to this object\'s.',
      'x-kubernetes-validations': immutable('realmRef is immutable: moving a client to another realm makes a new client; create a new KeycloakClient'),
      properties: {
        name: objectName,
        namespace: { type: 'string', maxLength: NAMESPACE_MAX_LENGTH, pattern: NAMESPACE_PATTERN },
      },
    },
    publicClient: flag,
    bearerOnly: flag,
    protocol: { type: 'string', enum: [...PROTOCOLS] },
    redirectUris: stringSet,
    webOrigins: stringSet,
    postLogoutRedirectUris: stringSet,
    rootUrl: text,
    adminUrl: text,
    baseUrl: text,
    settings: {
      type: 'object',
      properties: {
        standardFlowEnabled: flag,
        implicitFlowEnabled: flag,
        directAccessGrantsEnabled: flag,
        serviceAccountsEnabled: flag,
        consentRequired: flag,
        pkceCodeChallengeMethod: { type: 'string', enum: [...PKCE_METHODS] },
        accessTokenLifespan: lifespan,
        clientSessionIdleTimeout: lifespan,
        clientSessionMaxLifespan: lifespan,
        fullScopeAllowed: flag,
        frontchannelLogout: flag,
      },
    },
    defaultClientScopes: nameSet,
    optionalClientScopes: nameSet,
    protocolMappers: listMapOf('name', protocolMapperSchema(nonEmpty)),
    clientRoles: listMapOf('name', { type: 'object', required: ['name'], properties: { name: { ...nonEmpty, maxLength: CLIENT_ROLE_NAME_MAX_LENGTH }, description: text, attributes: stringMap } }),
    pruneUnlisted: pruneUnlistedSchema(CLIENT_PRUNABLE_FIELDS, 'client roles, protocol mappers, authorization scopes or resources'),
    serviceAccountRoles: {
      type: 'object',
      description: 'Roles granted to the client\'s service account; realm roles by name, client roles by the clientId of their client.',
      properties: { realmRoles: nameSet, clientRoles: { type: 'object', additionalProperties: nameSet } },
    },
    attributes: { ...stringMap, description: 'Client attributes; only the keys listed are managed.', 'x-kubernetes-validations': [reservedAttributesRule] },
    secretMetadata: { type: 'object', properties: { labels: stringMap, annotations: stringMap } },
    clientSecret: {
      type: 'object',
      required: ['name', 'key'],
      description: 'A Secret in this namespace whose key holds the client secret to set in Keycloak.',
      properties: { name: objectName, key: { type: 'string', maxLength: SECRET_KEY_MAX_LENGTH, pattern: SECRET_KEY_PATTERN } },
    },
    secretRotation: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean', default: false },
        rotationPeriod: { type: 'string', pattern: ROTATION_PERIOD_PATTERN, maxLength: 64, default: '90d', description: 'Like "90d", "720h" or "30m".' },
        gracePeriod: {
          type: 'string',
          pattern: ROTATION_PERIOD_PATTERN,
          maxLength: 64,
          default: DEFAULT_GRACE_PERIOD,
          description: 'Where Keycloak keeps a replaced secret valid (client-secret rotation), how long after a regeneration it is invalidated.',
        },
      },
    },
    authenticationFlowOverrides: {
      type: 'object',
      description: 'Flows (by alias) this client logs in with instead of the realm\'s; a flow left out is the realm\'s again.',
      properties: { browser: { type: 'string', minLength: 1 }, directGrant: { type: 'string', minLength: 1 } },
    },
    regenerateSecret: {
      description:
        'Edge-triggered: setting a new non-empty string regenerates the secret once; the token acted upon is recorded in ' +
        'status.secretRegeneratedFor. The old operator\'s boolean is accepted: true regenerates once, false never. ' +
        `A token has at most ${String(REGENERATE_TOKEN_MAX_LENGTH)} characters; anything else is reported as invalid in status.`,
      // Untyped, so that both a string and the old boolean are stored.
      'x-kubernetes-preserve-unknown-fields': true,
    },
    deletionPolicy: { type: 'string', enum: [...DELETION_POLICIES], default: 'Delete', description: 'Delete the client in Keycloak with this object, or Retain it.' },
    authorizationSettings: authorizationSettingsSchema,
  },
};

const statusSchema = {
  type: 'object',
  properties: {
    conditions: { type: 'array', items: conditionSchema },
    observedGeneration: { type: 'integer', format: 'int64' },
    realm: { ...text, description: 'The Keycloak realm, from the realm object.' },
    clientUuid: { ...text, description: 'Keycloak\'s id of the client.' },
    endpoints: endpointsSchema,
    secretName: { ...text, description: 'The credentials Secret.' },
    lastSecretRotation: timestamp,
    secretRegeneratedFor: { ...text, description: 'The regenerateSecret token last acted upon.' },
    refusedGeneration: { type: 'integer', format: 'int64', description: 'The generation whose spec Keycloak refused; it is not sent again until the spec changes.' },
    managed: {
      type: 'object',
      description: 'Scope links and service-account roles applied from the spec: only these are ever removed.',
      properties: {
        defaultClientScopes: { type: 'array', items: text },
        optionalClientScopes: { type: 'array', items: text },
        serviceAccountRealmRoles: { type: 'array', items: text },
        serviceAccountClientRoles: { type: 'object', additionalProperties: { type: 'array', items: text } },
        authorizationScopes: { type: 'array', items: text },
        authorizationResources: { type: 'array', items: text },
      },
    },
  },
};

/** The KeycloakClient CRD: the old operator's group and kind, with a status subresource and validation. */
export const keycloakClientCrd = namespacedCrd({
  type: keycloakClientType,
  singular: 'keycloakclient',
  shortNames: ['kcc'],
  printerColumns: [
    conditionColumn('Ready', 'Ready'),
    { name: 'ClientID', type: 'string', jsonPath: '.spec.clientId' },
    { name: 'Realm', type: 'string', jsonPath: '.status.realm' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  schema: {
    description: 'KeycloakClient: a client in a Keycloak realm, with a credentials Secret in its namespace.',
    required: ['spec'],
    spec: specSchema,
    status: statusSchema,
  },
});
