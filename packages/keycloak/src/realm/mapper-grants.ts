// Identity-provider and user-federation mappers grant roles too: a hardcoded or claim-to-role mapper gives
// every user it maps the role named in its `role` config, and an LDAP role mapper gives the roles of the
// client named in `client.id`. Their config is free-form, so these keys are read as Keycloak reads them.
import { adminRoleReached, isAdminClientRole, type CompositesOf } from '../admin-roles.js';

/** A mapper as a spec states it: only its name and config matter here. */
interface MapperSpec {
  readonly name: string;
  readonly config?: Readonly<Record<string, string>>;
}

/**
 * The admin role `role` names, as the message says it: `clientId.role` (Keycloak tries each dot as the split,
 * so any prefix before a dot that is an admin client counts) or a realm role, followed through its composites.
 */
function adminRoleNamed(realm: string, role: string, compositesOf: CompositesOf): string | undefined {
  const dots = [...role.matchAll(/\./g)].map((match) => match.index);
  const client = dots.map((at) => role.slice(0, at)).find((clientId) => isAdminClientRole(realm, clientId));
  if (client !== undefined) return `${client}/${role.slice(client.length + 1)}`;
  const reached = adminRoleReached(realm, role, compositesOf);
  return reached === undefined || reached === role ? reached : `${role} (reaches ${reached})`;
}

/** The admin roles one mapper grants, by what its config names. */
function mapperAdminRoles(realm: string, config: Readonly<Record<string, string>>, compositesOf: CompositesOf): string[] {
  const role = config['role'];
  const named = role === undefined ? undefined : adminRoleNamed(realm, role, compositesOf);
  const client = config['client.id'];
  return [
    ...(named === undefined ? [] : [named]),
    ...(client !== undefined && isAdminClientRole(realm, client) ? [`roles of ${client}`] : []),
  ];
}

/** `where: roles` entries for the mappers of some providers that grant admin roles. */
export function mapperAdminGrants(realm: string, providers: readonly { readonly kind: string; readonly name: string; readonly mappers: readonly MapperSpec[] | undefined }[], compositesOf: CompositesOf): string[] {
  return providers.flatMap((provider) => (provider.mappers ?? []).flatMap((mapper) => {
    const roles = mapperAdminRoles(realm, mapper.config ?? {}, compositesOf);
    return roles.length === 0 ? [] : [`${provider.kind} ${provider.name} mapper ${mapper.name}: ${roles.join(', ')}`];
  }));
}
