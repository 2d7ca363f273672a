// Role lists applied from a spec where Keycloak or people may grant roles too: only the roles the spec
// listed before (recorded in status) and lists no more are ever taken away.
import type { RoleNames } from './apis/keycloak/representations.js';

/** Roles as a spec states them, and as status records the ones applied from it. */
// A type, not an interface: status holds it, and status is plain JSON data that goes into plan templates.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type StatedRoles = {
  readonly realmRoles?: readonly string[];
  /** By clientId. */
  readonly clientRoles?: Readonly<Record<string, readonly string[]>>;
};

export interface TrackedRoleChanges {
  readonly grant: RoleNames;
  readonly revoke: RoleNames;
  /** What is managed now, for status: the parts the spec states. */
  readonly managed: StatedRoles;
}

/** Items of `items` not in `drop`, in order. */
export const without = (items: readonly string[], drop: readonly string[]): string[] => items.filter((item) => !drop.includes(item));

function nonEmpty(entries: readonly (readonly [string, readonly string[]])[]): Record<string, readonly string[]> {
  return Object.fromEntries(entries.filter(([, names]) => names.length > 0));
}

/**
 * Grants what `wanted` lists and `held` lacks; revokes what `before` listed, `wanted` lists no more and
 * `held` has. A part `wanted` leaves out (realmRoles, or clientRoles as a whole) is not touched, and no
 * longer managed.
 */
export function trackedRoleChanges(wanted: StatedRoles | undefined, held: RoleNames, before: StatedRoles | undefined): TrackedRoleChanges {
  if (wanted === undefined) return { grant: { realm: [], clients: {} }, revoke: { realm: [], clients: {} }, managed: {} };
  const heldOf = (clientId: string): readonly string[] => held.clients[clientId] ?? [];
  const wasListed = (previous: readonly string[] | undefined, now: readonly string[], have: readonly string[]): string[] =>
    without(previous ?? [], now).filter((name) => have.includes(name));
  return {
    grant: {
      realm: without(wanted.realmRoles ?? [], held.realm),
      clients: nonEmpty(Object.entries(wanted.clientRoles ?? {}).map(([clientId, names]) => [clientId, without(names, heldOf(clientId))])),
    },
    revoke: {
      realm: wanted.realmRoles === undefined ? [] : wasListed(before?.realmRoles, wanted.realmRoles, held.realm),
      clients: wanted.clientRoles === undefined
        ? {}
        : nonEmpty(Object.entries(before?.clientRoles ?? {}).map(([clientId, previous]) => [clientId, wasListed(previous, wanted.clientRoles?.[clientId] ?? [], heldOf(clientId))])),
    },
    managed: {
      ...(wanted.realmRoles === undefined ? {} : { realmRoles: wanted.realmRoles }),
      ...(wanted.clientRoles === undefined ? {} : { clientRoles: wanted.clientRoles }),
    },
  };
}
