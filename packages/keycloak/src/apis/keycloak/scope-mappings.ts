// Scope mappings: the roles a client scope or a client may put in tokens (its "scope" in Keycloak's terms).
import type { RoleNames } from './representations.js';

/** What holds scope mappings: a client scope by name, or a client by clientId. */
export type ScopeMappingTarget = { readonly clientScope: string } | { readonly client: string };

/** The roles mapped to a target's scope; undefined when the target does not exist. */
export interface ObservedScopeMapping {
  readonly target: ScopeMappingTarget;
  readonly roles: RoleNames | undefined;
}

export const describeTarget = (target: ScopeMappingTarget): string => ('clientScope' in target ? `client scope ${target.clientScope}` : `client ${target.client}`);

export const sameTarget = (a: ScopeMappingTarget, b: ScopeMappingTarget): boolean =>
  'clientScope' in a ? 'clientScope' in b && a.clientScope === b.clientScope : 'client' in b && a.client === b.client;
