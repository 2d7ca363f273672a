import type { KeycloakClientSpec } from './spec.js';

// JavaScript authorization policies run code inside Keycloak: the operator writes them only when it was
// started with --keycloak-allow-js-policies. Without, a client stating one stops before anything is written.

/** The names of the JavaScript policies a spec states. */
export const jsPolicyNames = (spec: KeycloakClientSpec): string[] => (spec.authorizationSettings?.policies ?? []).filter((policy) => policy.type === 'js').map((policy) => policy.name);

/** Why the client is refused, or undefined when it states no JavaScript policy or the operator allows them. */
export function refusedJsPolicies(spec: KeycloakClientSpec, allowed: boolean): string | undefined {
  const names = jsPolicyNames(spec);
  if (allowed || names.length === 0) return undefined;
  return `spec.authorizationSettings.policies states JavaScript policies (${names.join(', ')}), which run code inside Keycloak and which the operator does not write; `
    + 'remove them, or have the operator started with --keycloak-allow-js-policies (Keycloak then needs a deployed script provider for them). Nothing is changed in Keycloak until then';
}
