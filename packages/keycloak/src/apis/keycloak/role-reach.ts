// What a guard against admin grants reads of Keycloak: the composites of the roles a spec grants, followed
// to the roles they are made of, and the roles of the groups a spec puts users in, with their parents'.
import type { RoleNames } from './representations.js';

/** Where reading starts: what a spec's grants name. */
export interface ReachRead {
  /** Roles granted or composed, realm and client ones. */
  readonly roles: RoleNames;
  /** Groups users are put in, by path (`/parent/child`); the groups above each are read too. */
  readonly groups: readonly string[];
}

/** A composite role read on the way: a realm role, or with `clientId` a role of that client. */
export interface ReachedComposite {
  readonly name: string;
  readonly clientId?: string;
  readonly composites: RoleNames;
}

/** A group read on the way, with the roles mapped to it directly. */
export interface ReachedGroup {
  readonly path: string;
  readonly roles: RoleNames;
}

/** What Keycloak holds of what a ReachRead names, and of everything it leads to (each role read once). */
export interface ObservedReach {
  /** The composite roles among them (a role that is no composite, or is missing, is not listed). */
  readonly composites: readonly ReachedComposite[];
  /** The groups among them that exist. */
  readonly groups: readonly ReachedGroup[];
}

/** A realm role, or a role of the client `clientId`. */
export interface RoleRef {
  readonly name: string;
  readonly clientId?: string | undefined;
}

/** `/a/b/c` and the groups above it, top first: Keycloak gives a group's members its parents' roles too. */
export function groupAndParents(path: string): string[] {
  const names = path.split('/').filter((name) => name !== '');
  return names.map((_name, at) => `/${names.slice(0, at + 1).join('/')}`);
}

export const rolesOf = (names: RoleNames): RoleRef[] => [
  ...names.realm.map((name) => ({ name })),
  ...Object.entries(names.clients).flatMap(([clientId, roles]) => roles.map((name) => ({ name, clientId }))),
];

/** Keys that cannot collide: a realm role's name may hold a slash. */
export const roleKey = (role: RoleRef): string => JSON.stringify([role.clientId ?? null, role.name]);

/**
 * The walk from what a ReachRead names to everything it leads to, for a reader to drive (the admin API's
 * reads, or a simulation of them): first the groups and the groups above them, then the roles, level by
 * level, each role looked up once; `stopsAt` roles (those that administer by themselves) are not followed.
 */
export class ReachWalk {
  readonly #stopsAt: (role: RoleRef) => boolean;
  readonly #groups: ReachedGroup[] = [];
  readonly #composites: ReachedComposite[] = [];
  readonly #seen = new Set<string>();
  #next: RoleRef[];
  /** The groups to look up first, by path. */
  readonly groups: readonly string[];

  constructor(read: ReachRead, stopsAt: (role: RoleRef) => boolean) {
    this.#stopsAt = stopsAt;
    this.#next = rolesOf(read.roles);
    this.groups = [...new Set(read.groups.flatMap(groupAndParents))];
  }

  /** What the groups hold (undefined: no such group). */
  foundGroups(found: readonly { readonly path: string; readonly roles: RoleNames | undefined }[]): void {
    for (const { path, roles } of found) {
      if (roles === undefined) continue;
      this.#groups.push({ path, roles });
      this.#next.push(...rolesOf(roles));
    }
  }

  /** The roles to look up now: those reached last and not yet looked up; empty when the walk is done. */
  level(): RoleRef[] {
    const level = this.#next.filter((role) => {
      const key = roleKey(role);
      if (this.#seen.has(key) || this.#stopsAt(role)) return false;
      this.#seen.add(key);
      return true;
    });
    this.#next = [];
    return level;
  }

  /** What the roles of a level are made of (undefined: no composite, or not there). */
  foundComposites(found: readonly { readonly role: RoleRef; readonly composites: RoleNames | undefined }[]): void {
    for (const { role, composites } of found) {
      if (composites === undefined) continue;
      this.#composites.push({ name: role.name, ...(role.clientId === undefined ? {} : { clientId: role.clientId }), composites });
      this.#next.push(...rolesOf(composites));
    }
  }

  get reached(): ObservedReach {
    return { composites: this.#composites, groups: this.#groups };
  }
}
