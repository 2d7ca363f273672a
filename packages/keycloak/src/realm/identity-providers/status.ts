import type { KeycloakRealmStatus } from '../spec.js';

// The identity providers' part of a realm's status: the Secret versions whose values Keycloak holds.

export interface IdpStatus {
  readonly secretVersions: Readonly<Record<string, string>>;
}

/** The status fields for `idp`; empty ones are left out, so a realm without identity providers has none. */
export function idpStatusFields(idp: IdpStatus): Partial<KeycloakRealmStatus> {
  return Object.keys(idp.secretVersions).length === 0 ? {} : { identityProviderSecretVersions: idp.secretVersions };
}

export function withoutIdpStatus(status: KeycloakRealmStatus): KeycloakRealmStatus {
  const { identityProviderSecretVersions: _versions, ...rest } = status;
  return rest;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The stored fields, reduced to the right types (anyone who may write the status may have). */
export function readIdpStatus(fields: Readonly<Record<string, unknown>>): Partial<KeycloakRealmStatus> {
  const versions = fields['identityProviderSecretVersions'];
  const secretVersions = typeof versions === 'object' && versions !== null && !Array.isArray(versions)
    ? Object.fromEntries(Object.entries(versions).filter((entry): entry is [string, string] => isText(entry[1])))
    : {};
  return idpStatusFields({ secretVersions });
}
