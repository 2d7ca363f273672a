import type { RealmRepresentation } from '../apis/keycloak/representations.js';
import { ownershipOf, type OwnerObject } from '../ownership.js';

/** What this object may do with the realm of its name in Keycloak. */
export type RealmClaim =
  | { readonly kind: 'create' }
  /** Ours, or nobody's and adopted on the operator's opt-in (the update then writes our ownership attributes). */
  | { readonly kind: 'manage'; readonly adopted: boolean }
  /** Someone else's, or nobody's without the opt-in: nothing is written until that changes. */
  | { readonly kind: 'refused'; readonly reason: 'OwnedByAnother' | 'NotOwned'; readonly message: string };

export function claimRealm(realm: RealmRepresentation | undefined, owner: OwnerObject, adoptUnowned: boolean): RealmClaim {
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
      return adoptUnowned
        ? { kind: 'manage', adopted: true }
        : {
            kind: 'refused',
            reason: 'NotOwned',
            message: `realm ${realm.realm} exists in Keycloak and no KeycloakRealm owns it; the operator adopts such realms only when told to (adoptUnowned)`,
          };
  }
}
