import { conditionColumn, conditionSchema, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN, namespacedCrd } from '@keyward/vocabulary';
import { endpointsSchema } from '../endpoints.js';
import { groupsCrdSchema } from './groups/crd.js';
import { GROUP_PATH_PATTERN } from './groups/spec.js';
import { realmManagedSchema } from './managed.js';
import { scopeMappingsCrdSchema } from './scope-mappings/spec.js';
import { PROTOCOLS, protocolMapperSchema } from '../protocol-mappers.js';
import { keycloakRealmType } from '../types.js';
import { authenticationFlowsSchema, flowBindingsSchema } from './flows/crd.js';
import { requiredActionsSchema } from './required-actions/spec.js';
import { pruneUnlistedSchema } from '../prune.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from './secret-opt-in.js';
import { identityProvidersSchema } from './identity-providers/crd.js';
import { organizationsSchema } from './organizations/crd.js';
import { BUILT_IN_CLIENT_SCOPES, BUILT_IN_REALM_ROLES, BUILT_IN_ROLE_MESSAGE, BUILT_IN_SCOPE_MESSAGE, DEFAULT_ROLES_PREFIX } from './built-ins.js';
import { userFederationSchema, userFederationStatusSchema } from './user-federation/crd.js';
import {
  DELETION_POLICIES,
  DUPLICATE_EMAILS_MESSAGE,
  DUPLICATE_EMAILS_RULE,
  INT32_MAX,
  MAX_SUB_OBJECTS,
  NAME_MAX_LENGTH,
  REALM_NAME_MAX_LENGTH,
  NAMESPACE_MAX_LENGTH,
  NAMESPACE_PATTERN,
  REALM_NAME_PATTERN,
  REALM_PRUNABLE_FIELDS,
  SECURITY_FLAGS,
  SECURITY_NUMBERS,
  BROWSER_SECURITY_HEADERS,
  OTP_ALGORITHMS,
  OTP_DIGITS,
  OTP_NUMBERS,
  OTP_TYPES,
  SSL_REQUIRED,
  THEMES,
  TOKEN_LIFESPANS,
  WEBAUTHN_ATTESTATION_PREFERENCES,
  WEBAUTHN_AUTHENTICATOR_ATTACHMENTS,
  WEBAUTHN_RESIDENT_KEY,
  WEBAUTHN_SIGNATURE_ALGORITHMS,
  WEBAUTHN_USER_VERIFICATION,
} from './spec.js';
import { listMapOf, type ListMapOptions } from '../list-schema.js';

export const REALM_NAME_IMMUTABLE_MESSAGE = 'realmName cannot be changed; create another KeycloakRealm for another realm';

const text = { type: 'string' };
const name = { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const nameSet = { type: 'array', items: name, 'x-kubernetes-list-type': 'set' };
const boolean = { type: 'boolean' };
const int32From = (minimum: number) => ({ type: 'integer', format: 'int32', minimum, maximum: INT32_MAX });
const namespaceName = { type: 'string', minLength: 1, maxLength: NAMESPACE_MAX_LENGTH, pattern: NAMESPACE_PATTERN };
const celList = (names: readonly string[]): string => `[${names.map((n) => `'${n}'`).join(', ')}]`;

function properties<K extends string>(keys: readonly K[], schema: (key: K) => object): Record<K, object> {
  return Object.fromEntries(keys.map((key) => [key, schema(key)])) as Record<K, object>;
}

const keysOf = <K extends string>(table: Readonly<Record<K, unknown>>): K[] => Object.keys(table) as K[];

/** A list whose items are objects told apart by `name`, as the codec's uniqueList checks it. */
const listByName = (items: object, options?: ListMapOptions) => listMapOf('name', items, options);

const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });

const webAuthnPolicy = (description: string) => ({
  type: 'object',
  description,
  properties: {
    rpEntityName: name,
    signatureAlgorithms: { type: 'array', items: enumOf(WEBAUTHN_SIGNATURE_ALGORITHMS), 'x-kubernetes-list-type': 'set' },
    rpId: { type: 'string', description: 'The relying party id; empty: the host Keycloak is reached at.' },
    attestationConveyancePreference: enumOf(WEBAUTHN_ATTESTATION_PREFERENCES),
    authenticatorAttachment: enumOf(WEBAUTHN_AUTHENTICATOR_ATTACHMENTS),
    requireResidentKey: enumOf(WEBAUTHN_RESIDENT_KEY),
    userVerificationRequirement: enumOf(WEBAUTHN_USER_VERIFICATION),
    createTimeout: { ...int32From(0), description: 'Seconds; 0: no timeout of Keycloak\'s own.' },
    avoidSameAuthenticatorRegister: boolean,
    acceptableAaguids: nameSet,
    extraOrigins: nameSet,
  },
});

/** An executor's or condition's configuration: its provider defines the shape, and Keycloak checks it. */
const providerConfiguration = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: {} };

const clientProfile = {
  type: 'object',
  required: ['name', 'executors'],
  properties: {
    name,
    description: text,
    executors: {
      type: 'array',
      items: { type: 'object', required: ['executor'], properties: { executor: { ...name, description: 'The executor provider, e.g. pkce-enforcer.' }, configuration: providerConfiguration } },
    },
  },
};

const clientPolicy = {
  type: 'object',
  required: ['name', 'conditions', 'profiles'],
  properties: {
    name,
    description: text,
    enabled: { type: 'boolean', default: true },
    conditions: {
      type: 'array',
      items: { type: 'object', required: ['condition'], properties: { condition: { ...name, description: 'The condition provider, e.g. client-access-type.' }, configuration: providerConfiguration } },
    },
    profiles: { ...nameSet, description: 'Client profiles (this realm\'s, or Keycloak\'s global ones) the policy applies.' },
  },
};

const realmRole = {
  type: 'object',
  required: ['name'],
  properties: {
    name: {
      ...name,
      'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_REALM_ROLES)}) && !self.startsWith('${DEFAULT_ROLES_PREFIX}')`, message: BUILT_IN_ROLE_MESSAGE }],
    },
    description: text,
    attributes: stringMap,
    composites: {
      type: 'object',
      description: 'The roles this role is composed of; when given, exactly these.',
      properties: {
        realm: nameSet,
        clients: { type: 'object', description: 'Roles of clients, by clientId.', additionalProperties: nameSet },
      },
    },
  },
};

const protocolMapper = protocolMapperSchema(name, 'The scope\'s protocol when left out.');

const clientScope = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...name, 'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_CLIENT_SCOPES)})`, message: BUILT_IN_SCOPE_MESSAGE }] },
    description: text,
    protocol: { type: 'string', enum: [...PROTOCOLS], default: 'openid-connect' },
    attributes: stringMap,
    protocolMappers: listByName(protocolMapper),
  },
};

const spec = {
  type: 'object',
  required: ['realmName'],
  properties: {
    realmName: {
      ...name,
      maxLength: REALM_NAME_MAX_LENGTH,
      pattern: REALM_NAME_PATTERN,
      description: 'The realm\'s name in Keycloak; cannot be changed.',
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: REALM_NAME_IMMUTABLE_MESSAGE }],
    },
    displayName: text,
    description: { type: 'string', description: 'Kept in the realm attribute "description" (Keycloak realms have no description field).' },
    loginPageTitle: { type: 'string', description: 'The HTML title of the login pages (Keycloak\'s displayNameHtml).' },
    operatorRef: {
      type: 'object',
      required: ['namespace'],
      description: 'The operator that manages this realm, by its namespace; others leave it alone.',
      properties: { namespace: namespaceName },
    },
    clientAuthorizationGrants: { type: 'array', items: namespaceName, 'x-kubernetes-list-type': 'set', description: 'Namespaces whose KeycloakClients may use this realm.' },
    security: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: DUPLICATE_EMAILS_RULE, message: DUPLICATE_EMAILS_MESSAGE, fieldPath: '.duplicateEmailsAllowed' }],
      properties: {
        ...properties(SECURITY_FLAGS, () => boolean),
        ...properties(keysOf(SECURITY_NUMBERS), (key) => int32From(SECURITY_NUMBERS[key])),
        sslRequired: { type: 'string', enum: [...SSL_REQUIRED] },
      },
    },
    tokenSettings: {
      type: 'object',
      description: 'Lifespans in seconds.',
      properties: {
        ...properties(keysOf(TOKEN_LIFESPANS), (key) => int32From(TOKEN_LIFESPANS[key])),
        offlineSessionMaxLifespanEnabled: boolean,
      },
    },
    themes: { type: 'object', properties: properties(THEMES, () => name) },
    localization: { type: 'object', properties: { enabled: boolean, defaultLocale: name, supportedLocales: nameSet } },
    smtpServer: {
      type: 'object',
      required: ['host', 'from'],
      properties: {
        host: name,
        port: { type: 'integer', minimum: 1, maximum: 65_535 },
        from: name,
        fromDisplayName: text,
        replyTo: text,
        auth: boolean,
        ssl: boolean,
        starttls: boolean,
        user: text,
        passwordSecret: {
          type: 'object',
          required: ['name', 'key'],
          description: `The Secret, in this namespace, holding the SMTP password; it must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}".`,
          properties: {
            name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN },
            key: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    eventsConfig: {
      type: 'object',
      properties: {
        eventsEnabled: boolean,
        eventsListeners: nameSet,
        enabledEventTypes: nameSet,
        adminEventsEnabled: boolean,
        adminEventsDetailsEnabled: boolean,
        eventsExpiration: { ...int32From(1), description: 'Seconds.' },
      },
    },
    otpPolicy: {
      type: 'object',
      description: 'One-time passwords (Keycloak\'s otpPolicy* fields).',
      properties: {
        type: enumOf(OTP_TYPES),
        algorithm: enumOf(OTP_ALGORITHMS),
        digits: { type: 'integer', enum: [...OTP_DIGITS] },
        ...properties(keysOf(OTP_NUMBERS), (key) => int32From(OTP_NUMBERS[key])),
        codeReusable: boolean,
      },
    },
    webAuthnPolicy: webAuthnPolicy('WebAuthn as a second factor (Keycloak\'s webAuthnPolicy* fields).'),
    webAuthnPasswordlessPolicy: webAuthnPolicy('WebAuthn without a password (Keycloak\'s webAuthnPolicyPasswordless* fields).'),
    browserSecurityHeaders: {
      type: 'object',
      description: 'The security headers of Keycloak\'s pages; an empty value sends no header.',
      properties: properties(BROWSER_SECURITY_HEADERS, () => text),
    },
    passwordPolicy: { type: 'string', description: 'Keycloak\'s policy string, e.g. "length(12) and notUsername".' },
    attributes: stringMap,
    realmRoles: listByName(realmRole, { maxItems: MAX_SUB_OBJECTS }),
    clientScopes: listByName(clientScope, { maxItems: MAX_SUB_OBJECTS }),
    defaultClientScopes: { ...nameSet, description: 'Client scopes every new client of the realm gets as default scopes.' },
    optionalClientScopes: { ...nameSet, description: 'Client scopes every new client of the realm gets as optional scopes.' },
    clientProfiles: listByName(clientProfile, { maxItems: MAX_SUB_OBJECTS, description: 'Client profiles this realm defines; profiles set out of band are kept.' }),
    clientPolicies: listByName(clientPolicy, { maxItems: MAX_SUB_OBJECTS, description: 'Client policies this realm defines; policies set out of band are kept.' }),
    groups: groupsCrdSchema,
    defaultGroups: { type: 'array', items: { type: 'string', pattern: GROUP_PATH_PATTERN }, 'x-kubernetes-list-type': 'set', description: 'Groups every new user joins, by path (/parent/child).' },
    defaultRoles: {
      type: 'object',
      description: 'Roles every new user gets (composites of the realm\'s default role), added to Keycloak\'s own.',
      properties: { realmRoles: nameSet, clientRoles: { type: 'object', description: 'By clientId.', additionalProperties: nameSet } },
    },
    scopeMappings: scopeMappingsCrdSchema,
    deletionPolicy: { type: 'string', enum: [...DELETION_POLICIES], default: 'Delete', description: 'Whether deleting this object deletes the realm in Keycloak.' },
    authenticationFlows: authenticationFlowsSchema,
    flowBindings: flowBindingsSchema,
    requiredActions: requiredActionsSchema,
    identityProviders: identityProvidersSchema,
    organizationsEnabled: { type: 'boolean', description: 'Whether the realm has organizations (Keycloak 26).' },
    pruneUnlisted: pruneUnlistedSchema(REALM_PRUNABLE_FIELDS, 'roles, scopes, groups (with subgroups), flows, required actions, identity providers (with mappers), client profiles or policies, user federation providers, organizations'),
    userFederation: userFederationSchema,
    organizations: organizationsSchema,
  },
};

const status = {
  type: 'object',
  properties: {
    conditions: { type: 'array', items: conditionSchema },
    observedGeneration: { type: 'integer', format: 'int64' },
    realmId: text,
    endpoints: endpointsSchema,
    smtpPasswordVersion: { type: 'string', description: 'The resourceVersion of the SMTP password Secret last sent to Keycloak.' },
    message: text,
    registeredRequiredActions: { type: 'array', items: text, description: 'Required actions this object registered.' },
    managed: realmManagedSchema,
    identityProviderSecretVersions: { type: 'object', additionalProperties: text, description: 'The resourceVersion of each Secret whose identity provider config values were last sent to Keycloak, by name.' },
    userFederation: userFederationStatusSchema,
    userFederationSecretVersions: { type: 'object', additionalProperties: text, description: 'The resourceVersion of each Secret whose bind credential was last sent to Keycloak, by name.' },
    refusedGeneration: { type: 'integer', format: 'int64', description: 'The generation whose spec Keycloak refused; it is not sent again until the spec changes.' },
  },
};

/** The KeycloakRealm CRD; the codec in spec.ts applies the same rules. */
export const keycloakRealmCrd = namespacedCrd({
  type: keycloakRealmType,
  singular: 'keycloakrealm',
  shortNames: ['kcr'],
  printerColumns: [
    conditionColumn('Ready', 'Ready'),
    { name: 'Realm', type: 'string', jsonPath: '.spec.realmName' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  schema: {
    description: 'KeycloakRealm: a realm in Keycloak, with its settings, roles and client scopes.',
    required: ['spec'],
    spec,
    status,
  },
});
