import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { endpointsSchema } from '../endpoints.js';
import { GROUP_PATH_PATTERN, groupsCrdSchema } from './groups/spec.js';
import { realmManagedSchema } from './managed.js';
import { scopeMappingsCrdSchema } from './scope-mappings/spec.js';
import { PROTOCOLS, protocolMapperSchema } from '../protocol-mappers.js';
import { keycloakRealmType } from '../types.js';
import { authenticationFlowsSchema, flowBindingsSchema } from './flows/spec.js';
import { requiredActionsSchema } from './required-actions/spec.js';
import { pruneRuleDescription, pruneUnlistedSchema } from '../prune.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE, UPSTREAM_SECRET_LABEL } from './secret-opt-in.js';
import { withUpstreamSpellingSchemas } from '../upstream-spellings.js';
import { REALM_UPSTREAM_SPELLINGS } from './upstream.js';
import { identityProvidersSchema } from './identity-providers/spec.js';
import { organizationsSchema } from './organizations/spec.js';
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
  SMTP_PASSWORD_KEY,
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

/** `schema` for each of `keys`, described from `descriptions` (a table the compiler makes name every key). */
function described<K extends string>(keys: readonly K[], descriptions: Readonly<Record<K, string>>, schema: (key: K) => object): Record<K, object> {
  return properties(keys, (key) => ({ ...schema(key), description: descriptions[key] }));
}

const SECURITY_FLAG_DESCRIPTIONS: Readonly<Record<(typeof SECURITY_FLAGS)[number], string>> = {
  registrationAllowed: 'Whether the login page lets users register themselves.',
  registrationEmailAsUsername: 'Whether a registering user\'s email is their username.',
  editUsernameAllowed: 'Whether users may change their username.',
  resetPasswordAllowed: 'Whether the login page offers to reset a forgotten password.',
  rememberMe: 'Whether the login page offers "Remember me", which keeps the session across browser restarts.',
  verifyEmail: 'Whether users must verify their email address.',
  loginWithEmailAllowed: 'Whether users may log in with their email address instead of their username.',
  duplicateEmailsAllowed: 'Whether users may share an email address; excludes registrationEmailAsUsername and loginWithEmailAllowed.',
  revokeRefreshToken: 'Whether a refresh token may be reused only refreshTokenMaxReuse times, and is revoked once a newer one is used.',
  bruteForceProtected: 'Whether Keycloak locks a user out after failureFactor failed logins (brute-force detection).',
  permanentLockout: 'Whether brute-force detection locks a user out until an administrator unlocks them, rather than for a while.',
};

const SECURITY_NUMBER_DESCRIPTIONS: Readonly<Record<keyof typeof SECURITY_NUMBERS, string>> = {
  refreshTokenMaxReuse: 'How many times a refresh token may be reused when revokeRefreshToken is on; 0: it is used once.',
  maxFailureWaitSeconds: 'Seconds: the longest a temporary lockout lasts.',
  minimumQuickLoginWaitSeconds: 'Seconds a user is locked out after failed logins closer together than quickLoginCheckMilliSeconds.',
  waitIncrementSeconds: 'Seconds a temporary lockout grows by each time failureFactor more logins fail.',
  quickLoginCheckMilliSeconds: 'Milliseconds: failed logins closer together than this lock the user out for minimumQuickLoginWaitSeconds.',
  maxDeltaTimeSeconds: 'Seconds after which the count of a user\'s failed logins starts again.',
  failureFactor: 'How many failed logins lock a user out.',
};

const LIFESPAN_DESCRIPTIONS: Readonly<Record<keyof typeof TOKEN_LIFESPANS, string>> = {
  accessTokenLifespan: 'Seconds an access token is valid.',
  accessTokenLifespanForImplicitFlow: 'Seconds an access token from the implicit flow is valid.',
  ssoSessionIdleTimeout: 'Seconds a login session may stay unused before it ends.',
  ssoSessionMaxLifespan: 'Seconds a login session lasts at most.',
  offlineSessionIdleTimeout: 'Seconds an offline session may stay unused before it ends.',
  offlineSessionMaxLifespan: 'Seconds an offline session lasts at most, when offlineSessionMaxLifespanEnabled is on.',
  clientSessionIdleTimeout: 'Seconds a client session may stay unused before it ends; 0: as long as the login session.',
  clientSessionMaxLifespan: 'Seconds a client session lasts at most; 0: as long as the login session.',
  clientOfflineSessionIdleTimeout: 'Seconds a client\'s offline session may stay unused before it ends; 0: as long as the offline session.',
  clientOfflineSessionMaxLifespan: 'Seconds a client\'s offline session lasts at most; 0: as long as the offline session.',
};

const THEME_DESCRIPTIONS: Readonly<Record<(typeof THEMES)[number], string>> = {
  login: 'The theme of the login pages (Keycloak\'s loginTheme).',
  account: 'The theme of the account console (accountTheme).',
  admin: 'The theme of the admin console for this realm (adminTheme).',
  email: 'The theme of the emails the realm sends (emailTheme).',
};

const OTP_NUMBER_DESCRIPTIONS: Readonly<Record<keyof typeof OTP_NUMBERS, string>> = {
  lookAheadWindow: 'How many codes before and after the expected one are still accepted, for clocks or counters out of step.',
  period: 'Seconds a totp code is valid.',
  initialCounter: 'The counter a new hotp authenticator starts at.',
};

const HEADER_DESCRIPTIONS: Readonly<Record<(typeof BROWSER_SECURITY_HEADERS)[number], string>> = {
  contentSecurityPolicy: 'The Content-Security-Policy header.',
  contentSecurityPolicyReportOnly: 'The Content-Security-Policy-Report-Only header.',
  xContentTypeOptions: 'The X-Content-Type-Options header.',
  xRobotsTag: 'The X-Robots-Tag header.',
  xFrameOptions: 'The X-Frame-Options header.',
  strictTransportSecurity: 'The Strict-Transport-Security header.',
  referrerPolicy: 'The Referrer-Policy header.',
};

const keysOf = <K extends string>(table: Readonly<Record<K, unknown>>): K[] => Object.keys(table) as K[];

/** A list whose items are objects told apart by `name`, as the codec's uniqueList checks it. */
const listByName = (items: object, options?: ListMapOptions) => listMapOf('name', items, options);

const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });

const webAuthnPolicy = (description: string) => ({
  type: 'object',
  description,
  properties: {
    rpEntityName: { ...name, description: 'The relying party\'s name authenticators show (a new realm\'s: keycloak).' },
    signatureAlgorithms: { type: 'array', items: enumOf(WEBAUTHN_SIGNATURE_ALGORITHMS), 'x-kubernetes-list-type': 'set', description: 'Signature algorithms a credential may use, compared as a set (a new realm\'s: ES256 and RS256).' },
    rpId: { type: 'string', description: 'The relying party id; empty: the host Keycloak is reached at.' },
    attestationConveyancePreference: { ...enumOf(WEBAUTHN_ATTESTATION_PREFERENCES), description: 'What attestation of the authenticator is asked for; "not specified" leaves it to the browser.' },
    authenticatorAttachment: { ...enumOf(WEBAUTHN_AUTHENTICATOR_ATTACHMENTS), description: 'Which authenticators may register: platform (built into the device), cross-platform (a security key), or either ("not specified").' },
    requireResidentKey: { ...enumOf(WEBAUTHN_RESIDENT_KEY), description: 'Whether the credential must be a discoverable one kept on the authenticator.' },
    userVerificationRequirement: { ...enumOf(WEBAUTHN_USER_VERIFICATION), description: 'Whether the authenticator must verify the user (PIN, fingerprint).' },
    createTimeout: { ...int32From(0), description: 'Seconds; 0: no timeout of Keycloak\'s own.' },
    avoidSameAuthenticatorRegister: { ...boolean, description: 'Whether registering an authenticator the user has already registered is refused.' },
    acceptableAaguids: { ...nameSet, description: 'The authenticator models (AAGUIDs) that may register, compared as a set; empty: any.' },
    extraOrigins: { ...nameSet, description: 'Origins besides Keycloak\'s own that may use the credentials (an app\'s, for instance), compared as a set.' },
  },
});

/** An executor's or condition's configuration: its provider defines the shape, and Keycloak checks it. */
const providerConfiguration = {
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  default: {},
  description: 'The provider\'s settings, in the shape it defines; stored as sent and compared as JSON.',
};

const clientProfile = {
  type: 'object',
  required: ['name', 'executors'],
  properties: {
    name: { ...name, description: 'The profile\'s name; not one of Keycloak\'s global profiles.' },
    description: { ...text, description: 'The profile\'s description.' },
    executors: {
      type: 'array',
      description: 'The executors the profile runs, in order.',
      items: { type: 'object', required: ['executor'], properties: { executor: { ...name, description: 'The executor provider, e.g. pkce-enforcer.' }, configuration: providerConfiguration } },
    },
  },
};

const clientPolicy = {
  type: 'object',
  required: ['name', 'conditions', 'profiles'],
  properties: {
    name: { ...name, description: 'The policy\'s name.' },
    description: { ...text, description: 'The policy\'s description.' },
    enabled: { type: 'boolean', default: true, description: 'Whether the policy applies; default true (Keycloak stores a policy without it disabled).' },
    conditions: {
      type: 'array',
      description: 'The conditions that pick the clients the policy applies to.',
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
      description: `The role's name; not one of Keycloak's built-in roles (${BUILT_IN_REALM_ROLES.join(', ')}, ${DEFAULT_ROLES_PREFIX}<realm>).`,
    },
    description: { ...text, description: 'The role\'s description; left out, none.' },
    attributes: { ...stringMap, description: 'The role\'s attributes: exactly these (besides Keyward\'s marker).' },
    composites: {
      type: 'object',
      description: 'The roles this role is composed of; when given, exactly these.',
      properties: {
        realm: { ...nameSet, description: 'Realm roles, by name.' },
        clients: { type: 'object', description: 'Roles of clients, by clientId.', additionalProperties: nameSet },
      },
    },
  },
};

const protocolMapper = protocolMapperSchema(name, 'the scope\'s protocol');

const clientScope = {
  type: 'object',
  required: ['name'],
  properties: {
    name: {
      ...name,
      description: 'The scope\'s name; not one of Keycloak\'s built-in scopes.',
      'x-kubernetes-validations': [{ rule: `!(self in ${celList(BUILT_IN_CLIENT_SCOPES)})`, message: BUILT_IN_SCOPE_MESSAGE }],
    },
    description: { ...text, description: 'The scope\'s description; left out, as Keycloak has it.' },
    protocol: { type: 'string', enum: [...PROTOCOLS], default: 'openid-connect', description: 'openid-connect (the default) or saml.' },
    attributes: { ...stringMap, description: 'The scope\'s attributes (include.in.token.scope, display.on.consent.screen, ...), compared key by key; keys left out stay.' },
    protocolMappers: listByName(protocolMapper, { description: `Protocol mappers of the scope, by name. ${pruneRuleDescription('clientScopes')}` }),
  },
};

const spec = {
  type: 'object',
  description: 'The realm\'s settings and what Keyward makes in it; a setting left out is left as Keycloak has it.',
  required: ['realmName'],
  properties: {
    realmName: {
      ...name,
      maxLength: REALM_NAME_MAX_LENGTH,
      pattern: REALM_NAME_PATTERN,
      description: 'The realm\'s name in Keycloak; cannot be changed.',
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: REALM_NAME_IMMUTABLE_MESSAGE }],
    },
    displayName: { ...text, description: 'The realm\'s name as Keycloak\'s pages show it (displayName).' },
    description: { type: 'string', description: 'Kept in the realm attribute "description" (Keycloak realms have no description field).' },
    loginPageTitle: { type: 'string', description: 'The HTML title of the login pages (Keycloak\'s displayNameHtml).' },
    operatorRef: {
      type: 'object',
      required: ['namespace'],
      description: 'The operator that manages this realm, by its namespace; others leave it alone.',
      properties: { namespace: { ...namespaceName, description: 'The namespace the operator runs in (its --keycloak-operator-namespace).' } },
    },
    clientAuthorizationGrants: { type: 'array', items: namespaceName, 'x-kubernetes-list-type': 'set', description: 'Namespaces whose KeycloakClients may use this realm.' },
    security: {
      type: 'object',
      description: 'Registration, login and brute-force settings; each is Keycloak\'s realm field of the same name.',
      'x-kubernetes-validations': [{ rule: DUPLICATE_EMAILS_RULE, message: DUPLICATE_EMAILS_MESSAGE, fieldPath: '.duplicateEmailsAllowed' }],
      properties: {
        ...described(SECURITY_FLAGS, SECURITY_FLAG_DESCRIPTIONS, () => boolean),
        ...described(keysOf(SECURITY_NUMBERS), SECURITY_NUMBER_DESCRIPTIONS, (key) => int32From(SECURITY_NUMBERS[key])),
        sslRequired: { type: 'string', enum: [...SSL_REQUIRED], description: 'Which requests must use HTTPS: none, external (all but those from private addresses) or all.' },
      },
    },
    tokenSettings: {
      type: 'object',
      description: 'Lifespans in seconds; each is Keycloak\'s realm field of the same name.',
      properties: {
        ...described(keysOf(TOKEN_LIFESPANS), LIFESPAN_DESCRIPTIONS, (key) => int32From(TOKEN_LIFESPANS[key])),
        offlineSessionMaxLifespanEnabled: { ...boolean, description: 'Whether offline sessions end after offlineSessionMaxLifespan.' },
      },
    },
    themes: { type: 'object', description: 'The themes of the realm\'s pages and emails, by theme name.', properties: described(THEMES, THEME_DESCRIPTIONS, () => name) },
    localization: {
      type: 'object',
      description: 'The languages of the realm\'s pages and emails.',
      properties: {
        enabled: { ...boolean, description: 'Whether users may choose among supportedLocales (Keycloak\'s internationalizationEnabled).' },
        defaultLocale: { ...name, description: 'The language used when the user has chosen none, e.g. en.' },
        supportedLocales: { ...nameSet, description: 'The languages users may choose, e.g. en and de.' },
      },
    },
    smtpServer: {
      type: 'object',
      required: ['host', 'from'],
      description: 'The mail server the realm sends email through; Keycloak replaces it whole, so a setting left out is unset.',
      properties: {
        host: { ...name, description: 'The mail server\'s host name.' },
        port: { type: 'integer', minimum: 1, maximum: 65_535, description: 'The mail server\'s port.' },
        from: { ...name, description: 'The sender address of the realm\'s emails.' },
        fromDisplayName: { ...text, description: 'The sender\'s display name.' },
        replyTo: { ...text, description: 'The Reply-To address.' },
        envelopeFrom: { ...text, description: 'The envelope sender (bounce) address.' },
        auth: { ...boolean, description: 'Whether Keycloak logs in to the server, as user with the password from passwordSecret.' },
        ssl: { ...boolean, description: 'Whether the connection uses TLS from the start.' },
        starttls: { ...boolean, description: 'Whether the connection switches to TLS with STARTTLS.' },
        user: { ...text, description: 'The user Keycloak logs in to the server as.' },
        passwordSecret: {
          type: 'object',
          required: ['name'],
          description: `The Secret, in this namespace, holding the SMTP password; it must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}" (or the Kopf operator's ${UPSTREAM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}").`,
          properties: {
            name: { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN, description: 'Name of the Secret.' },
            key: { type: 'string', minLength: 1, default: SMTP_PASSWORD_KEY, description: `Key of the password in that Secret (${SMTP_PASSWORD_KEY} unless given).` },
          },
        },
      },
    },
    eventsConfig: {
      type: 'object',
      description: 'Which events Keycloak records and where it sends them; each is Keycloak\'s realm field of the same name.',
      properties: {
        eventsEnabled: { ...boolean, description: 'Whether user events (logins, failed logins, ...) are stored.' },
        eventsListeners: { ...nameSet, description: 'The event listeners events go to, e.g. jboss-logging, compared as a set.' },
        enabledEventTypes: { ...nameSet, description: 'The user event types stored, e.g. LOGIN and LOGIN_ERROR, compared as a set.' },
        adminEventsEnabled: { ...boolean, description: 'Whether admin events (changes made through the admin API) are stored.' },
        adminEventsDetailsEnabled: { ...boolean, description: 'Whether admin events include the representation that was sent.' },
        eventsExpiration: { ...int32From(1), description: 'Seconds stored user events are kept.' },
      },
    },
    otpPolicy: {
      type: 'object',
      description: 'One-time passwords (Keycloak\'s otpPolicy* fields).',
      properties: {
        type: { ...enumOf(OTP_TYPES), description: 'totp (codes from the time) or hotp (codes from a counter).' },
        algorithm: { ...enumOf(OTP_ALGORITHMS), description: 'The HMAC algorithm codes are made with.' },
        digits: { type: 'integer', enum: [...OTP_DIGITS], description: 'How many digits a code has.' },
        ...described(keysOf(OTP_NUMBERS), OTP_NUMBER_DESCRIPTIONS, (key) => int32From(OTP_NUMBERS[key])),
        codeReusable: { ...boolean, description: 'Whether a code may be used more than once while it is valid (Keycloak\'s realm attribute realmReusableOtpCode).' },
      },
    },
    webAuthnPolicy: webAuthnPolicy('WebAuthn as a second factor (Keycloak\'s webAuthnPolicy* fields).'),
    webAuthnPasswordlessPolicy: webAuthnPolicy('WebAuthn without a password (Keycloak\'s webAuthnPolicyPasswordless* fields).'),
    browserSecurityHeaders: {
      type: 'object',
      description: 'The security headers of Keycloak\'s pages; an empty value sends no header.',
      properties: described(BROWSER_SECURITY_HEADERS, HEADER_DESCRIPTIONS, () => text),
    },
    passwordPolicy: { type: 'string', description: 'Keycloak\'s policy string, e.g. "length(12) and notUsername".' },
    attributes: { ...stringMap, description: 'Realm attributes, compared key by key; keys left out stay (description and Keyward\'s ownership keys win over the same keys here).' },
    realmRoles: listByName(realmRole, { maxItems: MAX_SUB_OBJECTS, description: `Realm roles, by name; each listed one is managed whole. ${pruneRuleDescription('realmRoles')}` }),
    clientScopes: listByName(clientScope, { maxItems: MAX_SUB_OBJECTS, description: `Client scopes, by name. ${pruneRuleDescription('clientScopes')}` }),
    defaultClientScopes: { ...nameSet, description: 'Client scopes every new client of the realm gets as default scopes, by name; while the list names some, a scope Keyward made that it no longer names is unlinked.' },
    optionalClientScopes: { ...nameSet, description: 'Client scopes every new client of the realm gets as optional scopes, by name; while the list names some, a scope Keyward made that it no longer names is unlinked.' },
    clientProfiles: listByName(clientProfile, { maxItems: MAX_SUB_OBJECTS, description: `Client profiles this realm defines, by name. ${pruneRuleDescription('clientProfiles')}` }),
    clientPolicies: listByName(clientPolicy, { maxItems: MAX_SUB_OBJECTS, description: `Client policies this realm defines, by name. ${pruneRuleDescription('clientPolicies')}` }),
    groups: groupsCrdSchema,
    defaultGroups: { type: 'array', items: { type: 'string', pattern: GROUP_PATH_PATTERN }, 'x-kubernetes-list-type': 'set', description: 'Groups every new user joins, by path (/parent/child).' },
    defaultRoles: {
      type: 'object',
      description: 'Roles every new user gets (composites of the realm\'s default role), added to Keycloak\'s own.',
      properties: {
        realmRoles: { ...nameSet, description: 'Realm roles, by name.' },
        clientRoles: { type: 'object', description: 'Client roles, by the clientId of their client.', additionalProperties: nameSet },
      },
    },
    scopeMappings: scopeMappingsCrdSchema,
    deletionPolicy: { type: 'string', enum: [...DELETION_POLICIES], default: 'Delete', description: 'Delete (the default) deletes the realm in Keycloak, with everything in it, with this object, when Keyward owns it; Retain leaves it there.' },
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
  description: 'The realm in Keycloak, how the last reconcile went, and what it applied from the spec; written by the controller.',
  properties: {
    conditions: { type: 'array', items: conditionSchema, description: 'Ready, Reconciling and Stalled: one is True, with the reason and message of the last reconcile.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the spec this status describes.' },
    realmId: { ...text, description: 'Keycloak\'s id of the realm.' },
    endpoints: endpointsSchema,
    smtpPasswordVersion: { type: 'string', description: 'The resourceVersion of the SMTP password Secret last sent to Keycloak.' },
    message: { ...text, description: 'The message of the Ready condition.' },
    registeredRequiredActions: { type: 'array', items: text, description: 'Required actions this object registered, by alias: the only ones it ever unregisters.' },
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
    spec: withUpstreamSpellingSchemas(spec, REALM_UPSTREAM_SPELLINGS),
    status,
  },
});
