import { describe, expect, it } from '@jest/globals';
import { PlanBuilder } from '@keyward/kernel';
import { decode } from '@keyward/kernel/model';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ObservedPolicy } from '../../src/apis/keycloak/authorization.js';
import { reconcilePolicies } from '../../src/client/authorization-policies.js';
import type { AuthorizationPermissionSpec, AuthorizationPolicySpec } from '../../src/client/authorization-policy-spec.js';
import { observeClient } from '../../src/client/observe.js';
import { ClientSpecCodec } from '../../src/client/spec.js';
import { baseSpec, call, clientObject, config } from './harness.js';

const MARKER = '[io.kubernetes.managed-by=keyward]';

const plan = (
  policies: readonly AuthorizationPolicySpec[] | undefined,
  permissions: readonly AuthorizationPermissionSpec[] | undefined,
  observed: readonly ObservedPolicy[],
  prune: { policies?: boolean; permissions?: boolean } = {},
): PlanBuilder<KeycloakAction> => {
  const builder = new PlanBuilder<KeycloakAction>();
  reconcilePolicies({ plan: builder, call, client: { realm: 'shared', clientId: 'docs', id: 'uuid-1' } }, policies, permissions, observed, prune);
  return builder;
};

const readers: AuthorizationPolicySpec = { name: 'readers', type: 'role', roles: [{ name: 'reader', required: true }, { name: 'docs/admin' }] };
const docAccess: AuthorizationPermissionSpec = { name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers'] };

const observedReaders: ObservedPolicy = {
  id: 'p1', name: 'readers', type: 'role', description: MARKER, logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS',
  parts: { roles: [{ name: 'docs/admin', required: false }, { name: 'reader', required: true }], fetchRoles: false },
};
const observedDocAccess: ObservedPolicy = {
  id: 'p2', name: 'doc-access', type: 'resource', description: MARKER, logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS',
  parts: { policies: ['readers'], resources: ['doc'], scopes: [] },
};
const unlisted = (name: string, type: string, description: string): ObservedPolicy => ({ id: `id-${name}`, name, type, description });
const deleted = (builder: PlanBuilder<KeycloakAction>): string[] => actionsOf(builder.build(), 'keycloak.delete').map((action) => ('name' in action.resource ? action.resource.name : ''));

describe('authorization policies and permissions', () => {
  it('creates policies before the permissions that name them, everything by name and described with our marker', () => {
    const builder = plan([readers, { name: 'alice', type: 'user', users: ['alice'], description: 'Only alice' }], [{ ...docAccess, decisionStrategy: 'AFFIRMATIVE' }], []);
    const creates = actionsOf(builder.build(), 'keycloak.create');
    expect(creates.map((action) => action.resource)).toEqual([
      { type: 'authorizationPolicy', client: { realm: 'shared', clientId: 'docs', id: 'uuid-1' }, name: 'readers', policyType: 'role' },
      expect.objectContaining({ name: 'alice', policyType: 'user' }),
      expect.objectContaining({ name: 'doc-access', policyType: 'resource' }),
    ]);
    expect(creates[0]?.body).toEqual({ name: 'readers', type: 'role', description: MARKER, logic: 'POSITIVE', roles: [{ id: 'reader', required: true }, { id: 'docs/admin', required: false }], fetchRoles: true });
    expect(creates[1]?.body).toMatchObject({ users: ['alice'], description: `Only alice ${MARKER}` });
    expect(creates[2]?.body).toEqual({ name: 'doc-access', type: 'resource', description: MARKER, logic: 'POSITIVE', decisionStrategy: 'AFFIRMATIVE', resources: ['doc'], scopes: [], policies: ['readers'] });
  });

  it('plans nothing when what Keycloak has (read back to names, in any order) is the spec', () => {
    expect(plan([readers], [docAccess], [observedReaders, observedDocAccess]).build().steps).toEqual([]);
  });

  it('replaces a differing policy whole, naming what changed', () => {
    const builder = plan([{ ...readers, logic: 'NEGATIVE' }], [{ ...docAccess, policies: ['readers', 'other'] }], [observedReaders, observedDocAccess]);
    const updates = actionsOf(builder.build(), 'keycloak.update');
    expect(updates.map((action) => [action.resource, action.changed])).toEqual([
      [expect.objectContaining({ name: 'readers', policyType: 'role', id: 'p1' }), ['logic']],
      [expect.objectContaining({ name: 'doc-access', policyType: 'resource', id: 'p2' }), ['policies']],
    ]);
    expect(updates[0]?.body).toMatchObject({ logic: 'NEGATIVE', roles: [{ id: 'reader', required: true }, { id: 'docs/admin', required: false }] });
  });

  it('sends a resource permission\'s type of resources, and sets back one Keycloak has otherwise', () => {
    const typed = { ...docAccess, resources: [], resourceType: 'urn:docs:document' };
    const created = actionsOf(plan([readers], [typed], [observedReaders]).build(), 'keycloak.create');
    expect(created[0]?.body).toMatchObject({ type: 'resource', resourceType: 'urn:docs:document', resources: [] });
    const observedTyped = { ...observedDocAccess, parts: { policies: ['readers'], resources: [], scopes: [], resourceType: 'urn:docs:document' } };
    expect(plan([readers], [typed], [observedReaders, observedTyped]).build().steps).toEqual([]);
    const updates = actionsOf(plan([readers], [{ ...docAccess, resources: [] }], [observedReaders, observedTyped]).build(), 'keycloak.update');
    expect(updates.map((action) => action.changed)).toEqual([['resourceType']]);
    expect(updates[0]?.body).not.toHaveProperty('resourceType');
  });

  it('sends a scope permission\'s type of resources too, and sets back one Keycloak has otherwise', () => {
    const docRead: AuthorizationPermissionSpec = { name: 'doc-read', type: 'scope', scopes: ['read'], policies: ['readers'], resourceType: 'urn:docs:document' };
    const created = actionsOf(plan([readers], [docRead], [observedReaders]).build(), 'keycloak.create');
    expect(created[0]?.body).toMatchObject({ type: 'scope', resourceType: 'urn:docs:document', scopes: ['read'], resources: [] });
    const observedDocRead: ObservedPolicy = {
      id: 'p3', name: 'doc-read', type: 'scope', description: MARKER, logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS',
      parts: { policies: ['readers'], resources: [], scopes: ['read'], resourceType: 'urn:docs:document' },
    };
    expect(plan([readers], [docRead], [observedReaders, observedDocRead]).build().steps).toEqual([]);
    const updates = actionsOf(plan([readers], [{ ...docRead, resourceType: 'urn:docs:other' }], [observedReaders, observedDocRead]).build(), 'keycloak.update');
    expect([updates.map((action) => action.changed), updates[0]?.body]).toEqual([[['resourceType']], expect.objectContaining({ resourceType: 'urn:docs:other' })]);
  });

  it('repairs a description changed by hand, and takes a policy of another type apart and makes it anew', () => {
    const builder = plan([readers, { name: 'team', type: 'group', groups: [{ path: 'team' }] }], [], [
      { ...observedReaders, description: 'changed by hand' },
      { id: 'g1', name: 'team', type: 'user', description: MARKER, parts: { users: [] } },
    ]);
    expect(actionKinds(builder.build())).toEqual(['keycloak.update', 'keycloak.delete', 'keycloak.create']);
    expect(actionsOf(builder.build(), 'keycloak.update')[0]?.changed).toEqual(['description']);
    expect(actionsOf(builder.build(), 'keycloak.create')[0]?.body).toMatchObject({ groups: [{ path: '/team', extendChildren: false }] });
  });

  it('removes unlisted policies and permissions that are ours when their list is given, permissions first, and never one made by hand', () => {
    const observed = [observedReaders, observedDocAccess, unlisted('old', 'client', MARKER), unlisted('old-perm', 'scope', `x ${MARKER}`), unlisted('by-hand', 'user', ''), unlisted('by-hand-perm', 'resource', 'mine')];
    expect(deleted(plan([readers], [docAccess], observed))).toEqual(['old-perm', 'old']);
  });

  it('removes nothing for an empty or absent list, unless pruneUnlisted names it', () => {
    const observed = [unlisted('old', 'client', MARKER), unlisted('old-perm', 'scope', MARKER)];
    expect(deleted(plan(undefined, [], observed))).toEqual([]);
    expect(deleted(plan(undefined, [], observed, { permissions: true }))).toEqual(['old-perm']);
    expect(deleted(plan([], undefined, observed, { policies: true }))).toEqual(['old']);
  });
});

describe('time, regex and aggregate policies', () => {
  const within: AuthorizationPolicySpec = { name: 'within', type: 'time', notBefore: '2000-01-01 00:00:00', hour: 8, hourEnd: 18 };
  const claims: AuthorizationPolicySpec = { name: 'claims', type: 'regex', targetClaim: 'email', pattern: '.*@example\\.com' };
  const both: AuthorizationPolicySpec = { name: 'both', type: 'aggregate', policies: ['within', 'readers'], decisionStrategy: 'AFFIRMATIVE' };
  const observed: ObservedPolicy[] = [
    { id: 't1', name: 'within', type: 'time', description: MARKER, logic: 'POSITIVE', parts: { notBefore: '2000-01-01 00:00:00', hour: '8', hourEnd: '18' } },
    { id: 'x1', name: 'claims', type: 'regex', description: MARKER, logic: 'POSITIVE', parts: { targetClaim: 'email', pattern: '.*@example\\.com', targetContextAttributes: false } },
    { id: 'a1', name: 'both', type: 'aggregate', description: MARKER, logic: 'POSITIVE', decisionStrategy: 'AFFIRMATIVE', parts: { policies: ['readers', 'within'] } },
    observedReaders,
  ];

  it('creates aggregates after the policies they name, time bounds as text', () => {
    const builder = plan([both, within, readers, claims], [], []);
    expect(actionsOf(builder.build(), 'keycloak.create').map((action) => ('name' in action.resource ? action.resource.name : ''))).toEqual(['within', 'readers', 'claims', 'both']);
    expect(actionsOf(builder.build(), 'keycloak.create')[0]?.body).toMatchObject({ notBefore: '2000-01-01 00:00:00', hour: '8', hourEnd: '18' });
    expect(actionsOf(builder.build(), 'keycloak.create')[3]?.body).toMatchObject({ policies: ['within', 'readers'], decisionStrategy: 'AFFIRMATIVE' });
  });

  it('plans nothing when converged, and replaces a time policy holding a bound the spec does not state', () => {
    expect(plan([within, claims, both, readers], [], observed).build().steps).toEqual([]);
    const extra = observed.map((policy) => (policy.name === 'within' ? { ...policy, parts: { ...policy.parts, noa: undefined, notOnOrAfter: '2001-01-01 00:00:00' } } : policy));
    const updates = actionsOf(plan([within, claims, both, readers], [], extra).build(), 'keycloak.update');
    expect(updates.map((action) => action.changed)).toEqual([['notOnOrAfter']]);
  });

  it('compares an aggregate\'s decision strategy and policies', () => {
    const updates = actionsOf(plan([within, claims, { ...both, decisionStrategy: 'UNANIMOUS', policies: ['within'] }, readers], [], observed).build(), 'keycloak.update');
    expect(updates.map((action) => action.changed)).toEqual([['decisionStrategy', 'policies']]);
  });
});

describe('reading policies', () => {
  const query = (authorizationSettings: Record<string, unknown>, pruneUnlisted?: string[]) =>
    observeClient(clientObject({ ...baseSpec, settings: { serviceAccountsEnabled: true }, authorizationSettings, ...(pruneUnlisted === undefined ? {} : { pruneUnlisted }) }), config).client;

  it('lists policies, with the parts of those the spec lists, only when a list of them manages something', () => {
    expect(query({ scopes: [{ name: 'read' }] })).not.toHaveProperty('authorizationPolicies');
    expect(query({ policies: [], permissions: [] })).not.toHaveProperty('authorizationPolicies');
    expect(query({ policies: [readers], permissions: [docAccess] })).toMatchObject({ authorizationPolicies: ['readers', 'doc-access'] });
    expect(query({}, ['authorizationSettings.permissions'])).toMatchObject({ authorizationPolicies: [] });
  });

  it.each([
    ['an unknown policy type', { policies: [{ name: 'x', type: 'script' }] }, 'authorizationSettings.policies[0].type'],
    ['an unknown logic', { permissions: [{ name: 'x', type: 'resource', logic: 'MAYBE' }] }, 'authorizationSettings.permissions[0].logic'],
    ['a policy listed twice', { policies: [{ name: 'x', type: 'user' }, { name: 'x', type: 'role' }] }, 'authorizationSettings.policies'],
  ] as const)('rejects %s, naming the field', (_what, settings, field) => {
    const decoded = decode(ClientSpecCodec, { ...baseSpec, settings: { serviceAccountsEnabled: true }, authorizationSettings: settings });
    expect(decoded._tag).toBe('Left');
    expect(JSON.stringify(decoded)).toContain(field);
  });
});
