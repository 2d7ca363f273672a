// The pure half of @keyward/keycloak: the Keycloak API's vocabulary, the KeycloakRealm and KeycloakClient
// reconcilers, their CRDs and codecs. The runtime that talks to Keycloak is in "@keyward/keycloak/io".
export * from './apis/keycloak/index.js';
export * from './types.js';
export * from './ownership.js';
export * from './readiness.js';
export { defaultKeycloakConfig } from './config.js';
export type { KeycloakConfig } from './config.js';
export { realmEndpoints, readEndpoints } from './endpoints.js';
export type { RealmEndpoints } from './endpoints.js';
export { keycloakCall } from './server.js';
export { keycloakRealmModule, keycloakClientModule, parseSecretRef } from './module.js';

// KeycloakRealm
export { keycloakRealmCrd } from './realm/crd.js';
export { RealmSpecCodec } from './realm/spec.js';
export type { KeycloakRealm, KeycloakRealmSpec, KeycloakRealmStatus } from './realm/spec.js';
export { decodeRealm, readRealmStatus } from './realm/decode.js';
export { desiredRealm } from './realm/desired.js';
export { diffRealm } from './realm/diff.js';
export { observe as observeRealm } from './realm/observe.js';
export type { RealmQueries } from './realm/types.js';
export { reconcile as reconcileRealm } from './realm/reconcile.js';
export { reportFailure as reportRealmFailure, reportInvalid as reportInvalidRealm } from './realm/report.js';
export { keycloakRealmController } from './realm/controller.js';
export { keycloakRealmApis } from './realm/vocabulary.js';
export type { KeycloakRealmAction } from './realm/vocabulary.js';
export { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE, isOptedIn as isRealmSecretOptedIn, realmSecretsProblem } from './realm/secret-opt-in.js';
export type { RealmSecretUse } from './realm/secret-opt-in.js';

// KeycloakClient
export { keycloakClientCrd } from './client/crd.js';
export { ClientSpecCodec, regenerateTokenOf } from './client/spec.js';
export type { KeycloakClient, KeycloakClientSpec, KeycloakClientStatus, ManagedLists } from './client/spec.js';
export { decodeKeycloakClient, readClientStatus } from './client/decode.js';
export { CREDENTIALS_KEYS, credentialsSecretName } from './client/secret.js';
export { observeClient } from './client/observe.js';
export type { ClientQueries } from './client/observe.js';
export { reconcileClient, FOLLOW_UP_MS } from './client/reconcile.js';
export { reportClientFailure, reportInvalidClient } from './client/report.js';
export { keycloakClientController } from './client/controller.js';
export { clientApis as keycloakClientApis } from './client/vocabulary.js';
export type { ClientAction as KeycloakClientAction } from './client/vocabulary.js';
