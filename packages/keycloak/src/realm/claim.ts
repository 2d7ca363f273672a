import type { RealmRepresentation } from '../apis/keycloak/representations.js';
import { ADOPT_FLAG } from '../adoption.js';
import { ownershipOf, type OwnerObject } from '../ownership.js';
import { RESERVED_REASON, reservedRealm } from '../reserved.js';

/** What this object may do with the realm of its name in Keycloak. */
export type RealmClaim =
  | { readonly kind: 'create' }
  /** Ours, or nobody's and adopted on the operator's opt-in (the update then writes our ownership attributes). */
  | { readonly kind: 'manage'; readonly adopted: boolean }
  /** Keycloak's, someone else's, or nobody's without the opt-in: nothing is written until that changes. */
  | { readonly kind: 'refused'; readonly reason: 'ReservedByKeycloak' | 'OwnedByAnother' | 'NotOwned'; readonly message: string };

/**
 * Keycloak's admin realm is refused first, by name, whether it exists, names this object (adopted before
 * adoption was scoped) or not; then ownership decides, and a realm nobody owns is adopted only when
 * `mayAdopt` (the operator's scope for this object's namespace and this realm).
 */
export function claimRealm(realmName: string, realm: RealmRepresentation | undefined, owner: OwnerObject, mayAdopt: boolean): RealmClaim {
  const reserved = reservedRealm(realmName);
  if (reserved !== undefined) return { kind: 'refused', reason: RESERVED_REASON, message: reserved };
  if (realm === undefined) return { kind: 'create' };
  const ownership = ownershipOf(realm.attributes, owner);
  switch (ownership.kind) {
    case 'ours':
      return { kind: 'manage', adopted: false };
    case 'other':
      return {
        kind: 'refused',
        reason: 'OwnedByAnother',
        message: `realm ${realm.realm} belongs to KeycloakRealm ${ownership.owner}; it is left as it is while that object owns it`,
      };
    case 'unowned':
      return mayAdopt
        ? { kind: 'manage', adopted: true }
        : {
            kind: 'refused',
            reason: 'NotOwned',
            message: `realm ${realm.realm} exists in Keycloak and no KeycloakRealm owns it; the operator adopts it only for a namespace (or namespace/${realm.realm}) named in ${ADOPT_FLAG}`,
          };
  }
}
