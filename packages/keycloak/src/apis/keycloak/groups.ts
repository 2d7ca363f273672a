// Groups as the admin API shows them and as plans and queries speak of them.
import type { RoleNames } from './representations.js';

/**
 * A group read from Keycloak (briefRepresentation=false): its attributes (lists of strings, as Keycloak keeps
 * them) and the roles mapped to it directly, by name.
 */
export interface ObservedGroup {
  readonly id: string;
  readonly name: string;
  /** `/parent/child`. */
  readonly path: string;
  readonly attributes: Readonly<Record<string, readonly string[]>>;
  readonly roles: RoleNames;
  /** Its subgroups, when they were read (only those of groups whose subgroups a spec manages are). */
  readonly subGroups?: readonly ObservedGroup[];
}

/**
 * Which groups a realm query reads: always the top-level ones (one request), and the children of each group
 * whose path is in `childrenOf` (one request each; Keycloak 26 lists groups without their subgroups).
 */
export interface GroupReads {
  readonly childrenOf: readonly string[];
}

/** A group's path from its parent's and its name. */
export const groupPath = (parentPath: string | undefined, name: string): string => `${parentPath ?? ''}/${name}`;
