import type { ObservedScopeMapping, ScopeMappingTarget } from '../../apis/keycloak/scope-mappings.js';
import { sameTarget } from '../../apis/keycloak/scope-mappings.js';
import { trackedRoleChanges, type StatedRoles } from '../../tracked-roles.js';
import type { RealmSteps } from '../context.js';
import { NO_ROLES, hasRoles } from '../role-names.js';
import { targetKey, type ScopeMappingSpec } from './spec.js';

const targetOf = (mapping: ScopeMappingSpec): ScopeMappingTarget => ('clientScope' in mapping ? { clientScope: mapping.clientScope } : { client: mapping.client });

/** The targets the spec states and those status says we mapped roles to: each one's scope mappings are read. */
export function scopeMappingTargets(specs: readonly ScopeMappingSpec[] | undefined, before: readonly ScopeMappingSpec[] | undefined): ScopeMappingTarget[] | undefined {
  const byKey = new Map([...(before ?? []), ...(specs ?? [])].map((mapping) => [targetKey(mapping), targetOf(mapping)]));
  return byKey.size === 0 ? undefined : [...byKey.values()];
}

/** What an entry the spec dropped wants: none of the parts it managed. */
const nothingOf = (before: StatedRoles): StatedRoles => ({
  ...(before.realmRoles === undefined ? {} : { realmRoles: [] }),
  ...(before.clientRoles === undefined ? {} : { clientRoles: {} }),
});

/**
 * Scope mappings of client scopes and clients: the roles each entry lists are mapped, those it listed
 * before (`before`, from status) and lists no more are unmapped, and so are all it listed when the entry
 * is gone; roles mapped by hand stay. A target that does not exist yet (made later in the plan, or by
 * another object) gets the grants; they fail and are retried until it exists. Returns what is managed now.
 */
export function planScopeMappings(steps: RealmSteps, specs: readonly ScopeMappingSpec[] | undefined, observed: readonly ObservedScopeMapping[], before: readonly ScopeMappingSpec[] | undefined): ScopeMappingSpec[] | undefined {
  const previous = new Map((before ?? []).map((mapping) => [targetKey(mapping), mapping]));
  const entries = [
    ...(specs ?? []).map((spec) => ({ target: targetOf(spec), wanted: spec, before: previous.get(targetKey(spec)) })),
    ...(before ?? []).filter((old) => !(specs ?? []).some((spec) => targetKey(spec) === targetKey(old))).map((old) => ({ target: targetOf(old), wanted: nothingOf(old), before: old })),
  ];
  for (const { target, wanted, before: listed } of entries) {
    const held = observed.find((mapping) => sameTarget(mapping.target, target))?.roles;
    const { grant, revoke } = trackedRoleChanges(wanted, held ?? NO_ROLES, listed);
    const holder = { type: 'scopeMappings', realm: steps.realm, target } as const;
    if (hasRoles(revoke)) steps.plan.add({ kind: 'keycloak.revokeRoles', ...steps.call, holder, roles: revoke }, 'the spec no longer maps them to this scope');
    if (hasRoles(grant)) steps.plan.add({ kind: 'keycloak.grantRoles', ...steps.call, holder, roles: grant }, 'the spec maps them to this scope');
  }
  return specs === undefined || specs.length === 0 ? undefined : [...specs];
}
