import { coreTypes, type GetQuery } from '@keyward/vocabulary';
import type { KeycloakClientQuery, KeycloakFlowsQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { keycloakCall } from '../server.js';
import { keycloakRealmType } from '../types.js';
import { realmObjectRef } from './realm.js';
import { credentialsSecretRef } from './secret.js';
import type { KeycloakClient } from './spec.js';

/** Whether the spec lists client roles, or status says some it listed were created. */
const hasClientRoles = ({ spec, status }: KeycloakClient): boolean => (spec.clientRoles?.length ?? 0) > 0 || (status.managed?.clientRoles?.length ?? 0) > 0;

/** Whether the spec states authorization services, or status says some scope or resource it listed was made. */
const hasAuthorization = ({ spec, status }: KeycloakClient): boolean =>
  spec.authorizationSettings !== undefined || (status.managed?.authorizationScopes?.length ?? 0) > 0 || (status.managed?.authorizationResources?.length ?? 0) > 0;

export interface ClientQueries {
  readonly [name: string]: GetQuery | KeycloakClientQuery | KeycloakFlowsQuery | undefined;
  readonly realm: GetQuery;
  /** Only once status names the realm, and with Keycloak configured. */
  readonly client: KeycloakClientQuery | undefined;
  readonly credentials: GetQuery;
  /** Only when the spec names a Secret with the client secret. */
  readonly providedSecret: GetQuery | undefined;
  /** The realm's flows, only when the spec overrides some (their ids are what Keycloak takes). */
  readonly flows?: KeycloakFlowsQuery | undefined;
}

/**
 * What a reconcile reads: the realm object, the client in Keycloak (in the realm status recorded, so the
 * realm object is read once before Keycloak is; also while deleting, to know whether the client is ours),
 * the credentials Secret, and the Secret with a client secret the spec provides.
 */
export function observeClient(client: KeycloakClient, config: KeycloakConfig): ClientQueries {
  const { metadata, spec, status } = client;
  const realm = realmObjectRef(client);
  const call = keycloakCall(config, client.metadata.namespace);
  return {
    realm: { kind: 'k8s.get', ref: { type: keycloakRealmType, namespace: realm.namespace, name: realm.name } },
    client: call === undefined || status.realm === undefined
      ? undefined
      : { kind: 'keycloak.client', ...call, realm: status.realm, clientId: spec.clientId, owner: { namespace: metadata.namespace, name: metadata.name }, roles: hasClientRoles(client), authorization: hasAuthorization(client) },
    credentials: { kind: 'k8s.get', ref: credentialsSecretRef(client) },
    providedSecret: spec.clientSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: metadata.namespace, name: spec.clientSecret.name } },
    flows: call === undefined || status.realm === undefined || spec.authenticationFlowOverrides === undefined ? undefined : { kind: 'keycloak.flows', ...call, realm: status.realm },
  };
}
