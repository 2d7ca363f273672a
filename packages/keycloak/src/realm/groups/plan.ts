import { deepEqual, type Value } from '@keyward/kernel/plan';
import type { RoleHolder } from '../../apis/keycloak/actions.js';
import { groupPath, type GroupReads, type ObservedGroup } from '../../apis/keycloak/groups.js';
import type { RoleNames } from '../../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../../ownership.js';
import { addSteps, byName, planKeycloakList, realmWrites } from '../../list-writes.js';
import type { RealmSteps } from '../context.js';
import type { GroupSpec } from './spec.js';
import { NO_ROLES, hasRoles, rolesNotIn } from '../role-names.js';
import type { RealmPrunableField } from '../spec.js';
import { prunesWhenEmpty, removesUnlisted } from '../../prune.js';

/** The part of a realm spec that says which groups it manages. */
export interface GroupsSpec {
  readonly groups?: readonly GroupSpec[];
  readonly pruneUnlisted?: readonly RealmPrunableField[];
}

const manages = removesUnlisted;
const prunesGroups = (spec: GroupsSpec): boolean => prunesWhenEmpty(spec.pruneUnlisted, 'groups');

function parentsToRead(specs: readonly GroupSpec[], parentPath: string | undefined, prune: boolean): string[] {
  return specs.flatMap((spec) => {
    const path = groupPath(parentPath, spec.name);
    const subGroups = spec.subGroups ?? [];
    return manages(subGroups, prune) ? [path, ...parentsToRead(subGroups, path, prune)] : [];
  });
}

/**
 * What a realm query reads of the groups: nothing when the spec manages none (an empty or absent list
 * manages nothing), else the top level and the subgroups of each listed group whose subgroups it manages.
 */
export function groupReads(spec: GroupsSpec): GroupReads | undefined {
  const prune = prunesGroups(spec);
  const specs = spec.groups ?? [];
  return manages(specs, prune) ? { childrenOf: parentsToRead(specs, undefined, prune) } : undefined;
}

/** The groups field of a realm query, absent when no groups are read. */
export function groupsQuery(spec: GroupsSpec): { readonly groups?: GroupReads } {
  const groups = groupReads(spec);
  return groups === undefined ? {} : { groups };
}

/**
 * A group's attributes as the spec wants them, with our marker: exactly the spec's when it states them
 * (Keycloak replaces them whole), else the ones the group has.
 */
export function desiredGroupAttributes(spec: GroupSpec, current: ObservedGroup['attributes'] | undefined): Readonly<Record<string, readonly string[]>> {
  const stated = spec.attributes === undefined ? current ?? {} : Object.fromEntries(Object.entries(spec.attributes).map(([key, value]) => [key, [value]]));
  return { ...stated, [MANAGED_BY]: [MANAGED_BY_KEYWARD] };
}

/** Grants and revokes a group's roles: the realm roles and the client roles the spec states, exactly those. */
function planGroupRoles(steps: RealmSteps, spec: GroupSpec, holder: RoleHolder, held: RoleNames): void {
  const wanted: RoleNames = { realm: spec.realmRoles ?? [], clients: spec.clientRoles ?? {} };
  const managed: RoleNames = { realm: spec.realmRoles === undefined ? [] : held.realm, clients: spec.clientRoles === undefined ? {} : held.clients };
  const grant = rolesNotIn(wanted, held);
  const revoke = rolesNotIn(managed, wanted);
  if (hasRoles(revoke)) steps.plan.add({ kind: 'keycloak.revokeRoles', ...steps.call, holder, roles: revoke }, `the spec does not map them to group ${spec.name}`);
  if (hasRoles(grant)) steps.plan.add({ kind: 'keycloak.grantRoles', ...steps.call, holder, roles: grant }, `the spec maps them to group ${spec.name}`);
}

interface Parent {
  readonly path: string;
  readonly id: Value<string>;
}

/**
 * One list of groups (the top level, or a group's subgroups): listed groups created or brought to the spec,
 * with their roles and subgroups; unlisted ones that carry our marker deleted while the list is managed.
 * `observed` is what Keycloak has in that list.
 */
function planGroupList(steps: RealmSteps, parent: Parent | undefined, specs: readonly GroupSpec[], observed: readonly ObservedGroup[], prune: boolean): void {
  const resource = (path: string, id?: Value<string>) => ({ type: 'group', realm: steps.realm, path, ...(id === undefined ? {} : { id }) }) as const;
  const body = (spec: GroupSpec, current: ObservedGroup | undefined) => ({ name: spec.name, attributes: desiredGroupAttributes(spec, current?.attributes) });
  const pathOf = (spec: GroupSpec): string => groupPath(parent?.path, spec.name);
  const groups = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    observed,
    ...byName,
    changes: (spec, current) => (deepEqual(body(spec, current).attributes, current.attributes) ? [] : ['attributes']),
    ours: (group) => carriesMarker(group.attributes),
    pruneWhenEmpty: prune,
    create: (spec) => ({ resource: { ...resource(pathOf(spec)), ...(parent === undefined ? {} : { parentId: parent.id }) }, body: body(spec, undefined) }),
    update: (spec, current) => ({ resource: resource(pathOf(spec), current.id), body: body(spec, current) }),
    delete: (group) => resource(group.path, group.id),
  });
  addSteps(steps.plan, groups.deletes.map((item) => item.step));
  for (const { desired: spec, observed: current, step } of groups.listed) {
    const path = pathOf(spec);
    if (step?.action.kind === 'keycloak.create') {
      const id = steps.plan.add(step.action, step.reason).output('id');
      planGroupRoles(steps, spec, { type: 'group', realm: steps.realm, path, id }, NO_ROLES);
      planGroupList(steps, { path, id }, spec.subGroups ?? [], [], prune);
      continue;
    }
    addSteps(steps.plan, [step]);
    if (current === undefined) continue;
    planGroupRoles(steps, spec, { type: 'group', realm: steps.realm, path, id: current.id }, current.roles);
    // Subgroups are read only where the spec manages them.
    if (current.subGroups !== undefined) planGroupList(steps, { path, id: current.id }, spec.subGroups ?? [], current.subGroups, prune);
  }
}

/**
 * The realm's groups. `observed` is what Keycloak has at the top level: empty for a realm created in the
 * same plan, undefined when the groups were not read (the spec manages none).
 */
export function planGroups(steps: RealmSteps, spec: GroupsSpec, observed: readonly ObservedGroup[] | undefined): void {
  if (observed === undefined) return;
  planGroupList(steps, undefined, spec.groups ?? [], observed, prunesGroups(spec));
}
