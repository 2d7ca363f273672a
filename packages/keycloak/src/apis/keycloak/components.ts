import type { KeycloakObject } from './representations.js';

// Keycloak's components: a realm's user federation providers (LDAP, Kerberos) and their mappers among them.
// A component's config maps each key to a list of strings, whatever the key holds.

/** The providerType of user federation providers. */
export const USER_STORAGE_PROVIDER_TYPE = 'org.keycloak.storage.UserStorageProvider';
/** The providerType of the mappers of an LDAP provider (children of the provider's component). */
export const LDAP_MAPPER_PROVIDER_TYPE = 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper';

export type ComponentConfig = Readonly<Record<string, readonly string[]>>;

export interface ComponentRepresentation extends KeycloakObject {
  readonly id: string;
  readonly name: string;
  readonly providerId: string;
  readonly providerType?: string;
  readonly parentId?: string;
  readonly subType?: string;
  readonly config?: ComponentConfig;
}

/** What Keycloak's LDAP connection test said: it binds with the stored credential, or why not. */
export type ConnectionTest = { readonly passed: true } | { readonly passed: false; readonly error: string };

/** A user federation provider as read, with its mappers and connection test when the query asked for them. */
export interface ObservedFederationProvider {
  readonly provider: ComponentRepresentation;
  readonly mappers: readonly ComponentRepresentation[] | undefined;
  readonly connectionTest?: ConnectionTest;
}
