import type { ClientRepresentation } from '../apis/keycloak/representations.js';
import { ADOPT_FLAG } from '../adoption.js';
import { ownershipOf, type OwnerObject } from '../ownership.js';
import { RESERVED_REASON, reservedClient } from '../reserved.js';

/** What this object may do with the client of its clientId in its realm. */
export type ClientClaim =
  | { readonly kind: 'create' }
  /** Ours, or nobody's and adopted on the operator's opt-in (the update writes our ownership attributes). */
  | { readonly kind: 'manage' }
  /** Keycloak's, another object's, or nobody's without the opt-in: nothing is written, its secret never read. */
  | { readonly kind: 'refused'; readonly reason: 'ReservedByKeycloak' | 'Conflict' | 'NotOwned'; readonly message: string };

/**
 * A client of Keycloak's own is refused first, by name, whether it exists or names this object (adopted
 * before adoption was scoped); then ownership decides, and a client nobody owns is adopted only when
 * `mayAdopt` (the operator's scope for this object's namespace and the client's realm).
 */
export function claimClient(realm: string, clientId: string, found: ClientRepresentation | undefined, owner: OwnerObject, mayAdopt: boolean): ClientClaim {
  const reserved = reservedClient(realm, clientId);
  if (reserved !== undefined) return { kind: 'refused', reason: RESERVED_REASON, message: reserved };
  if (found === undefined) return { kind: 'create' };
  const what = `client ${clientId} in realm ${realm}`;
  const ownership = ownershipOf(found.attributes, owner);
  if (ownership.kind === 'other') return { kind: 'refused', reason: 'Conflict', message: `${what} belongs to KeycloakClient ${ownership.owner}; it is not changed, and its secret is not read` };
  if (ownership.kind === 'unowned' && !mayAdopt) {
    return { kind: 'refused', reason: 'NotOwned', message: `${what} exists and no object owns it; the operator adopts it only for a namespace (or namespace/${realm}) named in ${ADOPT_FLAG}` };
  }
  return { kind: 'manage' };
}
