import { coreTypes, type GetQuery } from '@keyward/vocabulary';
import type { KeycloakRealmQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import type { KeycloakRealm } from './spec.js';
import { groupsQuery } from './groups.js';
import { scopeMappingTargets } from './scope-mappings.js';

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

/** What a reconcile reads: the realm in Keycloak (with its roles and scopes) and the SMTP password Secret. */
export function observe(cr: KeycloakRealm, config: KeycloakConfig): RealmQueries {
  const namespace = cr.metadata.namespace;
  const call = keycloakCall(config, namespace);
  if (call === undefined || isAnotherOperators(cr.spec.operatorRef, config)) return { realm: undefined, smtpPasswordSecret: undefined };
  const passwordSecret = cr.spec.smtpServer?.passwordSecret;
  return {
    realm: { kind: 'keycloak.realm', ...call, realm: cr.spec.realmName, ...groupsQuery(cr.spec), ...(cr.spec.defaultGroups === undefined ? {} : { defaultGroups: true }), ...scopeMappingsQuery(cr) },
    smtpPasswordSecret: passwordSecret === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name: passwordSecret.name } },
  };
}
