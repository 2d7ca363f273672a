import { coreTypes, type GetQuery } from '@keyward/vocabulary';
import type { KeycloakRealmQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import { flowsRead } from './flows.js';
import { readsRequiredActions } from './required-actions.js';
import type { KeycloakRealm, KeycloakRealmSpec } from './spec.js';
import type { FlowsRead } from '../apis/keycloak/flow-representations.js';
import { groupsQuery } from './groups.js';
import { idpSecretQueries } from './idp-secrets.js';
import { scopeMappingTargets } from './scope-mappings.js';
import { organizationsQuery } from './organization-reads.js';

/** The client scopes and clients whose scope mappings the spec states or status says we made. */
function scopeMappingsQuery(cr: KeycloakRealm): Pick<KeycloakRealmQuery, 'scopeMappings'> {
  const targets = scopeMappingTargets(cr.spec.scopeMappings, cr.status.managed?.scopeMappings);
  return targets === undefined ? {} : { scopeMappings: targets };
}

export interface RealmQueries {
  readonly [name: string]: KeycloakRealmQuery | GetQuery | undefined;
  /** Undefined without a configured Keycloak, or for another operator's realm. */
  readonly realm: KeycloakRealmQuery | undefined;
  /** The SMTP password Secret, when the spec names one: only its resourceVersion is used. */
  readonly smtpPasswordSecret: GetQuery | undefined;
}

/** Flows are read only for a spec that lists or binds some. */
function flowsQuery(spec: KeycloakRealmSpec): { readonly authenticationFlows?: FlowsRead } {
  const read = flowsRead(spec);
  return read === undefined ? {} : { authenticationFlows: read };
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
    realm: {
      kind: 'keycloak.realm',
      ...call,
      realm: cr.spec.realmName,
      ...flowsQuery(cr.spec),
      ...(readsRequiredActions(cr.spec.requiredActions, cr.status.registeredRequiredActions) ? { requiredActions: true } : {}),
      ...groupsQuery(cr.spec),
      ...(cr.spec.defaultGroups === undefined ? {} : { defaultGroups: true }),
      ...scopeMappingsQuery(cr),
      ...(identityProviders === undefined ? {} : { identityProviders }),
      ...organizationsQuery(cr.spec),
    },
    smtpPasswordSecret: passwordSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name: passwordSecret.name } },
    ...idpSecretQueries(cr),
  };
}
