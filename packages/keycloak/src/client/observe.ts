import { coreTypes } from '@keyward/kernel';
import { type GetQuery } from '@keyward/kernel/plan';
import type { KeycloakClientQuery, KeycloakFlowsQuery, KeycloakGrantReachQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { keycloakCall } from '../server.js';
import { reservedClient } from '../reserved.js';
import { keycloakRealmType } from '../types.js';
import { realmObjectRef } from './realm.js';
import { credentialsSecretRef } from './secret.js';
import { AUTHORIZATION_PRUNABLE_FIELDS, type KeycloakClient } from './spec.js';
import { prunesWhenEmpty, removesUnlisted } from '../prune.js';
import { serviceAccountReach } from './role-guard.js';
import { recordedRealm } from './recorded-realm.js';

/** Whether the client's roles are read: the spec lists some, or prunes those it made. */
const readsClientRoles = ({ spec }: KeycloakClient): boolean => removesUnlisted(spec.clientRoles, prunesWhenEmpty(spec.pruneUnlisted, 'clientRoles'));

/** Whether the client's authorization services are read: the spec states them, or prunes what it made there. */
const hasAuthorization = ({ spec }: KeycloakClient): boolean =>
  spec.authorizationSettings !== undefined || AUTHORIZATION_PRUNABLE_FIELDS.some((field) => prunesWhenEmpty(spec.pruneUnlisted, field));

/** The policies and permissions to list (with the parts of those the spec lists): only when a list of them manages something. */
function policiesQuery({ spec }: KeycloakClient): { readonly authorizationPolicies?: readonly string[] } {
  const policies = spec.authorizationSettings?.policies;
  const permissions = spec.authorizationSettings?.permissions;
  const manages = removesUnlisted(policies, prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.policies')) || removesUnlisted(permissions, prunesWhenEmpty(spec.pruneUnlisted, 'authorizationSettings.permissions'));
  return manages ? { authorizationPolicies: [...(policies ?? []), ...(permissions ?? [])].map((policy) => policy.name) } : {};
}

export interface ClientQueries {
  readonly [name: string]: GetQuery | KeycloakClientQuery | KeycloakFlowsQuery | KeycloakGrantReachQuery | undefined;
  readonly realm: GetQuery;
  /** Only once the realm is recorded (see recordedRealm), and with Keycloak configured. */
  readonly client: KeycloakClientQuery | undefined;
  readonly credentials: GetQuery;
  /** Only when the spec names a Secret with the client secret. */
  readonly providedSecret: GetQuery | undefined;
  /** The realm's flows, only when the spec overrides some (their ids are what Keycloak takes). */
  readonly flows?: KeycloakFlowsQuery | undefined;
  /**
   * What the service-account roles the spec lists are made of, in the recorded realm: only for roles
   * the guard does not refuse by name, so a composite made by hand cannot carry an admin role past it.
   */
  readonly grantReach?: KeycloakGrantReachQuery | undefined;
}

/**
 * What a reconcile reads: the realm object, the client in Keycloak (in the recorded realm, so the realm
 * object is read once before Keycloak is; also while deleting, to know whether the client is ours),
 * the credentials Secret, and the Secret with a client secret the spec provides.
 */
export function observeClient(client: KeycloakClient, config: KeycloakConfig): ClientQueries {
  const { metadata, spec } = client;
  const realm = realmObjectRef(client);
  const recorded = recordedRealm(client);
  const call = keycloakCall(config, client.metadata.namespace);
  // Nothing is read for a client refused by name, nor while deleting.
  const reads = recorded !== undefined && metadata.deletionTimestamp === undefined && reservedClient(recorded, spec.clientId) === undefined;
  const reach = reads ? serviceAccountReach(recorded, spec.serviceAccountRoles, config.keycloakAllowedServiceAccountRoles) : undefined;
  return {
    realm: { kind: 'k8s.get', ref: { type: keycloakRealmType, namespace: realm.namespace, name: realm.name } },
    // One of Keycloak's own clients is refused by name: it is not even read.
    client: call === undefined || recorded === undefined || reservedClient(recorded, spec.clientId) !== undefined
      ? undefined
      : { kind: 'keycloak.client', ...call, realm: recorded, clientId: spec.clientId, owner: { namespace: metadata.namespace, name: metadata.name }, roles: readsClientRoles(client), authorization: hasAuthorization(client), ...policiesQuery(client) },
    credentials: { kind: 'k8s.get', ref: credentialsSecretRef(client) },
    providedSecret: spec.clientSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: metadata.namespace, name: spec.clientSecret.name } },
    flows: call === undefined || recorded === undefined || spec.authenticationFlowOverrides === undefined ? undefined : { kind: 'keycloak.flows', ...call, realm: recorded },
    grantReach: call === undefined || recorded === undefined || reach === undefined ? undefined : { kind: 'keycloak.grantReach', ...call, realm: recorded, read: reach },
  };
}
