import type { KubeObject } from '@keyward/kernel';
import type { SecretKeyRef } from '@keyward/kernel/plan';
import type { KeycloakJson } from '../apis/keycloak/representations.js';
import { ownershipAttributes } from '../ownership.js';
import type { KeycloakRealm, KeycloakRealmSpec, SmtpServerSpec } from './spec.js';
import { realmSecretKey } from './secret-opt-in.js';

/** Keycloak realms have no description field: the spec's description is kept in this realm attribute. */
export const DESCRIPTION_ATTRIBUTE = 'description';

/** The prefixes of Keycloak's flat WebAuthn fields: `webAuthnPolicy.rpId` is `webAuthnPolicyRpId`. */
const OTP_PREFIX = 'otpPolicy';
const WEBAUTHN_PREFIX = 'webAuthnPolicy';
const WEBAUTHN_PASSWORDLESS_PREFIX = 'webAuthnPolicyPasswordless';
const WEBAUTHN_LISTS = ['SignatureAlgorithms', 'AcceptableAaguids', 'ExtraOrigins'];

/**
 * Keycloak's OTP and WebAuthn policies as flat realm fields. Keycloak writes a policy whole, and only from a
 * PUT that names its key field (otpPolicyType, webAuthnPolicy(Passwordless)RpEntityName): fields it leaves out
 * are reset (OTP ones to 0 or null). `defaults` are a new realm's values.
 */
export interface Policy {
  readonly holds: (field: string) => boolean;
  readonly defaults: Readonly<Record<string, KeycloakJson>>;
}

const webAuthnDefaults = (prefix: string, residentKey: string, userVerification: string): Record<string, KeycloakJson> => ({
  [`${prefix}RpEntityName`]: 'keycloak',
  [`${prefix}SignatureAlgorithms`]: ['ES256', 'RS256'],
  [`${prefix}RpId`]: '',
  [`${prefix}AttestationConveyancePreference`]: 'not specified',
  [`${prefix}AuthenticatorAttachment`]: 'not specified',
  [`${prefix}RequireResidentKey`]: 'not specified',
  [`${prefix}ResidentKey`]: residentKey,
  [`${prefix}UserVerificationRequirement`]: userVerification,
  [`${prefix}CreateTimeout`]: 0,
  [`${prefix}AvoidSameAuthenticatorRegister`]: false,
  [`${prefix}AcceptableAaguids`]: [],
  [`${prefix}ExtraOrigins`]: [],
});

export const POLICIES: readonly Policy[] = [
  {
    holds: (field) => field.startsWith(OTP_PREFIX),
    defaults: { otpPolicyType: 'totp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyInitialCounter: 0, otpPolicyDigits: 6, otpPolicyLookAheadWindow: 1, otpPolicyPeriod: 30, otpPolicyCodeReusable: false },
  },
  {
    holds: (field) => field.startsWith(WEBAUTHN_PREFIX) && !field.startsWith(WEBAUTHN_PASSWORDLESS_PREFIX),
    defaults: webAuthnDefaults(WEBAUTHN_PREFIX, 'not specified', 'not specified'),
  },
  {
    holds: (field) => field.startsWith(WEBAUTHN_PASSWORDLESS_PREFIX),
    defaults: webAuthnDefaults(WEBAUTHN_PASSWORDLESS_PREFIX, 'required', 'required'),
  },
];

/**
 * Policy fields Keycloak keeps in realm attributes as well (booleans as text, lists comma-joined), by the
 * attribute's name: a PUT of the attributes must say the same.
 */
export const ATTRIBUTE_MIRRORS: Readonly<Record<string, string>> = {
  otpPolicyCodeReusable: 'realmReusableOtpCode',
  webAuthnPolicyExtraOrigins: 'webAuthnPolicyExtraOrigins',
  webAuthnPolicyPasswordlessExtraOrigins: 'webAuthnPolicyPasswordlessExtraOrigins',
};

/** Realm fields Keycloak keeps as lists without order: compared as sets. */
export const SET_FIELDS: readonly string[] = [
  'supportedLocales', 'eventsListeners', 'enabledEventTypes',
  ...WEBAUTHN_LISTS.flatMap((list) => [`${WEBAUTHN_PREFIX}${list}`, `${WEBAUTHN_PASSWORDLESS_PREFIX}${list}`]),
];

/** The realm as a spec wants it: only the fields the spec sets, named and shaped as Keycloak's RealmRepresentation. */
export interface DesiredRealm {
  /** Always `realm`, `enabled` and `attributes` (ownership included); `smtpServer` without its password. */
  readonly fields: Readonly<Record<string, KeycloakJson>>;
  /** Where the SMTP password is read when it is sent; plans never hold it. */
  readonly smtpPassword: SecretKeyRef | undefined;
}

type Json = Record<string, KeycloakJson>;

/** The entries of `object` whose value is set, under the names `rename` gives them. */
function defined(object: object | undefined, rename: (key: string) => string = (key) => key): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(object ?? {})) if (value !== undefined) out[rename(key)] = value as KeycloakJson;
  return out;
}

const THEME_FIELDS: Readonly<Record<string, string>> = { login: 'loginTheme', account: 'accountTheme', admin: 'adminTheme', email: 'emailTheme' };
const LOCALIZATION_FIELDS: Readonly<Record<string, string>> = { enabled: 'internationalizationEnabled', defaultLocale: 'defaultLocale', supportedLocales: 'supportedLocales' };
const renamed = (table: Readonly<Record<string, string>>) => (key: string): string => table[key] ?? key;
/** `type` under `otpPolicy` is Keycloak's `otpPolicyType`. */
const prefixed = (prefix: string) => (key: string): string => `${prefix}${key.charAt(0).toUpperCase()}${key.slice(1)}`;

/** Keycloak keeps every SMTP setting as a string ("587", "true"). */
function smtpServer(smtp: SmtpServerSpec): Json {
  const { passwordSecret: _password, ...settings } = smtp;
  const out: Json = {};
  for (const [key, value] of Object.entries(settings)) out[key] = String(value);
  return out;
}

function attributes(cr: KeycloakRealm): Readonly<Record<string, string>> {
  const { spec, metadata } = cr;
  return {
    ...spec.attributes,
    ...(spec.description === undefined ? {} : { [DESCRIPTION_ATTRIBUTE]: spec.description }),
    // Last: the spec cannot name another owner.
    ...ownershipAttributes({ namespace: metadata.namespace, name: metadata.name }),
  };
}

function settings(spec: KeycloakRealmSpec): Json {
  return {
    ...defined({ displayName: spec.displayName, displayNameHtml: spec.loginPageTitle, passwordPolicy: spec.passwordPolicy }),
    ...defined(spec.security),
    ...defined(spec.tokenSettings),
    ...defined(spec.themes, renamed(THEME_FIELDS)),
    ...defined(spec.localization, renamed(LOCALIZATION_FIELDS)),
    ...defined(spec.eventsConfig),
    ...defined(spec.otpPolicy, prefixed(OTP_PREFIX)),
    ...defined(spec.webAuthnPolicy, prefixed(WEBAUTHN_PREFIX)),
    ...defined(spec.webAuthnPasswordlessPolicy, prefixed(WEBAUTHN_PASSWORDLESS_PREFIX)),
    ...(spec.browserSecurityHeaders === undefined ? {} : { browserSecurityHeaders: defined(spec.browserSecurityHeaders) }),
    ...defined({ organizationsEnabled: spec.organizationsEnabled }),
  };
}

/** The realm as the spec states it; `smtpSecret` is the SMTP password's Secret as read, for the label its read requires. */
export function desiredRealm(cr: KeycloakRealm, smtpSecret?: KubeObject): DesiredRealm {
  const { spec } = cr;
  const password = spec.smtpServer?.passwordSecret;
  return {
    fields: {
      realm: spec.realmName,
      enabled: true,
      ...settings(spec),
      attributes: attributes(cr),
      ...(spec.smtpServer === undefined ? {} : { smtpServer: smtpServer(spec.smtpServer) }),
    },
    smtpPassword: password === undefined ? undefined : realmSecretKey(cr.metadata.namespace, password, smtpSecret),
  };
}
