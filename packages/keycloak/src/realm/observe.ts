import { coreTypes } from '@keyward/kernel';
import type { KeycloakRealmQuery } from '../apis/keycloak/queries.js';
import type { KeycloakCall } from '../apis/keycloak/actions.js';
import type { KeycloakConfig } from '../config.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import { reservedRealm } from '../reserved.js';
import { flowsRead } from './flows/plan.js';
import { readsRequiredActions } from './required-actions/plan.js';
import type { KeycloakRealm, KeycloakRealmSpec } from './spec.js';
import type { RealmQueries } from './types.js';
import type { FlowsRead } from '../apis/keycloak/flow-representations.js';
import { groupsQuery } from './groups/plan.js';
import { idpSecretQueries } from './identity-providers/secrets.js';
import { federationSecretQueries } from './user-federation/secrets.js';
import { readsUserFederation } from './user-federation/reconcile.js';
import { scopeMappingTargets } from './scope-mappings/plan.js';
import { prunesWhenEmpty, removesUnlisted } from '../prune.js';
import { organizationsQuery } from './organizations/reads.js';
import { grantReachRead } from './admin-grants.js';
import { namedClients } from './client-waits.js';

/** The client scopes and clients whose scope mappings the spec states or status says we made. */
function scopeMappingsQuery(cr: KeycloakRealm): Pick<KeycloakRealmQuery, 'scopeMappings'> {
  const targets = scopeMappingTargets(cr.spec.scopeMappings, cr.status.managed?.scopeMappings);
  return targets === undefined ? {} : { scopeMappings: targets };
}

/** Flows are read only for a spec that lists or binds some. */
function flowsQuery(spec: KeycloakRealmSpec): { readonly authenticationFlows?: FlowsRead } {
  const read = flowsRead(spec);
  return read === undefined ? {} : { authenticationFlows: read };
}

/**
 * Identity providers are read while the spec lists some or prunes them, and the mappers of those whose spec
 * states a mapper list (or that prune their mappers).
 */
function identityProvidersQuery(spec: KeycloakRealmSpec): { readonly mappersOf: readonly string[] } | undefined {
  const listed = spec.identityProviders ?? [];
  const prune = prunesWhenEmpty(spec.pruneUnlisted, 'identityProviders');
  if (!removesUnlisted(listed, prune)) return undefined;
  return { mappersOf: listed.filter((idp) => idp.mappers !== undefined || prune).map((idp) => idp.alias) };
}

/**
 * User federation providers are read while the spec lists or prunes some: the mappers of those that list mappers, and
 * Keycloak's connection test of the LDAP ones, for status.
 */
function userFederationQuery(cr: KeycloakRealm): Pick<KeycloakRealmQuery, 'userFederation'> {
  const listed = cr.spec.userFederation ?? [];
  if (!readsUserFederation(cr.spec)) return {};
  return {
    userFederation: {
      mappersOf: listed.filter((provider) => (provider.mappers ?? []).length > 0).map((provider) => provider.name),
      testConnectionOf: listed.filter((provider) => provider.providerId === 'ldap').map((provider) => provider.name),
    },
  };
}

/** The clients the spec names: what names one Keycloak lacks waits for it (client-waits.ts). */
function clientsQuery(spec: KeycloakRealmSpec): Pick<KeycloakRealmQuery, 'clients'> {
  const clients = namedClients(spec);
  return clients.length === 0 ? {} : { clients };
}

/** What the admin-grant guard follows through Keycloak: only what the spec's grants name, and nothing while deleting. */
function grantReachQuery(cr: KeycloakRealm, call: KeycloakCall): Pick<RealmQueries, 'grantReach'> {
  const read = cr.metadata.deletionTimestamp === undefined ? grantReachRead(cr.spec) : undefined;
  return read === undefined ? {} : { grantReach: { kind: 'keycloak.grantReach', ...call, realm: cr.spec.realmName, read } };
}

/** What a reconcile reads: the realm in Keycloak (with its roles and scopes) and the SMTP password Secret. */
export function observe(cr: KeycloakRealm, config: KeycloakConfig): RealmQueries {
  const namespace = cr.metadata.namespace;
  const call = keycloakCall(config, namespace);
  // Keycloak's admin realm is refused by name: it is not even read.
  if (call === undefined || isAnotherOperators(cr.spec.operatorRef, config) || reservedRealm(cr.spec.realmName) !== undefined) return { realm: undefined, smtpPasswordSecret: undefined };
  const passwordSecret = cr.spec.smtpServer?.passwordSecret;
  const identityProviders = identityProvidersQuery(cr.spec);
  return {
    realm: {
      kind: 'keycloak.realm',
      ...call,
      realm: cr.spec.realmName,
      ...flowsQuery(cr.spec),
      ...(readsRequiredActions(cr.spec.requiredActions, prunesWhenEmpty(cr.spec.pruneUnlisted, 'requiredActions'), cr.status.registeredRequiredActions) ? { requiredActions: true } : {}),
      ...groupsQuery(cr.spec),
      ...(cr.spec.defaultGroups === undefined ? {} : { defaultGroups: true }),
      ...scopeMappingsQuery(cr),
      ...(identityProviders === undefined ? {} : { identityProviders }),
      ...userFederationQuery(cr),
      ...organizationsQuery(cr.spec),
      ...clientsQuery(cr.spec),
    },
    smtpPasswordSecret: passwordSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name: passwordSecret.name } },
    ...idpSecretQueries(cr),
    ...federationSecretQueries(cr),
    ...grantReachQuery(cr, call),
  };
}
