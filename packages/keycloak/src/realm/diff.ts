import type { KeycloakBody, SecretFields } from '../apis/keycloak/actions.js';
import type { KeycloakJson, RealmRepresentation } from '../apis/keycloak/representations.js';
import { differingKeys, isJsonObject, sameValue } from './compare.js';
import { ATTRIBUTE_MIRRORS, POLICIES, SET_FIELDS, type DesiredRealm, type Policy } from './desired.js';

/** How Keycloak shows a secret it holds, and what it takes in a PUT as "keep the one you have". */
export const MASKED_SECRET = '**********';
const SMTP_PASSWORD = 'smtpServer.password';

/** What a realm PUT sends: the fields that differ, and where their secrets are read. */
export interface RealmChange {
  /** Field names for the plan (`attributes.<key>`, `smtpServer.password`), never values. */
  readonly changed: readonly string[];
  /** Always names the realm: a PUT with another name would rename it. */
  readonly body: KeycloakBody;
  readonly secretFields?: SecretFields;
}

/** Whether Keycloak holds an SMTP password (it shows one masked; none is absent or empty). */
function holdsPassword(smtp: KeycloakJson | undefined): boolean {
  const password = isJsonObject(smtp) ? smtp['password'] : undefined;
  return typeof password === 'string' && password !== '';
}

/**
 * The smtpServer part of a PUT. Keycloak replaces smtpServer whole, so it is sent complete whenever it is
 * sent: with the password from its Secret when that is due (`resendPassword`: the Secret changed since the
 * last send) or Keycloak has none, otherwise with the mask, which keeps the stored one.
 */
function smtpChange(desired: DesiredRealm, observed: RealmRepresentation, resendPassword: boolean): RealmChange | undefined {
  const settings = desired.fields['smtpServer'];
  if (!isJsonObject(settings)) return undefined;
  const { smtpPassword } = desired;
  const current = observed['smtpServer'];
  const settingsDiffer = !sameValue(settings, current);
  const sendPassword = smtpPassword !== undefined && (resendPassword || !holdsPassword(current));
  // A password the spec does not ask for is removed by sending smtpServer without one.
  const dropPassword = smtpPassword === undefined && holdsPassword(current);
  if (!settingsDiffer && !sendPassword && !dropPassword) return undefined;
  const keep = smtpPassword !== undefined && !sendPassword ? { password: MASKED_SECRET } : {};
  return {
    changed: [...(settingsDiffer ? ['smtpServer'] : []), ...(sendPassword || dropPassword ? [SMTP_PASSWORD] : [])],
    body: { smtpServer: { ...settings, ...keep } },
    ...(sendPassword ? { secretFields: { [SMTP_PASSWORD]: smtpPassword } } : {}),
  };
}

/**
 * The attributes, when any the spec states differ. Keycloak replaces a realm's attributes whole on a PUT that
 * carries them (keys left out are removed), so the body holds every attribute Keycloak has, with the spec's
 * values over them: the ownership attributes and keys set by others stay.
 */
function attributesChange(desired: DesiredRealm, observed: RealmRepresentation): RealmChange | undefined {
  const wanted = desired.fields['attributes'];
  if (!isJsonObject(wanted)) return undefined;
  const attributes = wanted as Readonly<Record<string, string>>;
  const keys = differingKeys(attributes, observed.attributes);
  if (keys.length === 0) return undefined;
  return { changed: keys.map((key) => `attributes.${key}`), body: { attributes: mirrored(desired, { ...observed.attributes, ...attributes }) } };
}

/** `attributes` with the policy fields Keycloak mirrors in them as the spec states those fields. */
function mirrored(desired: DesiredRealm, attributes: Readonly<Record<string, string>>): Record<string, string> {
  const stated = new Map<string, string>();
  for (const [field, attribute] of Object.entries(ATTRIBUTE_MIRRORS)) {
    const value = desired.fields[field];
    if (typeof value === 'boolean') stated.set(attribute, String(value));
    else if (Array.isArray(value)) stated.set(attribute, value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(','));
  }
  // Keycloak keeps no attribute for an empty list.
  const kept = Object.entries(attributes).filter(([key]) => stated.get(key) !== '');
  return Object.fromEntries([...kept, ...[...stated].filter(([, text]) => text !== '')]);
}

const WHOLE = new Set(['realm', 'attributes', 'smtpServer', 'browserSecurityHeaders']);

/** The policy a flat field belongs to, by its prefix. */
const policyOf = (field: string): Policy | undefined => POLICIES.find((policy) => policy.holds(field));

/** Every field Keycloak shows of `policy`. */
const observedPolicy = (policy: Policy, observed: RealmRepresentation): Record<string, KeycloakJson> =>
  Object.fromEntries(Object.entries(observed).filter(([field, value]) => policy.holds(field) && value !== undefined)) as Record<string, KeycloakJson>;

function plainChanges(desired: DesiredRealm, observed: RealmRepresentation): RealmChange {
  const body: Record<string, KeycloakJson> = {};
  const changed: string[] = [];
  const policies = new Set<Policy>();
  for (const [field, value] of Object.entries(desired.fields)) {
    if (WHOLE.has(field) || sameValue(value, observed[field], SET_FIELDS.includes(field))) continue;
    changed.push(field);
    body[field] = value;
    const policy = policyOf(field);
    if (policy !== undefined) policies.add(policy);
  }
  // Keycloak resets the fields of a policy a PUT leaves out: a policy goes whole, the spec's values over Keycloak's.
  for (const policy of policies) {
    const stated = Object.fromEntries(Object.entries(desired.fields).filter(([field]) => policy.holds(field)));
    Object.assign(body, observedPolicy(policy, observed), stated);
  }
  return { changed, body };
}

/** The headers that differ; sent with every header Keycloak has, the spec's over them. */
function headersChange(desired: DesiredRealm, observed: RealmRepresentation): RealmChange | undefined {
  const wanted = desired.fields['browserSecurityHeaders'];
  if (!isJsonObject(wanted)) return undefined;
  const current = observed['browserSecurityHeaders'];
  const keys = differingKeys(wanted as Readonly<Record<string, string>>, current);
  if (keys.length === 0) return undefined;
  return { changed: keys.map((key) => `browserSecurityHeaders.${key}`), body: { browserSecurityHeaders: { ...(isJsonObject(current) ? current : {}), ...wanted } } };
}

/**
 * The PUT that brings Keycloak's realm to the spec, comparing only the fields the spec manages; undefined
 * when nothing differs.
 */
export function diffRealm(desired: DesiredRealm, observed: RealmRepresentation, resendPassword: boolean): RealmChange | undefined {
  const parts = [plainChanges(desired, observed), headersChange(desired, observed), attributesChange(desired, observed), smtpChange(desired, observed, resendPassword)]
    .filter((part): part is RealmChange => part !== undefined);
  const changed = parts.flatMap((part) => part.changed);
  if (changed.length === 0) return undefined;
  const secretFields = Object.assign({}, ...parts.map((part) => part.secretFields ?? {})) as SecretFields;
  return {
    changed,
    body: Object.assign({ realm: desired.fields['realm'] }, ...parts.map((part) => part.body)) as KeycloakBody,
    ...(Object.keys(secretFields).length === 0 ? {} : { secretFields }),
  };
}

/**
 * What a new realm gets where the spec is silent and the Keycloak operator Keyward replaces defaulted otherwise
 * than Keycloak does (off in Keycloak): a migrated realm's login page keeps its "forgot password" link. Only at
 * creation: a realm that exists keeps what it has unless the spec states it. That operator's events config
 * (admin events stored with their details, no listener) is not taken: see docs/decisions.md.
 */
export const REALM_CREATION_DEFAULTS: Readonly<Record<string, KeycloakJson>> = { resetPasswordAllowed: true };

/**
 * A spec stating `localization` in part: that operator completed it with internationalization on and English
 * (Keycloak has it off, with no locales), so that the locales a migrated realm states are offered.
 */
export const LOCALIZATION_CREATION_DEFAULTS: Readonly<Record<string, KeycloakJson>> = { internationalizationEnabled: true, defaultLocale: 'en', supportedLocales: ['en'] };

/**
 * The POST that creates the realm: every managed field over the creation defaults, the SMTP password read from
 * its Secret. A policy the spec states in part is completed with Keycloak's defaults, which Keycloak would
 * otherwise leave unset.
 */
export function realmCreation(desired: DesiredRealm): { readonly body: KeycloakBody; readonly secretFields?: SecretFields } {
  const defaults = POLICIES.filter((policy) => Object.keys(desired.fields).some((field) => policy.holds(field))).map((policy) => policy.defaults);
  const localization = Object.keys(LOCALIZATION_CREATION_DEFAULTS).some((field) => field in desired.fields) ? LOCALIZATION_CREATION_DEFAULTS : {};
  return {
    body: Object.assign({}, REALM_CREATION_DEFAULTS, localization, ...defaults, desired.fields) as KeycloakBody,
    ...(desired.smtpPassword === undefined || !isJsonObject(desired.fields['smtpServer']) ? {} : { secretFields: { [SMTP_PASSWORD]: desired.smtpPassword } }),
  };
}
