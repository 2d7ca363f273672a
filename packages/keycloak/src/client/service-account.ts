import type { RoleNames } from '../apis/keycloak/representations.js';
import type { ManagedLists, ServiceAccountRolesSpec } from './spec.js';
import { missing, type ClientTarget } from './target.js';

type Managed = Pick<ManagedLists, 'serviceAccountRealmRoles' | 'serviceAccountClientRoles'>;

const isEmpty = (roles: RoleNames): boolean => roles.realm.length === 0 && Object.keys(roles.clients).length === 0;

function nonEmpty(entries: readonly (readonly [string, readonly string[]])[]): Record<string, readonly string[]> {
  return Object.fromEntries(entries.filter(([, names]) => names.length > 0));
}

/**
 * Grants the service account the roles the spec lists, and revokes those the spec listed before (`managed`)
 * and lists no more; roles granted by hand (or by Keycloak, such as default-roles-<realm>) were never
 * listed, so they stay. `held` is what the account holds now (undefined: unknown, nothing to revoke). A part
 * the spec leaves out (realmRoles, or clientRoles as a whole) is not touched. Returns what is now managed.
 */
export function reconcileServiceAccountRoles(target: ClientTarget, wanted: ServiceAccountRolesSpec | undefined, held: RoleNames | undefined, managed: ManagedLists | undefined): Managed {
  const { plan, call, client } = target;
  if (wanted === undefined) return {};
  const holder = { type: 'serviceAccount', client } as const;
  const heldRealm = held?.realm ?? [];
  const wantedClients = Object.entries(wanted.clientRoles ?? {});
  const grant: RoleNames = {
    realm: missing(wanted.realmRoles ?? [], heldRealm),
    clients: nonEmpty(wantedClients.map(([clientId, names]) => [clientId, missing(names, held?.clients[clientId] ?? [])])),
  };
  const wasListed = (before: readonly string[] | undefined, now: readonly string[], have: readonly string[]): string[] =>
    missing(before ?? [], now).filter((name) => have.includes(name));
  const revoke: RoleNames = {
    realm: wanted.realmRoles === undefined ? [] : wasListed(managed?.serviceAccountRealmRoles, wanted.realmRoles, heldRealm),
    clients: wanted.clientRoles === undefined
      ? {}
      : nonEmpty(Object.entries(managed?.serviceAccountClientRoles ?? {}).map(([clientId, before]) => [clientId, wasListed(before, wanted.clientRoles?.[clientId] ?? [], held?.clients[clientId] ?? [])])),
  };
  if (!isEmpty(revoke)) plan.add({ kind: 'keycloak.revokeRoles', ...call, holder, roles: revoke }, 'the spec no longer lists these roles for the service account');
  if (!isEmpty(grant)) plan.add({ kind: 'keycloak.grantRoles', ...call, holder, roles: grant }, 'the spec lists these roles for the service account');
  return {
    ...(wanted.realmRoles === undefined ? {} : { serviceAccountRealmRoles: wanted.realmRoles }),
    ...(wanted.clientRoles === undefined ? {} : { serviceAccountClientRoles: wanted.clientRoles }),
  };
}
