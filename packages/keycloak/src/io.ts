// The impure half of @keyward/keycloak: the Keycloak API module's runtime, its admin client and token cache,
// and the figures and names of core's fair rate limiter that every admin request passes.
export { keycloakRuntime } from './apis/keycloak/io/runtime.js';
export type { KeycloakRuntime, KeycloakRuntimeOptions } from './apis/keycloak/io/runtime.js';
export { KeycloakAdminClient } from './apis/keycloak/io/client.js';
export type { AdminRequest, KeycloakAdminClientOptions } from './apis/keycloak/io/client.js';
export { AdminTokenCache, requestAdminToken } from './apis/keycloak/io/tokens.js';
export type { AdminToken, AdminTokenCacheOptions } from './apis/keycloak/io/tokens.js';
export { ADMIN_SECRET_KEYS, adminCredentialsFrom, readAdminCredentials } from './apis/keycloak/io/credentials.js';
export type { AdminCredentials, CredentialsSecret } from './apis/keycloak/io/credentials.js';
export { keycloakTransport, keycloakErrorDetail } from './apis/keycloak/io/transport.js';
export type { KeycloakTransportOptions } from './apis/keycloak/io/transport.js';
export { keycloakTransportPool } from './apis/keycloak/io/transports.js';
export type { KeycloakTransportPool } from './apis/keycloak/io/transports.js';
export { defaultKeycloakRateLimits, keycloakRateLimitNames, keycloakRateLimiter } from './apis/keycloak/io/rate-limits.js';
