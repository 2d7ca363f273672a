import type { KeycloakCall } from './apis/keycloak/actions.js';
import type { KeycloakConfig } from './config.js';

/**
 * The server and rate-limit account of every Keycloak call made for an object in `namespace`, or undefined
 * when the operator has no Keycloak configured (then nothing is read or written there).
 */
export function keycloakCall(config: KeycloakConfig, namespace: string): KeycloakCall | undefined {
  if (config.keycloakUrl === undefined || config.keycloakAdminSecret === undefined) return undefined;
  return { server: { url: config.keycloakUrl, credentials: config.keycloakAdminSecret }, chargeTo: namespace };
}

/** Whether a realm is left to the operator in another namespace (its operatorRef names that one). */
export function isAnotherOperators(operatorRef: { readonly namespace: string } | undefined, config: KeycloakConfig): boolean {
  return operatorRef !== undefined && operatorRef.namespace !== config.keycloakOperatorNamespace;
}
