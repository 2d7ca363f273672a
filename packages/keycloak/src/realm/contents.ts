import type { ObservedRealm } from '../apis/keycloak/queries.js';
import type { RealmSteps } from './context.js';
import { planDefaultGroups } from './groups/default-groups.js';
import { planDefaultRoles } from './default-roles.js';
import { planGroups } from './groups/plan.js';
import { toManaged, type RealmManaged } from './managed.js';
import { planScopeMappings } from './scope-mappings/plan.js';
import { planScopeLinks } from './links.js';
import { planRealmRoles } from './roles.js';
import { addSteps } from '../list-writes.js';
import { planClientScopes } from './scopes.js';
import type { KeycloakRealmSpec } from './spec.js';
import { prunesWhenEmpty } from '../prune.js';

/**
 * What the realm contains: roles, client scopes with their mappers, the realm's default and optional scope
 * lists. For a realm created in the same plan (`observed` undefined) the lists wait for the next reconcile:
 * a new realm links Keycloak's built-in scopes by itself, and which it linked is known only once it is read.
 * Groups are made with the realm; default groups, default roles and scope mappings wait like the lists.
 * Returns what status records as applied from the lists Keycloak or people add to as well (`managed` as it
 * was, while they wait).
 */
export function planContents(steps: RealmSteps, spec: KeycloakRealmSpec, observed: ObservedRealm | undefined, managed?: RealmManaged): RealmManaged | undefined {
  const scopeSpecs = spec.clientScopes ?? [];
  const pruneScopes = prunesWhenEmpty(spec.pruneUnlisted, 'clientScopes');
  planRealmRoles(steps, spec.realmRoles ?? [], observed?.roles ?? [], prunesWhenEmpty(spec.pruneUnlisted, 'realmRoles'));
  const wanted = { default: spec.defaultClientScopes ?? [], optional: spec.optionalClientScopes ?? [] };
  const doomed = planClientScopes(steps, scopeSpecs, observed?.clientScopes ?? [], { pruneWhenEmpty: pruneScopes, linked: [...wanted.default, ...wanted.optional] });
  planGroups(steps, spec, observed === undefined ? [] : observed.groups);
  if (observed === undefined) return managed;
  const linked = { default: observed.defaultClientScopes, optional: observed.optionalClientScopes };
  planScopeLinks(steps, wanted, linked, observed.clientScopes, new Set(doomed.map((item) => item.observed.name)));
  // Before a scope the spec no longer lists is deleted: its mappings go with it.
  const scopeMappings = planScopeMappings(steps, spec.scopeMappings, observed.scopeMappings ?? [], managed?.scopeMappings);
  addSteps(steps.plan, doomed.map((item) => item.step));
  return toManaged({
    scopeMappings,
    defaultGroups: planDefaultGroups(steps, spec.defaultGroups, observed.defaultGroups ?? [], managed?.defaultGroups),
    defaultRoles: planDefaultRoles(steps, spec.defaultRoles, observed, managed?.defaultRoles),
  });
}
