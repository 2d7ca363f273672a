// Which realms and clients in Keycloak belong to which object. The attribute keys are the existing operator's,
// so realms and clients it created are recognised as the same object's after a migration.

/** Attribute keys on realms and clients (and the marker on what a spec creates inside them). */
export const MANAGED_BY = 'io.kubernetes.managed-by';
export const CR_NAMESPACE = 'io.kubernetes.cr-namespace';
export const CR_NAME = 'io.kubernetes.cr-name';
/** The value of MANAGED_BY on everything Keyward creates. */
export const MANAGED_BY_KEYWARD = 'keyward';

export interface OwnerObject {
  readonly namespace: string;
  readonly name: string;
}

/** The attributes that name `owner` as a realm's or client's owner. */
export function ownershipAttributes(owner: OwnerObject): Readonly<Record<string, string>> {
  return { [MANAGED_BY]: MANAGED_BY_KEYWARD, [CR_NAMESPACE]: owner.namespace, [CR_NAME]: owner.name };
}

/**
 * Whose a realm or client is: ours (it names this object), another object's (it names that one), or
 * nobody's (made by hand or by another tool; adopted only on an explicit opt-in).
 */
export type Ownership =
  | { readonly kind: 'ours' }
  | { readonly kind: 'other'; readonly owner: string }
  | { readonly kind: 'unowned' };

export function ownershipOf(attributes: Readonly<Record<string, string>> | undefined, owner: OwnerObject): Ownership {
  const namespace = attributes?.[CR_NAMESPACE];
  const name = attributes?.[CR_NAME];
  if (namespace === undefined || name === undefined) return { kind: 'unowned' };
  return namespace === owner.namespace && name === owner.name ? { kind: 'ours' } : { kind: 'other', owner: `${namespace}/${name}` };
}

/**
 * Whether a role, client scope or protocol mapper inside a realm or client was made from a spec: only those
 * are removed when the spec stops listing them. Roles keep attributes as lists, scopes as strings, mappers
 * in their config.
 */
export function carriesMarker(values: Readonly<Record<string, string | readonly string[]>> | undefined): boolean {
  const value = values?.[MANAGED_BY];
  return value === MANAGED_BY_KEYWARD || (Array.isArray(value) && value.includes(MANAGED_BY_KEYWARD));
}
