import { deepEqual } from '@keyward/kernel/plan';
import type { KeycloakBody } from '../apis/keycloak/actions.js';
import { PERMISSION_KINDS, type ObservedPolicy, type PolicyParts } from '../apis/keycloak/authorization.js';
import { carriesDescriptionMarker, markedDescription } from '../description-marker.js';
import { TIME_DATE_FIELDS, TIME_NUMBER_FIELDS, type AuthorizationPermissionSpec, type AuthorizationPolicySpec } from './authorization-policy-spec.js';
import type { ClientTarget } from './target.js';
import { addSteps, byName, clientWrites, planKeycloakList } from '../list-writes.js';

// The policies and permissions of a client's authorization services, managed by name. Keycloak keeps no
// attributes on them, so ours end their description in our marker (as flows do). A write names everything by
// name and replaces the policy whole; the comparison uses the parts the query read back to names.

type Listed = AuthorizationPolicySpec | AuthorizationPermissionSpec;

/** Which lists remove ours even when empty or absent (spec.pruneUnlisted). */
export interface PolicyPrune {
  readonly policies?: boolean;
  readonly permissions?: boolean;
}

const sorted = (names: readonly string[] | undefined): string[] => [...(names ?? [])].sort();
const groupPath = (path: string): string => (path.startsWith('/') ? path : `/${path}`);

/** A time policy's bounds as Keycloak keeps them (text); one the spec does not state is absent. */
function timeBounds(spec: AuthorizationPolicySpec): Record<string, string | undefined> {
  return Object.fromEntries([...TIME_DATE_FIELDS, ...TIME_NUMBER_FIELDS].map((field) => [field, spec[field] === undefined ? undefined : String(spec[field])]));
}

/** A regex policy's stated fields. */
function regexFields(spec: AuthorizationPolicySpec): PolicyParts {
  return {
    ...(spec.targetClaim === undefined ? {} : { targetClaim: spec.targetClaim }),
    ...(spec.pattern === undefined ? {} : { pattern: spec.pattern }),
    ...(spec.targetContextAttributes === undefined ? {} : { targetContextAttributes: spec.targetContextAttributes }),
  };
}

/** The parts a spec states, as the query reads them back: what the comparison looks at. */
function statedParts(spec: Listed): PolicyParts {
  switch (spec.type) {
    case 'role':
      return {
        roles: [...(spec.roles ?? [])].map((role) => ({ name: role.name, required: role.required ?? false })).sort((a, b) => a.name.localeCompare(b.name)),
        ...(spec.fetchRoles === undefined ? {} : { fetchRoles: spec.fetchRoles }),
      };
    case 'user':
      return { users: sorted(spec.users) };
    case 'group':
      return {
        groups: [...(spec.groups ?? [])].map((group) => ({ path: groupPath(group.path), extendChildren: group.extendChildren ?? false })).sort((a, b) => a.path.localeCompare(b.path)),
        ...(spec.groupsClaim === undefined ? {} : { groupsClaim: spec.groupsClaim }),
      };
    case 'client':
      return { clients: sorted(spec.clients) };
    case 'time':
      return timeBounds(spec);
    case 'regex':
      return regexFields(spec);
    case 'aggregate':
      return { policies: sorted(spec.policies) };
    case 'js':
      return { code: spec.code ?? '' };
    case 'resource':
    case 'scope':
      return { policies: sorted(spec.policies), resources: sorted(spec.resources), scopes: sorted(spec.scopes), resourceType: spec.resourceType ?? '' };
  }
}

/** The observed parts in the same order as statedParts. */
function normalized(parts: PolicyParts): PolicyParts {
  return {
    ...parts,
    ...(parts.roles === undefined ? {} : { roles: [...parts.roles].sort((a, b) => a.name.localeCompare(b.name)) }),
    ...(parts.groups === undefined ? {} : { groups: [...parts.groups].sort((a, b) => a.path.localeCompare(b.path)) }),
    ...Object.fromEntries((['users', 'clients', 'policies', 'resources', 'scopes'] as const).filter((key) => parts[key] !== undefined).map((key) => [key, sorted(parts[key])])),
  };
}

/** What a part Keycloak's read did not give means: no type of resources. */
const WHEN_ABSENT: Readonly<Record<string, unknown>> = { resourceType: '' };

/** Permissions and aggregates decide among their policies. */
const decides = (spec: Listed): boolean => PERMISSION_KINDS.has(spec.type) || spec.type === 'aggregate';

/** The fields that differ between the spec and what Keycloak has. */
function changedFields(spec: Listed, existing: ObservedPolicy): string[] {
  const changed: string[] = [];
  if ((existing.description ?? '') !== markedDescription(spec.description ?? '')) changed.push('description');
  if ((existing.logic ?? 'POSITIVE') !== (spec.logic ?? 'POSITIVE')) changed.push('logic');
  if (decides(spec) && (existing.decisionStrategy ?? 'UNANIMOUS') !== (spec.decisionStrategy ?? 'UNANIMOUS')) changed.push('decisionStrategy');
  const observed = normalized(existing.parts ?? {});
  for (const [key, value] of Object.entries(statedParts(spec))) if (!deepEqual(observed[key] ?? WHEN_ABSENT[key], value)) changed.push(key);
  return changed;
}

/**
 * What a new policy gets where its spec is silent and the Kopf operator's CRD defaulted otherwise than Keycloak
 * does (a role policy reads the user's roles from Keycloak, a group policy reads the token's `groups` claim
 * first), so that a policy migrated from it decides the same.
 */
export const POLICY_CREATION_DEFAULTS: Readonly<Pick<PolicyParts, 'fetchRoles' | 'groupsClaim'>> = { fetchRoles: true, groupsClaim: 'groups' };

/**
 * A part with a creation default: the spec's; else, on an update (which replaces the policy whole), what
 * Keycloak holds, so that a policy that exists keeps what it has; else, on a create, the default.
 */
function withDefault<K extends keyof typeof POLICY_CREATION_DEFAULTS>(key: K, stated: PolicyParts[K], existing: ObservedPolicy | undefined): Partial<PolicyParts> {
  const kept = existing === undefined ? POLICY_CREATION_DEFAULTS[key] : existing.parts?.[key];
  const value = stated ?? kept;
  // Keycloak reads back a group policy without a claim as an empty one.
  return value === undefined || value === '' ? {} : { [key]: value };
}

/** The body of a create (no `existing`) or whole update, everything by name as Keycloak takes it. */
function bodyOf(spec: Listed, existing?: ObservedPolicy): KeycloakBody {
  const common = { name: spec.name, type: spec.type, description: markedDescription(spec.description ?? ''), logic: spec.logic ?? 'POSITIVE' };
  switch (spec.type) {
    case 'role':
      // Keycloak takes a role's name (a client's role as clientId/role) where it answers with the id.
      return { ...common, roles: (spec.roles ?? []).map((role) => ({ id: role.name, required: role.required ?? false })), ...withDefault('fetchRoles', spec.fetchRoles, existing) };
    case 'user':
      return { ...common, users: [...(spec.users ?? [])] };
    case 'group':
      return { ...common, groups: (spec.groups ?? []).map((group) => ({ path: groupPath(group.path), extendChildren: group.extendChildren ?? false })), ...withDefault('groupsClaim', spec.groupsClaim, existing) };
    case 'client':
      return { ...common, clients: [...(spec.clients ?? [])] };
    case 'time':
      return { ...common, ...timeBounds(spec) };
    case 'regex':
      return { ...common, ...regexFields(spec) };
    case 'js':
      return { ...common, code: spec.code ?? '' };
    case 'aggregate':
      return { ...common, decisionStrategy: spec.decisionStrategy ?? 'UNANIMOUS', policies: [...(spec.policies ?? [])] };
    case 'resource':
    case 'scope':
      return {
        ...common, decisionStrategy: spec.decisionStrategy ?? 'UNANIMOUS', resources: [...(spec.resources ?? [])], scopes: [...(spec.scopes ?? [])], policies: [...(spec.policies ?? [])],
        // Keycloak keeps a permission's type of resources, and removes it when a whole update leaves it out.
        ...(spec.resourceType === undefined ? {} : { resourceType: spec.resourceType }),
      };
  }
}

/**
 * Brings a client's policies, then its permissions (they name policies), to the spec, and removes the
 * unlisted ones that are ours when their list is given and not empty (or `prune` says so). A policy keeps its
 * type: one of another type is replaced.
 */
export function reconcilePolicies(
  target: ClientTarget,
  policies: readonly AuthorizationPolicySpec[] | undefined,
  permissions: readonly AuthorizationPermissionSpec[] | undefined,
  observed: readonly ObservedPolicy[],
  prune: PolicyPrune = {},
): void {
  // Aggregates after the policies they name (in the spec's order among themselves), permissions last.
  const aggregates = (policies ?? []).filter((policy) => policy.type === 'aggregate');
  const listed: Listed[] = [...(policies ?? []).filter((policy) => policy.type !== 'aggregate'), ...aggregates, ...(permissions ?? [])];
  const typeOf = new Map(listed.map((spec) => [spec.name, spec.type]));
  const replaced = observed.filter((policy) => typeOf.has(policy.name) && typeOf.get(policy.name) !== policy.type);
  const prunes = (policy: ObservedPolicy): boolean =>
    PERMISSION_KINDS.has(policy.type) ? (permissions?.length ?? 0) > 0 || prune.permissions === true : (policies?.length ?? 0) > 0 || prune.policies === true;
  const resource = (name: string, policyType: string, id?: string) => ({ type: 'authorizationPolicy', client: target.client, name, policyType, ...(id === undefined ? {} : { id }) }) as const;
  const planned = planKeycloakList({
    ...clientWrites(target, 'authorization policy'),
    desired: listed,
    observed: observed.filter((policy) => !replaced.includes(policy)),
    ...byName,
    changes: changedFields,
    // Each list's own prune rule decides, so the planner's is always on.
    ours: (policy) => carriesDescriptionMarker(policy.description) && prunes(policy),
    pruneWhenEmpty: true,
    create: (spec) => ({ resource: resource(spec.name, spec.type), body: bodyOf(spec) }),
    update: (spec, existing) => ({ resource: resource(spec.name, spec.type, existing.id), body: bodyOf(spec, existing) }),
    delete: (policy) => resource(policy.name, policy.type, policy.id),
  });
  // Permissions first: removing a policy a permission still names would leave it naming nothing.
  const deletes = [...planned.deletes].sort((a, b) => Number(PERMISSION_KINDS.has(b.observed.type)) - Number(PERMISSION_KINDS.has(a.observed.type)));
  addSteps(target.plan, deletes.map((item) => item.step));
  for (const { desired: spec, step } of planned.listed) {
    const old = replaced.find((policy) => policy.name === spec.name);
    if (old !== undefined) target.plan.add({ kind: 'keycloak.delete', ...target.call, resource: resource(old.name, old.type, old.id) }, `the spec makes ${spec.name} a ${spec.type} policy`);
    addSteps(target.plan, [step]);
  }
}
