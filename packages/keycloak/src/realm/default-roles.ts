import type { ObservedRealm } from '../apis/keycloak/queries.js';
import type { RoleNames } from '../apis/keycloak/representations.js';
import { trackedRoleChanges, type StatedRoles } from '../tracked-roles.js';
import { DEFAULT_ROLES_PREFIX } from './built-ins.js';
import { isJsonObject } from './compare.js';
import type { RealmSteps } from './context.js';
import { hasRoles, rolesNotIn } from './role-names.js';

/** What Keycloak makes the default role of every new realm: never taken away, whatever the spec listed. */
export const KEYCLOAK_DEFAULT_ROLES: RoleNames = { realm: ['offline_access', 'uma_authorization'], clients: { account: ['view-profile', 'manage-account'] } };

/** The realm's default role: the realm names it (`default-roles-<realm in lower case>` when made). */
export function defaultRoleName(observed: ObservedRealm): string {
  const named = observed.realm['defaultRole'];
  const name = isJsonObject(named) ? named['name'] : undefined;
  return typeof name === 'string' ? name : `${DEFAULT_ROLES_PREFIX}${observed.realm.realm.toLowerCase()}`;
}

/**
 * The roles every new user of the realm gets (the composites of its default role): the spec's are added,
 * those it listed before (`before`, from status) and lists no more are taken away, Keycloak's own never.
 * Returns what is managed now.
 */
export function planDefaultRoles(steps: RealmSteps, wanted: StatedRoles | undefined, observed: ObservedRealm, before: StatedRoles | undefined): StatedRoles {
  const name = defaultRoleName(observed);
  const held = observed.roles.find((entry) => entry.role.name === name)?.composites ?? { realm: [], clients: {} };
  const { grant, revoke, managed } = trackedRoleChanges(wanted, held, before);
  const holder = { type: 'role', realm: steps.realm, name } as const;
  const taken = rolesNotIn(revoke, KEYCLOAK_DEFAULT_ROLES);
  if (hasRoles(taken)) steps.plan.add({ kind: 'keycloak.revokeRoles', ...steps.call, holder, roles: taken }, 'the spec no longer lists them as default roles');
  if (hasRoles(grant)) steps.plan.add({ kind: 'keycloak.grantRoles', ...steps.call, holder, roles: grant }, 'the spec lists them as default roles');
  return managed;
}
