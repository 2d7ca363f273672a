import type * as t from 'io-ts';
import { fields as f, withFieldRule } from '@keyward/kernel/model';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE, UPSTREAM_SECRET_LABEL } from './secret-opt-in.js';
import { each, int32From, keysOf, name, nameSet } from './field-kinds.js';

// The realm's own settings as a spec states them, each field declared once for the codec and the CRD schema:
// security, lifespans, themes, languages, mail, events, one-time passwords, WebAuthn and headers.

export const SSL_REQUIRED = ['none', 'external', 'all'] as const;

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

/**
 * Keycloak turns off email as username and login with email whenever duplicate emails are allowed, and
 * still answers 204: a spec asking for both could never converge.
 */
export const DUPLICATE_EMAILS_MESSAGE = 'duplicateEmailsAllowed cannot be combined with registrationEmailAsUsername or loginWithEmailAllowed (Keycloak turns them off)';
export const DUPLICATE_EMAILS_RULE = '!(has(self.duplicateEmailsAllowed) && self.duplicateEmailsAllowed) || !((has(self.registrationEmailAsUsername) && self.registrationEmailAsUsername) || (has(self.loginWithEmailAllowed) && self.loginWithEmailAllowed))';

const emailsConsistent = (security: { readonly duplicateEmailsAllowed?: boolean; readonly registrationEmailAsUsername?: boolean; readonly loginWithEmailAllowed?: boolean }): boolean =>
  security.duplicateEmailsAllowed !== true || (security.registrationEmailAsUsername !== true && security.loginWithEmailAllowed !== true);

export const Security = f.object({
  ...each(SECURITY_FLAGS, (key) => f.boolean().describe(SECURITY_FLAG_DESCRIPTIONS[key])),
  ...each(keysOf(SECURITY_NUMBERS), (key) => int32From(SECURITY_NUMBERS[key]).describe(SECURITY_NUMBER_DESCRIPTIONS[key])),
  sslRequired: f.enumOf(SSL_REQUIRED).describe('Which requests must use HTTPS: none, external (all but those from private addresses) or all.'),
}).describe('Registration, login and brute-force settings; each is Keycloak\'s realm field of the same name.')
  .rule({ rule: DUPLICATE_EMAILS_RULE, message: DUPLICATE_EMAILS_MESSAGE, fieldPath: '.duplicateEmailsAllowed' }, (codec) =>
    withFieldRule('SecuritySpec', codec, (security) => (emailsConsistent(security) ? undefined : { field: 'duplicateEmailsAllowed', message: DUPLICATE_EMAILS_MESSAGE })));

export const TokenSettings = f.object({
  ...each(keysOf(TOKEN_LIFESPANS), (key) => int32From(TOKEN_LIFESPANS[key]).describe(LIFESPAN_DESCRIPTIONS[key])),
  offlineSessionMaxLifespanEnabled: f.boolean().describe('Whether offline sessions end after offlineSessionMaxLifespan.'),
}).describe('Lifespans in seconds; each is Keycloak\'s realm field of the same name.');

export const Themes = f.object(each(THEMES, (key) => name.describe(THEME_DESCRIPTIONS[key])))
  .describe('The themes of the realm\'s pages and emails, by theme name.');

export const Localization = f.object({
  enabled: f.boolean().describe('Whether users may choose among supportedLocales (Keycloak\'s internationalizationEnabled).'),
  defaultLocale: name.describe('The language used when the user has chosen none, e.g. en.'),
  supportedLocales: nameSet.describe('The languages users may choose, e.g. en and de.'),
}).describe('The languages of the realm\'s pages and emails.');

/** The key of the SMTP password in its Secret when the spec names none, as the Kopf operator reads it. */
export const SMTP_PASSWORD_KEY = 'password';

/** Why a password in the spec is refused, and what to do instead. */
export const SMTP_PASSWORD_MESSAGE = 'smtpServer.password is refused: whoever can read this object would read the password; put it in a Secret and name it in smtpServer.passwordSecret';

export const SmtpServer = f.object({
  host: name.describe('The mail server\'s host name.').required(),
  port: f.integerIn(1, 65_535).describe('The mail server\'s port.'),
  from: name.describe('The sender address of the realm\'s emails.').required(),
  fromDisplayName: f.string().describe('The sender\'s display name.'),
  replyTo: f.string().describe('The Reply-To address.'),
  envelopeFrom: f.string().describe('The envelope sender (bounce) address.'),
  auth: f.boolean().describe('Whether Keycloak logs in to the server, as user with the password from passwordSecret.'),
  ssl: f.boolean().describe('Whether the connection uses TLS from the start.'),
  starttls: f.boolean().describe('Whether the connection switches to TLS with STARTTLS.'),
  user: f.string().describe('The user Keycloak logs in to the server as.'),
  passwordSecret: f.object({
    name: f.kubernetesName().describe('Name of the Secret.').required(),
    key: f.withDefaultValue(f.nonEmpty(), SMTP_PASSWORD_KEY).describe(`Key of the password in that Secret (${SMTP_PASSWORD_KEY} unless given).`),
  }).describe(`The Secret, in this namespace, holding the SMTP password; it must carry the label ${REALM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}" (or the Kopf operator's ${UPSTREAM_SECRET_LABEL}: "${REALM_SECRET_LABEL_VALUE}").`),
  // Declared so that a manifest of the Kopf operator stating it is refused with the way out, not as unknown.
  password: f.string().describe('Refused: whoever can read this object would read the password; name a Secret in passwordSecret.'),
}).describe('The mail server the realm sends email through; Keycloak replaces it whole, so a setting left out is unset.')
  .rule({ rule: '!has(self.password)', message: SMTP_PASSWORD_MESSAGE, fieldPath: '.password' }, (codec) =>
    withFieldRule('SmtpServerSpec', codec, (smtp) => (smtp.password === undefined ? undefined : { field: 'password', message: SMTP_PASSWORD_MESSAGE })));

export const EventsConfig = f.object({
  eventsEnabled: f.boolean().describe('Whether user events (logins, failed logins, ...) are stored.'),
  eventsListeners: nameSet.describe('The event listeners events go to, e.g. jboss-logging, compared as a set.'),
  enabledEventTypes: nameSet.describe('The user event types stored, e.g. LOGIN and LOGIN_ERROR, compared as a set.'),
  adminEventsEnabled: f.boolean().describe('Whether admin events (changes made through the admin API) are stored.'),
  adminEventsDetailsEnabled: f.boolean().describe('Whether admin events include the representation that was sent.'),
  eventsExpiration: int32From(1).describe('Seconds stored user events are kept.'),
}).describe('Which events Keycloak records and where it sends them; each is Keycloak\'s realm field of the same name.');

export const OtpPolicy = f.object({
  type: f.enumOf(OTP_TYPES).describe('totp (codes from the time) or hotp (codes from a counter).'),
  algorithm: f.enumOf(OTP_ALGORITHMS).describe('The HMAC algorithm codes are made with.'),
  digits: f.integerOf(OTP_DIGITS).describe('How many digits a code has.'),
  ...each(keysOf(OTP_NUMBERS), (key) => int32From(OTP_NUMBERS[key]).describe(OTP_NUMBER_DESCRIPTIONS[key])),
  codeReusable: f.boolean().describe('Whether a code may be used more than once while it is valid (Keycloak\'s realm attribute realmReusableOtpCode).'),
}).describe('One-time passwords (Keycloak\'s otpPolicy* fields).');

const WebAuthnPolicy = f.object({
  rpEntityName: name.describe('The relying party\'s name authenticators show (a new realm\'s: keycloak).'),
  signatureAlgorithms: f.set(f.enumOf(WEBAUTHN_SIGNATURE_ALGORITHMS)).describe('Signature algorithms a credential may use, compared as a set (a new realm\'s: ES256 and RS256).'),
  rpId: f.string().describe('The relying party id; empty: the host Keycloak is reached at.'),
  attestationConveyancePreference: f.enumOf(WEBAUTHN_ATTESTATION_PREFERENCES).describe('What attestation of the authenticator is asked for; "not specified" leaves it to the browser.'),
  authenticatorAttachment: f.enumOf(WEBAUTHN_AUTHENTICATOR_ATTACHMENTS).describe('Which authenticators may register: platform (built into the device), cross-platform (a security key), or either ("not specified").'),
  requireResidentKey: f.enumOf(WEBAUTHN_RESIDENT_KEY).describe('Whether the credential must be a discoverable one kept on the authenticator.'),
  userVerificationRequirement: f.enumOf(WEBAUTHN_USER_VERIFICATION).describe('Whether the authenticator must verify the user (PIN, fingerprint).'),
  createTimeout: int32From(0).describe('Seconds; 0: no timeout of Keycloak\'s own.'),
  avoidSameAuthenticatorRegister: f.boolean().describe('Whether registering an authenticator the user has already registered is refused.'),
  acceptableAaguids: nameSet.describe('The authenticator models (AAGUIDs) that may register, compared as a set; empty: any.'),
  extraOrigins: nameSet.describe('Origins besides Keycloak\'s own that may use the credentials (an app\'s, for instance), compared as a set.'),
});

export const WebAuthnSecondFactor = WebAuthnPolicy.describe('WebAuthn as a second factor (Keycloak\'s webAuthnPolicy* fields).');
export const WebAuthnPasswordless = WebAuthnPolicy.describe('WebAuthn without a password (Keycloak\'s webAuthnPolicyPasswordless* fields).');

export const BrowserSecurityHeaders = f.object(each(BROWSER_SECURITY_HEADERS, (key) => f.string().describe(HEADER_DESCRIPTIONS[key])))
  .describe('The security headers of Keycloak\'s pages; an empty value sends no header.');

export type SmtpServerSpec = t.TypeOf<typeof SmtpServer.codec>;
