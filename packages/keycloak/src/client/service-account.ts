import type { RoleNames } from '../apis/keycloak/representations.js';
import { trackedRoleChanges } from '../tracked-roles.js';
import type { ManagedLists, ServiceAccountRolesSpec } from './spec.js';
import type { ClientTarget } from './target.js';

type Managed = Pick<ManagedLists, 'serviceAccountRealmRoles' | 'serviceAccountClientRoles'>;

const isEmpty = (roles: RoleNames): boolean => roles.realm.length === 0 && Object.keys(roles.clients).length === 0;

/**
 * Grants the service account the roles the spec lists, and revokes those the spec listed before (`managed`)
 * and lists no more; roles granted by hand (or by Keycloak, such as default-roles-<realm>) were never
 * listed, so they stay. `held` is what the account holds now (undefined: unknown, nothing to revoke). A part
 * the spec leaves out (realmRoles, or clientRoles as a whole) is not touched. Returns what is now managed.
 */
export function reconcileServiceAccountRoles(target: ClientTarget, wanted: ServiceAccountRolesSpec | undefined, held: RoleNames | undefined, managed: ManagedLists | undefined): Managed {
  const { plan, call, client } = target;
  const before = {
    ...(managed?.serviceAccountRealmRoles === undefined ? {} : { realmRoles: managed.serviceAccountRealmRoles }),
    ...(managed?.serviceAccountClientRoles === undefined ? {} : { clientRoles: managed.serviceAccountClientRoles }),
  };
  const changes = trackedRoleChanges(wanted, held ?? { realm: [], clients: {} }, before);
  const holder = { type: 'serviceAccount', client } as const;
  if (!isEmpty(changes.revoke)) plan.add({ kind: 'keycloak.revokeRoles', ...call, holder, roles: changes.revoke }, 'the spec no longer lists these roles for the service account');
  if (!isEmpty(changes.grant)) plan.add({ kind: 'keycloak.grantRoles', ...call, holder, roles: changes.grant }, 'the spec lists these roles for the service account');
  return {
    ...(changes.managed.realmRoles === undefined ? {} : { serviceAccountRealmRoles: changes.managed.realmRoles }),
    ...(changes.managed.clientRoles === undefined ? {} : { serviceAccountClientRoles: changes.managed.clientRoles }),
  };
}
