import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { endpointsSchema } from '../endpoints.js';
import { protocolMapperSchema } from '../protocol-mappers.js';
import { withUpstreamSpellingSchemas } from '../upstream-spellings.js';
import { CLIENT_UPSTREAM_SPELLINGS } from './upstream.js';
import { keycloakClientType } from '../types.js';
import { DEFAULT_GRACE_PERIOD } from './rotated-secret.js';
import { DEFAULT_TIMEZONE, ROTATION_TIME_PATTERN, TIMEZONE_PATTERN } from './rotation-time.js';
import { pruneRuleDescription, pruneUnlistedSchema } from '../prune.js';
import { authorizationClientRule, authorizationSettingsSchema } from './authorization-crd.js';
import {
  CLIENT_AUTHENTICATOR_TYPES,
  CLIENT_ID_MAX_LENGTH,
  CLIENT_PROTOCOLS,
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
const timestamp = { type: 'string', format: 'date-time' };
const stringMap = { type: 'object', additionalProperties: text };
const stringSet = (description: string) => ({ type: 'array', items: text, 'x-kubernetes-list-type': 'set', description });
const nameSet = { type: 'array', items: nonEmpty, 'x-kubernetes-list-type': 'set' };
const lifespan = (description: string) => ({ type: 'integer', minimum: 1, maximum: MAX_LIFESPAN_SECONDS, description });
const flag = (description: string) => ({ type: 'boolean', description });
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
  description: 'The client\'s settings, what Keyward makes in it, and its credentials Secret; a setting left out is left as Keycloak has it.',
  required: ['clientId', 'realmRef'],
  'x-kubernetes-validations': crossFieldRules,
  properties: {
    clientId: { ...nonEmpty, maxLength: CLIENT_ID_MAX_LENGTH, description: 'The clientId in Keycloak.', 'x-kubernetes-validations': immutable('clientId is immutable: a different clientId is a different client; create a new KeycloakClient') },
    clientName: { ...text, description: 'The client\'s display name (Keycloak\'s name).' },
    description: { ...text, description: 'The client\'s description.' },
    realmRef: {
      type: 'object',
      required: ['name'],
      description: 'The KeycloakRealm object of the realm; its namespace defaults to this object\'s.',
      'x-kubernetes-validations': immutable('realmRef is immutable: moving a client to another realm makes a new client; create a new KeycloakClient'),
      properties: {
        name: { ...objectName, description: 'Name of the KeycloakRealm.' },
        namespace: { type: 'string', maxLength: NAMESPACE_MAX_LENGTH, pattern: NAMESPACE_PATTERN, description: 'Namespace of the KeycloakRealm; left out, this object\'s.' },
      },
    },
    publicClient: flag('Whether the client is public: it has no secret, and the credentials Secret holds none.'),
    bearerOnly: flag('Whether the client only accepts tokens and never logs anyone in; excludes publicClient.'),
    protocol: { type: 'string', enum: [...CLIENT_PROTOCOLS], description: 'openid-connect, saml or docker-v2 (needs Keycloak\'s docker feature); left out, as Keycloak has it (openid-connect for a new client).' },
    redirectUris: stringSet('URIs Keycloak may send users back to after a login (may end in *), compared as a set.'),
    webOrigins: stringSet('Origins allowed to call Keycloak from a browser (CORS); + allows those of the redirect URIs, * any.'),
    postLogoutRedirectUris: stringSet('URIs Keycloak may send users back to after a logout (the client attribute post.logout.redirect.uris).'),
    rootUrl: { ...text, description: 'The URL relative redirect URIs and baseUrl start from.' },
    adminUrl: { ...text, description: 'The URL Keycloak sends back-channel requests (logout, ...) to.' },
    baseUrl: { ...text, description: 'The URL Keycloak links to for the client, e.g. from the account console.' },
    settings: {
      type: 'object',
      description: 'How the client logs users in and how long its tokens and sessions last.',
      properties: {
        standardFlowEnabled: flag('Whether the client may use the authorization code flow.'),
        implicitFlowEnabled: flag('Whether the client may use the implicit flow.'),
        directAccessGrantsEnabled: flag('Whether the client may send a user\'s username and password to the token endpoint (direct grant).'),
        serviceAccountsEnabled: flag('Whether the client has a service account (client credentials grant); needed by serviceAccountRoles and authorizationSettings.'),
        consentRequired: flag('Whether users must consent before the client gets their data.'),
        pkceCodeChallengeMethod: { type: 'string', enum: [...PKCE_METHODS], description: 'The PKCE method the client must use, S256 or plain (the client attribute pkce.code.challenge.method).' },
        accessTokenLifespan: lifespan('Seconds the client\'s access tokens are valid, instead of the realm\'s (the client attribute access.token.lifespan).'),
        clientSessionIdleTimeout: lifespan('Seconds the client\'s sessions may stay unused, instead of the realm\'s (the client attribute client.session.idle.timeout).'),
        clientSessionMaxLifespan: lifespan('Seconds the client\'s sessions last at most, instead of the realm\'s (the client attribute client.session.max.lifespan).'),
        fullScopeAllowed: flag('Whether the client\'s tokens may carry every role the user has, rather than only those its scope mappings allow.'),
        frontchannelLogout: flag('Whether logout reaches the client through the browser rather than a back-channel request.'),
        alwaysDisplayInConsole: flag('Whether the account console lists the client even when the user has no session with it.'),
        clientAuthenticatorType: { type: 'string', enum: [...CLIENT_AUTHENTICATOR_TYPES], description: 'How the client authenticates to Keycloak: client-secret, client-jwt (signed JWT), client-secret-jwt or client-x509.' },
      },
    },
    defaultClientScopes: { ...nameSet, description: 'Client scopes linked as default scopes, by name; a scope this list named before and no longer names is unlinked, links made by hand stay.' },
    optionalClientScopes: { ...nameSet, description: 'Client scopes linked as optional scopes, by name; a scope this list named before and no longer names is unlinked, links made by hand stay.' },
    protocolMappers: listMapOf('name', protocolMapperSchema(nonEmpty, 'the client\'s protocol'), { description: `Protocol mappers of the client, by name. ${pruneRuleDescription('protocolMappers')}` }),
    clientRoles: listMapOf('name', {
      type: 'object',
      required: ['name'],
      properties: {
        name: { ...nonEmpty, maxLength: CLIENT_ROLE_NAME_MAX_LENGTH, description: 'The role\'s name.' },
        description: { ...text, description: 'The role\'s description; left out, as Keycloak has it.' },
        attributes: { ...stringMap, description: 'The role\'s attributes, compared key by key; keys left out stay.' },
      },
    }, { description: `Roles of the client, by name. ${pruneRuleDescription('clientRoles')}` }),
    pruneUnlisted: pruneUnlistedSchema(CLIENT_PRUNABLE_FIELDS, 'client roles, protocol mappers, authorization scopes, resources, policies or permissions'),
    serviceAccountRoles: {
      type: 'object',
      description: 'Roles granted to the client\'s service account; one the spec listed before and no longer lists is revoked, roles granted by hand stay.',
      properties: {
        realmRoles: { ...nameSet, description: 'Realm roles, by name; left out, not touched.' },
        clientRoles: { type: 'object', additionalProperties: nameSet, description: 'Client roles, by the clientId of their client; left out, not touched.' },
      },
    },
    attributes: { ...stringMap, description: 'Client attributes; only the keys listed are managed.', 'x-kubernetes-validations': [reservedAttributesRule] },
    secretMetadata: {
      type: 'object',
      description: 'Labels and annotations of the credentials Secret.',
      properties: { labels: { ...stringMap, description: 'Labels of the Secret.' }, annotations: { ...stringMap, description: 'Annotations of the Secret.' } },
    },
    clientSecret: {
      type: 'object',
      required: ['name', 'key'],
      description: 'A Secret in this namespace whose key holds the client secret to set in Keycloak.',
      properties: {
        name: { ...objectName, description: 'Name of the Secret.' },
        key: { type: 'string', maxLength: SECRET_KEY_MAX_LENGTH, pattern: SECRET_KEY_PATTERN, description: 'Key of the client secret in that Secret.' },
      },
    },
    secretName: { ...objectName, description: 'The name of the credentials Secret; left out, <name>-credentials. A Secret of an earlier name stays until this object is deleted.' },
    manageSecret: flag('false: the operator writes no credentials Secret (the client is still managed in Keycloak); left out, true.'),
    secretRotation: {
      type: 'object',
      description: 'Regenerating the client secret on a schedule; not with clientSecret or a public client.',
      properties: {
        enabled: { type: 'boolean', default: false, description: 'Whether the secret is regenerated every rotationPeriod; default false.' },
        rotationPeriod: { type: 'string', pattern: ROTATION_PERIOD_PATTERN, maxLength: 64, default: '90d', description: 'How long after status.lastSecretRotation the secret is regenerated, like "90d", "720h" or "30m"; default 90d.' },
        rotationTime: { type: 'string', pattern: ROTATION_TIME_PATTERN, maxLength: 5, description: 'The time of day (HH:MM, in timezone) the secret is regenerated at once rotationPeriod has passed; left out, as soon as it has.' },
        timezone: { type: 'string', pattern: TIMEZONE_PATTERN, maxLength: 64, description: `The time zone of rotationTime, an IANA name such as Europe/Amsterdam; default ${DEFAULT_TIMEZONE}.` },
        gracePeriod: {
          type: 'string',
          pattern: ROTATION_PERIOD_PATTERN,
          maxLength: 64,
          default: DEFAULT_GRACE_PERIOD,
          description: `How long a replaced secret stays valid after a regeneration, where a client policy with Keycloak's secret-rotation executor keeps it; default ${DEFAULT_GRACE_PERIOD}.`,
        },
      },
    },
    authenticationFlowOverrides: {
      type: 'object',
      description: 'Flows (by alias) this client logs in with instead of the realm\'s; a flow left out is the realm\'s again.',
      properties: {
        browser: { type: 'string', minLength: 1, description: 'The flow of this client\'s logins in a browser, by alias.' },
        directGrant: { type: 'string', minLength: 1, description: 'The flow of this client\'s direct grants, by alias.' },
      },
    },
    regenerateSecret: {
      description:
        'Edge-triggered: setting a new non-empty string regenerates the secret once; the token acted upon is recorded in ' +
        'status.secretRegeneratedFor. The old operator\'s boolean is accepted: true regenerates once, false never. ' +
        `A token has at most ${String(REGENERATE_TOKEN_MAX_LENGTH)} characters; anything else is reported as invalid in status.`,
      // Untyped, so that both a string and the old boolean are stored.
      'x-kubernetes-preserve-unknown-fields': true,
    },
    deletionPolicy: { type: 'string', enum: [...DELETION_POLICIES], default: 'Delete', description: 'Delete (the default) deletes the client in Keycloak with this object, when Keyward owns it; Retain leaves it there.' },
    authorizationSettings: authorizationSettingsSchema,
  },
};

const statusSchema = {
  type: 'object',
  description: 'The client in Keycloak, its credentials Secret, its secret\'s renewals, and what the last reconcile applied; written by the controller.',
  properties: {
    conditions: { type: 'array', items: conditionSchema, description: 'Ready, Reconciling and Stalled: one is True, with the reason and message of the last reconcile.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
    realm: { ...text, description: 'The Keycloak realm, from the realm object.' },
    clientUuid: { ...text, description: 'Keycloak\'s id of the client.' },
    endpoints: endpointsSchema,
    secretName: { ...text, description: 'Name of the credentials Secret, in this namespace.' },
    lastSecretRotation: { ...timestamp, description: 'When the secret was last regenerated, or the rotation period began (RFC 3339); the next rotation is rotationPeriod after it.' },
    secretRegeneratedFor: { ...text, description: 'The regenerateSecret token last acted upon.' },
    refusedGeneration: { type: 'integer', format: 'int64', description: 'The generation whose spec Keycloak refused; it is not sent again until the spec changes.' },
    managed: {
      type: 'object',
      description: 'Scope links and service-account roles applied from the spec: only these are ever removed.',
      properties: {
        defaultClientScopes: { type: 'array', items: text, description: 'Default client scopes the spec linked, by name.' },
        optionalClientScopes: { type: 'array', items: text, description: 'Optional client scopes the spec linked, by name.' },
        serviceAccountRealmRoles: { type: 'array', items: text, description: 'Realm roles the spec granted the service account, by name.' },
        serviceAccountClientRoles: { type: 'object', additionalProperties: { type: 'array', items: text }, description: 'Client roles the spec granted the service account, by the clientId of their client.' },
        authorizationScopes: { type: 'array', items: text, description: 'Authorization scopes the spec made, by name (Keycloak keeps no marker on a scope).' },
        authorizationResources: { type: 'array', items: text, description: 'Authorization resources the spec made, by name (they carry Keyward\'s marker too).' },
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
    spec: withUpstreamSpellingSchemas(specSchema, CLIENT_UPSTREAM_SPELLINGS),
    status: statusSchema,
  },
});
