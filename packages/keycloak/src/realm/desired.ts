import type { SecretKeyRef } from '@keyward/vocabulary';
import type { KeycloakJson } from '../apis/keycloak/representations.js';
import { ownershipAttributes } from '../ownership.js';
import type { KeycloakRealm, KeycloakRealmSpec, SmtpServerSpec } from './spec.js';

/** Keycloak realms have no description field: the spec's description is kept in this realm attribute. */
export const DESCRIPTION_ATTRIBUTE = 'description';

/** Realm fields Keycloak keeps as lists without order: compared as sets. */
export const SET_FIELDS: readonly string[] = ['supportedLocales', 'eventsListeners', 'enabledEventTypes'];

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
  };
}

export function desiredRealm(cr: KeycloakRealm): DesiredRealm {
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
    smtpPassword: password === undefined ? undefined : { kind: 'secretKey', namespace: cr.metadata.namespace, name: password.name, key: password.key },
  };
}
