import { coreTypes, type GetQuery } from '@keyward/vocabulary';
import type { KeycloakRealmQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import type { KeycloakRealm } from './spec.js';
import { idpSecretQueries } from './idp-secrets.js';

export interface RealmQueries {
  readonly [name: string]: KeycloakRealmQuery | GetQuery | undefined;
  /** Undefined without a configured Keycloak, or for another operator's realm. */
  readonly realm: KeycloakRealmQuery | undefined;
  /** The SMTP password Secret, when the spec names one: only its resourceVersion is used. */
  readonly smtpPasswordSecret: GetQuery | undefined;
}

/**
 * Identity providers are read while the spec lists some or status says it listed some (to prune them), and
 * the mappers of those whose spec states a mapper list.
 */
function identityProvidersQuery(cr: KeycloakRealm): { readonly mappersOf: readonly string[] } | undefined {
  const listed = cr.spec.identityProviders ?? [];
  if (listed.length === 0 && (cr.status.managedIdentityProviders ?? []).length === 0) return undefined;
  return { mappersOf: listed.filter((idp) => idp.mappers !== undefined).map((idp) => idp.alias) };
}

/** What a reconcile reads: the realm in Keycloak (with its roles and scopes) and the SMTP password Secret. */
export function observe(cr: KeycloakRealm, config: KeycloakConfig): RealmQueries {
  const namespace = cr.metadata.namespace;
  const call = keycloakCall(config, namespace);
  if (call === undefined || isAnotherOperators(cr.spec.operatorRef, config)) return { realm: undefined, smtpPasswordSecret: undefined };
  const passwordSecret = cr.spec.smtpServer?.passwordSecret;
  const identityProviders = identityProvidersQuery(cr);
  return {
    realm: { kind: 'keycloak.realm', ...call, realm: cr.spec.realmName, ...(identityProviders === undefined ? {} : { identityProviders }) },
    smtpPasswordSecret: passwordSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name: passwordSecret.name } },
    ...idpSecretQueries(cr),
  };
}
