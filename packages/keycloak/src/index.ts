// @keyward/keycloak: KeycloakRealm and KeycloakClient objects -> realms and clients in Keycloak. Pure: the
// controller modules for the operator, the reconcilers and their parts for embedding and for testing a policy.
// The Keycloak API module's pure half (actions, queries, representations) is '@keyward/keycloak/api', the runtime
// that talks to Keycloak '@keyward/keycloak/io', and its simulator '@keyward/keycloak/testing'.
export { keycloakRealmType, keycloakClientType, REALM_FINALIZER, CLIENT_FINALIZER } from './types.js';
export { defaultKeycloakConfig } from './config.js';
export type { KeycloakConfig } from './config.js';
export { keycloakRealmModule, keycloakClientModule } from './module.js';

// KeycloakRealm
export type { KeycloakRealm, KeycloakRealmSpec, KeycloakRealmStatus } from './realm/spec.js';
export { keycloakRealmController } from './realm/controller.js';
export { keycloakRealmCrd } from './realm/crd.js';
export { decodeRealm } from './realm/decode.js';
export type { RealmQueries as KeycloakRealmQueries } from './realm/types.js';
export type { KeycloakRealmAction } from './realm/vocabulary.js';
export { observe as observeRealm } from './realm/observe.js';
export { reconcile as reconcileRealm } from './realm/reconcile.js';
export { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE } from './realm/secret-opt-in.js';

// KeycloakClient
export type { KeycloakClient, KeycloakClientSpec, KeycloakClientStatus } from './client/spec.js';
export { keycloakClientController } from './client/controller.js';
export { keycloakClientCrd } from './client/crd.js';
export { decodeKeycloakClient } from './client/decode.js';
export type { ClientQueries as KeycloakClientQueries } from './client/observe.js';
export type { ClientAction as KeycloakClientAction } from './client/vocabulary.js';
export { observeClient } from './client/observe.js';
export { reconcileClient } from './client/reconcile.js';
export { CREDENTIALS_KEYS, credentialsSecretName } from './client/secret.js';
