import type { FederationProviderStatus, KeycloakRealmStatus } from '../spec.js';

export type { FederationProviderStatus } from '../spec.js';

// The user federation part of a realm's status: one entry per provider the spec lists (its Keycloak id and,
// for LDAP, Keycloak's connection test, once read: a provider made in a plan shows them from the next
// reconcile on), and the versions of the
// Secrets whose bind credentials Keycloak holds.

export interface FederationStatus {
  readonly providers: readonly FederationProviderStatus[];
  readonly secretVersions: Readonly<Record<string, string>>;
}

/** The status fields for `federation`; empty ones are left out, so a realm without providers has none. */
export function federationStatusFields(federation: FederationStatus): Partial<KeycloakRealmStatus> {
  return {
    ...(federation.providers.length === 0 ? {} : { userFederation: federation.providers }),
    ...(Object.keys(federation.secretVersions).length === 0 ? {} : { userFederationSecretVersions: federation.secretVersions }),
  };
}

export function withoutFederationStatus(status: KeycloakRealmStatus): KeycloakRealmStatus {
  const { userFederation: _providers, userFederationSecretVersions: _versions, ...rest } = status;
  return rest;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readProvider(entry: unknown): FederationProviderStatus[] {
  if (!isRecord(entry) || !isText(entry['name']) || !isText(entry['providerId'])) return [];
  const passed = entry['connectionTestPassed'];
  return [{
    name: entry['name'],
    providerId: entry['providerId'],
    ...(isText(entry['id']) ? { id: entry['id'] } : {}),
    ...(typeof passed === 'boolean' ? { connectionTestPassed: passed } : {}),
    ...(isText(entry['connectionTestError']) ? { connectionTestError: entry['connectionTestError'] } : {}),
  }];
}

/** The stored fields, reduced to the right types (anyone who may write the status may have). */
export function readFederationStatus(fields: Readonly<Record<string, unknown>>): Partial<KeycloakRealmStatus> {
  const providers = fields['userFederation'];
  const versions = fields['userFederationSecretVersions'];
  return federationStatusFields({
    providers: Array.isArray(providers) ? providers.flatMap(readProvider) : [],
    secretVersions: isRecord(versions) ? Object.fromEntries(Object.entries(versions).filter((entry): entry is [string, string] => isText(entry[1]))) : {},
  });
}
