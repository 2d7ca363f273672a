// What Keycloak makes in every realm by itself. A spec may not declare these (the schema refuses them), and
// the reconciler never changes or removes them, whatever attributes they carry.

/** Realm roles of every realm, besides `default-roles-<realm>`. */
export const BUILT_IN_REALM_ROLES: readonly string[] = ['offline_access', 'uma_authorization'];
/** The prefix of each realm's default role, `default-roles-<realm name in lower case>`. */
export const DEFAULT_ROLES_PREFIX = 'default-roles-';

/** Client scopes Keycloak 26 creates in a new realm (OpenID Connect and SAML). */
export const BUILT_IN_CLIENT_SCOPES: readonly string[] = [
  'acr', 'address', 'basic', 'email', 'microprofile-jwt', 'offline_access', 'organization', 'phone', 'profile',
  'role_list', 'roles', 'saml_organization', 'service_account', 'web-origins',
];

export function isBuiltInRealmRole(name: string): boolean {
  return BUILT_IN_REALM_ROLES.includes(name) || name.startsWith(DEFAULT_ROLES_PREFIX);
}

export function isBuiltInClientScope(name: string): boolean {
  return BUILT_IN_CLIENT_SCOPES.includes(name);
}

export const BUILT_IN_ROLE_MESSAGE = `is a role Keycloak makes in every realm (${BUILT_IN_REALM_ROLES.join(', ')}, ${DEFAULT_ROLES_PREFIX}<realm>)`;
export const BUILT_IN_SCOPE_MESSAGE = 'is a client scope Keycloak makes in every realm';
