// The pure half of @keyward/keycloak: the Keycloak API's vocabulary, the KeycloakRealm and KeycloakClient
// reconcilers, their CRDs and codecs. The runtime that talks to Keycloak is in "@keyward/keycloak/io".
export * from './apis/keycloak/index.js';
export * from './types.js';
export * from './ownership.js';
export * from './readiness.js';
export { defaultKeycloakConfig } from './config.js';
export type { KeycloakConfig } from './config.js';
