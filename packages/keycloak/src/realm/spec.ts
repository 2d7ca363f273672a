import type { RealmEndpoints } from '../endpoints.js';
import { PROTOCOLS, protocolMapperCodec } from '../protocol-mappers.js';
import * as t from 'io-ts';
import { atMost, integerInRange, kubernetesName, minLengthString, oneOf, uniqueList, withDefault, withFieldRule } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';
import { type StoredMeta } from '@keyward/kernel/plan';
import { AuthenticationFlowsCodec, FlowBindingsCodec } from './flows/spec.js';
import { RequiredActionsCodec } from './required-actions/spec.js';
import { DefaultGroupsCodec, GroupsCodec, StatedRolesCodec } from './groups/spec.js';
import type { RealmManaged } from './managed.js';
import { ScopeMappingsCodec } from './scope-mappings/spec.js';
import { IdentityProvidersCodec } from './identity-providers/spec.js';
import { pruneUnlistedCodec } from '../prune.js';
import { UserFederationListCodec } from './user-federation/spec.js';
import { OrganizationsCodec } from './organizations/spec.js';
import { acceptingUpstreamSpellings } from '../upstream-spellings.js';
import { REALM_UPSTREAM_SPELLINGS } from './upstream.js';
import { BUILT_IN_ROLE_MESSAGE, BUILT_IN_SCOPE_MESSAGE, isBuiltInClientScope, isBuiltInRealmRole } from './built-ins.js';

// The KeycloakRealm spec as a codec. crd.ts states the same rules as an OpenAPI schema, from the same tables
// and constants, and a test checks both give the same verdicts on a real API server.

/** Keycloak keeps numbers of realm settings as Java ints. */
export const INT32_MAX = 2_147_483_647;
/** Keycloak's name columns hold 255 characters (measured on 26.7.3: roles, client scopes, groups, aliases). */
export const NAME_MAX_LENGTH = 255;
/**
 * Keycloak 26.7.3 stores realm names of at most 237 characters, fewer than its name columns hold (the realm's
 * own role and client names carry it): 238 to 241 answer HTTP 500, longer ones a 400 naming no field.
 */
export const REALM_NAME_MAX_LENGTH = 237;
/** Bounds what the schema's rules on list items cost the API server to check. */
export const MAX_SUB_OBJECTS = 500;

/** A realm name is part of every admin and login URL: no slashes, dots or spaces that would change the path. */
export const REALM_NAME_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?$';
/** A namespace name (DNS-1123 label), as the schema's pattern reads it too. */
export const NAMESPACE_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const NAMESPACE_MAX_LENGTH = 63;

export const SSL_REQUIRED = ['none', 'external', 'all'] as const;
/** The realm's lists of things Keyward makes, which `pruneUnlisted` may name. */
export const REALM_PRUNABLE_FIELDS = ['realmRoles', 'clientScopes', 'groups', 'authenticationFlows', 'requiredActions', 'identityProviders', 'clientProfiles', 'clientPolicies', 'userFederation', 'organizations'] as const;
export type RealmPrunableField = (typeof REALM_PRUNABLE_FIELDS)[number];

export const DELETION_POLICIES = ['Delete', 'Retain'] as const;

/** Security switches: each is the realm field of the same name. */
export const SECURITY_FLAGS = [
  'registrationAllowed', 'registrationEmailAsUsername', 'editUsernameAllowed', 'resetPasswordAllowed', 'rememberMe',
  'verifyEmail', 'loginWithEmailAllowed', 'duplicateEmailsAllowed', 'revokeRefreshToken', 'bruteForceProtected', 'permanentLockout',
] as const;

/** Security numbers with their least value: each is the realm field of the same name. */
export const SECURITY_NUMBERS = {
  refreshTokenMaxReuse: 0,
  maxFailureWaitSeconds: 0,
  minimumQuickLoginWaitSeconds: 0,
  waitIncrementSeconds: 0,
  quickLoginCheckMilliSeconds: 0,
  maxDeltaTimeSeconds: 0,
  failureFactor: 1,
} as const;

/**
 * Lifespans in seconds with their least value: each is the realm field of the same name. Client session
 * lifespans of 0 mean "as long as the SSO session", and offline max lifespan 0 is off.
 */
export const TOKEN_LIFESPANS = {
  accessTokenLifespan: 1,
  accessTokenLifespanForImplicitFlow: 1,
  ssoSessionIdleTimeout: 1,
  ssoSessionMaxLifespan: 1,
  offlineSessionIdleTimeout: 1,
  offlineSessionMaxLifespan: 0,
  clientSessionIdleTimeout: 0,
  clientSessionMaxLifespan: 0,
  clientOfflineSessionIdleTimeout: 0,
  clientOfflineSessionMaxLifespan: 0,
} as const;

export const THEMES = ['login', 'account', 'admin', 'email'] as const;

export const OTP_TYPES = ['totp', 'hotp'] as const;
export const OTP_ALGORITHMS = ['HmacSHA1', 'HmacSHA256', 'HmacSHA512'] as const;
export const OTP_DIGITS = [6, 8] as const;
/** OTP numbers with their least value: `otpPolicy.<key>` is Keycloak's `otpPolicy<Key>`. */
export const OTP_NUMBERS = { lookAheadWindow: 0, period: 1, initialCounter: 0 } as const;

/** WebAuthn choices, as Keycloak names them; "not specified" leaves the choice to the browser. */
export const WEBAUTHN_SIGNATURE_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'RS1'] as const;
export const WEBAUTHN_ATTESTATION_PREFERENCES = ['not specified', 'none', 'indirect', 'direct'] as const;
export const WEBAUTHN_AUTHENTICATOR_ATTACHMENTS = ['not specified', 'platform', 'cross-platform'] as const;
export const WEBAUTHN_RESIDENT_KEY = ['not specified', 'Yes', 'No'] as const;
export const WEBAUTHN_USER_VERIFICATION = ['not specified', 'required', 'preferred', 'discouraged'] as const;

/** The headers Keycloak sets on its pages, by its names; an empty value sends no header. */
export const BROWSER_SECURITY_HEADERS = [
  'contentSecurityPolicy', 'contentSecurityPolicyReportOnly', 'xContentTypeOptions', 'xRobotsTag', 'xFrameOptions', 'strictTransportSecurity', 'referrerPolicy',
] as const;

/** A text of 1 to `max` characters matching `pattern`, when one is given. */
function boundedText(max: number, pattern?: { readonly source: string; readonly says: string }): t.Type<string> {
  const regex = pattern === undefined ? undefined : new RegExp(pattern.source);
  const valid = (u: unknown): u is string => typeof u === 'string' && u.length >= 1 && u.length <= max && (regex?.test(u) ?? true);
  const name = `a string of 1 to ${String(max)} characters${pattern === undefined ? '' : ` (${pattern.says})`}`;
  return new t.Type<string>(name, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** `base`, refusing the names `refused` picks out with `message` (the schema's rule says the same). */
function refusing(base: t.Type<string>, refused: (name: string) => boolean, message: string): t.Type<string> {
  return new t.Type<string>(
    base.name,
    (u): u is string => base.is(u) && !refused(u),
    (u, c) => {
      const decoded = base.validate(u, c);
      if (decoded._tag === 'Left' || !refused(decoded.right)) return decoded;
      return t.failure(u, c, message);
    },
    t.identity,
  );
}


function fields<K extends string, C extends t.Mixed>(keys: readonly K[], codec: (key: K) => C): Record<K, C> {
  return Object.fromEntries(keys.map((key) => [key, codec(key)])) as Record<K, C>;
}

const keysOf = <K extends string>(table: Readonly<Record<K, unknown>>): K[] => Object.keys(table) as K[];

const name = boundedText(NAME_MAX_LENGTH);
const text = t.string;
const stringMap = t.record(t.string, t.string);
const nameSet = uniqueList(t.array(name));
const int32From = (min: number): t.Type<number> => integerInRange(min, INT32_MAX);

export const RealmNameCodec = boundedText(REALM_NAME_MAX_LENGTH, { source: REALM_NAME_PATTERN, says: 'letters, digits, - and _, starting and ending with a letter or digit' });
const namespaceName = boundedText(NAMESPACE_MAX_LENGTH, { source: NAMESPACE_PATTERN, says: 'a namespace name' });

const SecurityFields = t.partial({
  ...fields(SECURITY_FLAGS, () => t.boolean),
  ...fields(keysOf(SECURITY_NUMBERS), (key) => int32From(SECURITY_NUMBERS[key])),
  sslRequired: oneOf(SSL_REQUIRED),
});

/**
 * Keycloak turns off email as username and login with email whenever duplicate emails are allowed, and
 * still answers 204: a spec asking for both could never converge.
 */
export const DUPLICATE_EMAILS_MESSAGE = 'duplicateEmailsAllowed cannot be combined with registrationEmailAsUsername or loginWithEmailAllowed (Keycloak turns them off)';
export const DUPLICATE_EMAILS_RULE = '!(has(self.duplicateEmailsAllowed) && self.duplicateEmailsAllowed) || !((has(self.registrationEmailAsUsername) && self.registrationEmailAsUsername) || (has(self.loginWithEmailAllowed) && self.loginWithEmailAllowed))';

type SecuritySpec = t.TypeOf<typeof SecurityFields>;

const emailsConsistent = (security: SecuritySpec): boolean =>
  security.duplicateEmailsAllowed !== true || (security.registrationEmailAsUsername !== true && security.loginWithEmailAllowed !== true);

const SecurityCodec = withFieldRule('SecuritySpec', SecurityFields, (security: SecuritySpec) =>
  (emailsConsistent(security) ? undefined : { field: 'duplicateEmailsAllowed', message: DUPLICATE_EMAILS_MESSAGE }));

const TokenSettingsCodec = t.partial({
  ...fields(keysOf(TOKEN_LIFESPANS), (key) => int32From(TOKEN_LIFESPANS[key])),
  offlineSessionMaxLifespanEnabled: t.boolean,
});

const ThemesCodec = t.partial(fields(THEMES, () => name));

const LocalizationCodec = t.partial({ enabled: t.boolean, defaultLocale: name, supportedLocales: nameSet });

/** The key of the SMTP password in its Secret when the spec names none, as the Kopf operator reads it. */
export const SMTP_PASSWORD_KEY = 'password';

const SmtpPasswordSecretCodec = t.type({ name: kubernetesName(), key: withDefault(minLengthString(1), SMTP_PASSWORD_KEY) });

const SmtpServerCodec = t.intersection([
  t.type({ host: name, from: name }),
  t.partial({
    port: integerInRange(1, 65_535),
    fromDisplayName: text,
    replyTo: text,
    envelopeFrom: text,
    auth: t.boolean,
    ssl: t.boolean,
    starttls: t.boolean,
    user: text,
    passwordSecret: SmtpPasswordSecretCodec,
  }),
]);

const EventsConfigCodec = t.partial({
  eventsEnabled: t.boolean,
  eventsListeners: nameSet,
  enabledEventTypes: nameSet,
  adminEventsEnabled: t.boolean,
  adminEventsDetailsEnabled: t.boolean,
  eventsExpiration: int32From(1),
});

/** An integer that is one of `values`. */
function oneOfIntegers(values: readonly number[]): t.Type<number> {
  const valid = (u: unknown): u is number => typeof u === 'number' && values.includes(u);
  return new t.Type<number>(`one of ${values.join(', ')}`, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

const OtpPolicyCodec = t.partial({
  type: oneOf(OTP_TYPES),
  algorithm: oneOf(OTP_ALGORITHMS),
  digits: oneOfIntegers(OTP_DIGITS),
  ...fields(keysOf(OTP_NUMBERS), (key) => int32From(OTP_NUMBERS[key])),
  codeReusable: t.boolean,
});

const WebAuthnPolicyCodec = t.partial({
  rpEntityName: name,
  signatureAlgorithms: uniqueList(t.array(oneOf(WEBAUTHN_SIGNATURE_ALGORITHMS))),
  rpId: text,
  attestationConveyancePreference: oneOf(WEBAUTHN_ATTESTATION_PREFERENCES),
  authenticatorAttachment: oneOf(WEBAUTHN_AUTHENTICATOR_ATTACHMENTS),
  requireResidentKey: oneOf(WEBAUTHN_RESIDENT_KEY),
  userVerificationRequirement: oneOf(WEBAUTHN_USER_VERIFICATION),
  createTimeout: int32From(0),
  avoidSameAuthenticatorRegister: t.boolean,
  acceptableAaguids: nameSet,
  extraOrigins: nameSet,
});

const BrowserSecurityHeadersCodec = t.partial(fields(BROWSER_SECURITY_HEADERS, () => text));

const CompositesCodec = t.partial({ realm: nameSet, clients: t.record(t.string, nameSet) });

const RealmRoleCodec = t.intersection([
  t.type({ name: refusing(name, isBuiltInRealmRole, BUILT_IN_ROLE_MESSAGE) }),
  t.partial({ description: text, attributes: stringMap, composites: CompositesCodec }),
]);

const ProtocolMapperCodec = protocolMapperCodec(name);

const byName = (item: { readonly name: string }): string => item.name;

const ClientScopeCodec = t.intersection([
  t.type({ name: refusing(name, isBuiltInClientScope, BUILT_IN_SCOPE_MESSAGE), protocol: withDefault(oneOf(PROTOCOLS), 'openid-connect') }),
  t.partial({ description: text, attributes: stringMap, protocolMappers: uniqueList(t.array(ProtocolMapperCodec), byName) }),
]);

/** An executor's or condition's configuration: JSON whose shape its provider defines (Keycloak checks it). */
const ProviderConfigurationCodec = withDefault(t.UnknownRecord, {});

const ClientProfileCodec = t.intersection([
  t.type({ name, executors: t.array(t.type({ executor: name, configuration: ProviderConfigurationCodec })) }),
  t.partial({ description: text }),
]);

const ClientPolicyCodec = t.intersection([
  t.type({
    name,
    enabled: withDefault(t.boolean, true),
    conditions: t.array(t.type({ condition: name, configuration: ProviderConfigurationCodec })),
    profiles: nameSet,
  }),
  t.partial({ description: text }),
]);

const RealmSpecFields = t.intersection([
  t.type({
    realmName: RealmNameCodec,
    deletionPolicy: withDefault(oneOf(DELETION_POLICIES), 'Delete'),
  }),
  t.partial({
    displayName: text,
    description: text,
    loginPageTitle: text,
    operatorRef: t.type({ namespace: namespaceName }),
    clientAuthorizationGrants: uniqueList(t.array(namespaceName)),
    security: SecurityCodec,
    tokenSettings: TokenSettingsCodec,
    themes: ThemesCodec,
    localization: LocalizationCodec,
    smtpServer: SmtpServerCodec,
    eventsConfig: EventsConfigCodec,
    otpPolicy: OtpPolicyCodec,
    webAuthnPolicy: WebAuthnPolicyCodec,
    webAuthnPasswordlessPolicy: WebAuthnPolicyCodec,
    browserSecurityHeaders: BrowserSecurityHeadersCodec,
    passwordPolicy: text,
    attributes: stringMap,
    realmRoles: atMost(uniqueList(t.array(RealmRoleCodec), byName), MAX_SUB_OBJECTS),
    clientScopes: atMost(uniqueList(t.array(ClientScopeCodec), byName), MAX_SUB_OBJECTS),
    defaultClientScopes: nameSet,
    optionalClientScopes: nameSet,
    clientProfiles: atMost(uniqueList(t.array(ClientProfileCodec), byName), MAX_SUB_OBJECTS),
    clientPolicies: atMost(uniqueList(t.array(ClientPolicyCodec), byName), MAX_SUB_OBJECTS),
    authenticationFlows: AuthenticationFlowsCodec,
    flowBindings: FlowBindingsCodec,
    requiredActions: RequiredActionsCodec,
    groups: GroupsCodec,
    defaultGroups: DefaultGroupsCodec,
    defaultRoles: StatedRolesCodec,
    scopeMappings: ScopeMappingsCodec,
    identityProviders: IdentityProvidersCodec,
    organizationsEnabled: t.boolean,
    pruneUnlisted: pruneUnlistedCodec(REALM_PRUNABLE_FIELDS),
    userFederation: UserFederationListCodec,
    organizations: OrganizationsCodec,
  }),
]);

/** The spec, read in the Kopf operator's spellings too (upstream.ts). */
export const RealmSpecCodec = acceptingUpstreamSpellings(RealmSpecFields, REALM_UPSTREAM_SPELLINGS);

export type KeycloakRealmSpec = t.TypeOf<typeof RealmSpecCodec>;
export type RealmRoleSpec = t.TypeOf<typeof RealmRoleCodec>;
export type ClientScopeSpec = t.TypeOf<typeof ClientScopeCodec>;
export type ProtocolMapperSpec = t.TypeOf<typeof ProtocolMapperCodec>;
export type SmtpServerSpec = t.TypeOf<typeof SmtpServerCodec>;
export type ClientProfileSpec = t.TypeOf<typeof ClientProfileCodec>;
export type ClientPolicySpec = t.TypeOf<typeof ClientPolicyCodec>;

/** A user federation provider the spec lists, as status records it. */
// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type FederationProviderStatus = {
  readonly name: string;
  readonly providerId: string;
  /** Keycloak's id of the component; absent until it has been read. */
  readonly id?: string;
  /** LDAP: whether Keycloak's connection test bound to the directory with the stored credential. */
  readonly connectionTestPassed?: boolean;
  /** Why the connection test failed, as Keycloak says it (AuthenticationFailure, ...). */
  readonly connectionTestError?: string;
};

/** Status as the controller writes it; every field optional, so any stored status reads. */
// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type KeycloakRealmStatus = {
  readonly conditions?: readonly Condition[];
  readonly observedGeneration?: number;
  /** Keycloak's id of the realm. */
  readonly realmId?: string;
  readonly endpoints?: RealmEndpoints;
  /** The resourceVersion of the SMTP password Secret whose password Keycloak was last sent. */
  readonly smtpPasswordVersion?: string;
  /** What the Ready condition says, for tools that read a status message. */
  readonly message?: string;
  /** Required actions this object registered (Keycloak had them unregistered), by alias. */
  readonly registeredRequiredActions?: readonly string[];
  /** What the realm applied where Keycloak keeps no marker of ours: only that is ever removed. */
  readonly managed?: RealmManaged;
  /** Aliases of the identity providers the spec lists: while any, they are read (and pruned once unlisted). */
  /** The resourceVersion of each Secret whose identity provider config values Keycloak was last sent, by name. */
  readonly identityProviderSecretVersions?: Readonly<Record<string, string>>;
  /** One entry per user federation provider the spec lists. */
  readonly userFederation?: readonly FederationProviderStatus[];
  /** The resourceVersion of each Secret whose bind credential Keycloak was last sent, by name. */
  readonly userFederationSecretVersions?: Readonly<Record<string, string>>;
  /** The generation whose spec Keycloak refused (HTTP 400): it is not sent again until the spec changes. */
  readonly refusedGeneration?: number;
};

export interface KeycloakRealm {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: StoredMeta;
  readonly spec: KeycloakRealmSpec;
  readonly status: KeycloakRealmStatus;
  readonly [field: string]: unknown;
}
