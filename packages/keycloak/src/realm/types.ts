// The types the realm's planners share, in a file of their own: the queries a realm reads and the input of its
// reconcile. observe.ts and reconcile.ts import the planners, so the planners import these from here.
import type { GetQuery } from '@keyward/kernel/plan';
import type { ReconcileInput } from '@keyward/kernel';
import type { KeycloakGrantReachQuery, KeycloakRealmQuery } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import type { KeycloakRealm } from './spec.js';

export interface RealmQueries {
  readonly [name: string]: KeycloakRealmQuery | KeycloakGrantReachQuery | GetQuery | undefined;
  /** Undefined without a configured Keycloak, or for another operator's realm. */
  readonly realm: KeycloakRealmQuery | undefined;
  /** The SMTP password Secret, when the spec names one: only its resourceVersion is used. */
  readonly smtpPasswordSecret: GetQuery | undefined;
  /** What the roles and groups the spec's grants name lead to in Keycloak, when it names some. */
  readonly grantReach?: KeycloakGrantReachQuery | undefined;
}

export type RealmInput = ReconcileInput<KeycloakRealm, RealmQueries, KeycloakConfig>;
