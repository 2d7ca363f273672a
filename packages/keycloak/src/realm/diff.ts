import type { KeycloakBody, SecretFields } from '../apis/keycloak/actions.js';
import type { KeycloakJson, RealmRepresentation } from '../apis/keycloak/representations.js';
import { differingKeys, isJsonObject, sameValue } from './compare.js';
import { SET_FIELDS, type DesiredRealm } from './desired.js';

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
  return { changed: keys.map((key) => `attributes.${key}`), body: { attributes: { ...observed.attributes, ...attributes } } };
}

const WHOLE = new Set(['realm', 'attributes', 'smtpServer']);

function plainChanges(desired: DesiredRealm, observed: RealmRepresentation): RealmChange {
  const body: Record<string, KeycloakJson> = {};
  for (const [field, value] of Object.entries(desired.fields)) {
    if (!WHOLE.has(field) && !sameValue(value, observed[field], SET_FIELDS.includes(field))) body[field] = value;
  }
  return { changed: Object.keys(body), body };
}

/**
 * The PUT that brings Keycloak's realm to the spec, comparing only the fields the spec manages; undefined
 * when nothing differs.
 */
export function diffRealm(desired: DesiredRealm, observed: RealmRepresentation, resendPassword: boolean): RealmChange | undefined {
  const parts = [plainChanges(desired, observed), attributesChange(desired, observed), smtpChange(desired, observed, resendPassword)]
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

/** The POST that creates the realm: every managed field, the SMTP password read from its Secret. */
export function realmCreation(desired: DesiredRealm): { readonly body: KeycloakBody; readonly secretFields?: SecretFields } {
  return {
    body: desired.fields,
    ...(desired.smtpPassword === undefined || !isJsonObject(desired.fields['smtpServer']) ? {} : { secretFields: { [SMTP_PASSWORD]: desired.smtpPassword } }),
  };
}
