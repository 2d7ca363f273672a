// What Keycloak keeps for itself: its admin realm and the clients it makes in every realm. No object may
// take these over, whatever the operator's options: adopting one would hand a namespace Keycloak's own
// administration (the master realm's default roles, the bootstrap admin's client secret).

/** The reason a refusal of something of Keycloak's reports. */
export const RESERVED_REASON = 'ReservedByKeycloak';

/**
 * Keycloak's admin realm. The operator's own admin credentials log in there too (tokens come from its token
 * endpoint), and it holds the bootstrap admin's service-account client and a `<realm>-realm` client for the
 * administration of every other realm, so the whole realm and everything in it is Keycloak's.
 */
export const ADMIN_REALM = 'master';

/** The clients Keycloak 26 makes in every new realm. */
export const KEYCLOAK_CLIENTS: readonly string[] = ['account', 'account-console', 'admin-cli', 'broker', 'realm-management', 'security-admin-console'];

/**
 * Keycloak compares names as its database does, and MariaDB's usual collation ignores case: `MASTER` may be
 * the admin realm. So every comparison here ignores case, which refuses at worst a name nobody needs.
 */
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export const isAdminRealm = (realm: string): boolean => same(realm, ADMIN_REALM);

/** Why a realm is Keycloak's and never an object's; undefined when it is not. */
export function reservedRealm(realm: string): string | undefined {
  if (!isAdminRealm(realm)) return undefined;
  return `realm ${realm} is Keycloak's admin realm, where the operator's admin credentials log in; no KeycloakRealm may create, adopt or change it, whatever the operator's options`;
}

/** Why a client is Keycloak's and never an object's; undefined when it is not. */
export function reservedClient(realm: string, clientId: string): string | undefined {
  if (isAdminRealm(realm)) {
    return `client ${clientId} is in realm ${realm}, Keycloak's admin realm (with the bootstrap admin's client and the clients that administer every realm); no KeycloakClient may create, adopt or change a client there, whatever the operator's options`;
  }
  if (!KEYCLOAK_CLIENTS.some((builtIn) => same(builtIn, clientId))) return undefined;
  return `client ${clientId} is one Keycloak makes in every realm (${KEYCLOAK_CLIENTS.join(', ')}); no KeycloakClient may adopt or change it, whatever the operator's options`;
}
