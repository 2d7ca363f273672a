// Keycloak requests by the KeycloakRealm field group that sends them, from their operation names (the io
// layer's reads, and create_/update_/delete_<resource type> for writes), split into reads and writes.
import type { Counts } from '../support/counts.js';
import { kindOf } from './requests.js';

/**
 * The first group whose pattern matches an operation. Role grants are one group: composites, group role
 * mappings, default roles and scope mappings all grant and revoke on role-mapping paths (grant_roles,
 * revoke_roles, get_role_mappings), and the observer sees the operation only.
 */
const FIELD_GROUPS: readonly (readonly [string, RegExp])[] = [
  ['roleGrants', /^(grant_roles|revoke_roles|get_role_mappings)$/],
  // Before identity providers: an organization's links are organizationIdentityProvider writes.
  ['organizations', /organization/],
  ['realmRoles', /^(list_roles|list_composites|get_role|\w+_realmRole)$/],
  ['identityProviders', /identity_provider|identityProvider/],
  ['authenticationFlows', /authentication_flow|authenticationFlow|flow_execution|flowExecution|authenticator_?[cC]onfig/],
  ['requiredActions', /required_?[aA]ction/],
  ['groups', /group|Group/],
  ['clientScopes', /client_scope|clientScope|realmScopeLink/],
  ['clientPolicies', /clientProfiles|clientPolicies/],
  // Scope mappings of a client, and the clientIds of client roles, look clients up.
  ['clients', /^(find_client|get_client)$/],
  ['realm', /^\w+_realm$/],
];

export function fieldGroupOf(operation: string): string {
  return FIELD_GROUPS.find(([, pattern]) => pattern.test(operation))?.[0] ?? `other (${operation})`;
}

export interface GroupRequests {
  readonly reads: number;
  readonly writes: number;
}

/** Admin reads and writes by field group (token requests and probes left out), from "<operation> <status>" counts. */
export function byFieldGroup(byRequest: Counts): Record<string, GroupRequests> {
  const groups: Record<string, { reads: number; writes: number }> = {};
  for (const [key, count] of Object.entries(byRequest)) {
    const operation = key.split(' ')[0] ?? '';
    const kind = kindOf(operation);
    if (kind !== 'read' && kind !== 'write') continue;
    const group = (groups[fieldGroupOf(operation)] ??= { reads: 0, writes: 0 });
    if (kind === 'read') group.reads += count;
    else group.writes += count;
  }
  return Object.fromEntries(Object.entries(groups).sort(([a], [b]) => a.localeCompare(b)));
}
