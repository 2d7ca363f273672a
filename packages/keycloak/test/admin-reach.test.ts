// How the admin-role guard follows grants to what they reach: client roles' composites, groups and their
// parents, mappers' groups, service-account roles; and what it reads of Keycloak to know (only what grants name).
import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld, reconcileOnce } from '@keyward/kernel';
import fc from 'fast-check';
import { adminRoleOfGroup, adminRolesIn, type CompositesOf } from '../src/admin-roles.js';
import { ReachWalk, groupAndParents, type ObservedReach } from '../src/apis/keycloak/role-reach.js';
import type { RoleNames } from '../src/apis/keycloak/representations.js';
import { forbiddenServiceAccountRoles, serviceAccountReach } from '../src/client/role-guard.js';
import { knownFrom } from '../src/known-roles.js';
import { adminRoleGrants, grantReachRead } from '../src/realm/admin-grants.js';
import { keycloakRealmController, keycloakRealmType } from '../src/index.js';
import { simulateKeycloak } from '../src/testing.js';
import { convergeRealm, simulatedConfig } from './simulated-world.js';
import { observeClient } from '../src/client/observe.js';
import { baseSpec as clientSpec, clientObject, config as clientConfig } from './client/harness.js';

const roles = (realm: string[], clients: Record<string, string[]> = {}): RoleNames => ({ realm, clients });

/** What Keycloak showed: `viewer` → app/reader → app/inner → realm-management/view-users, and groups /ops, /ops/oncall. */
const reach: ObservedReach = {
  composites: [
    { name: 'viewer', composites: roles([], { app: ['reader'] }) },
    { name: 'reader', clientId: 'app', composites: roles([], { app: ['inner'] }) },
    { name: 'inner', clientId: 'app', composites: roles(['loop'], { 'realm-management': ['view-users'] }) },
    { name: 'loop', composites: roles([], { app: ['reader'] }) },
    { name: 'plain', clientId: 'app', composites: roles(['offline_access']) },
  ],
  groups: [
    { path: '/ops', roles: roles(['viewer']) },
    { path: '/ops/oncall', roles: roles([], { app: ['plain'] }) },
    { path: '/staff', roles: roles(['offline_access'], { app: ['plain'] }) },
  ],
};
const known = knownFrom(reach);

describe('admin roles reached through client roles', () => {
  it('follows a client role\'s composites, through cycles, to the admin role', () => {
    expect(adminRolesIn('shop', roles(['viewer'], { app: ['reader', 'plain'] }), known.compositesOf)).toEqual([
      'viewer (reaches realm-management/view-users)',
      'app/reader (reaches realm-management/view-users)',
    ]);
  });

  it('ends on any composite graph, naming an admin role only when one is reachable', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'd');
    const part = fc.record({ realm: fc.array(name, { maxLength: 3 }), clients: fc.record({ app: fc.array(name, { maxLength: 3 }) }) });
    fc.assert(fc.property(fc.dictionary(name, part), fc.dictionary(name, part), fc.constantFrom(...['a', 'b', 'c', 'd']), (realmGraph, appGraph, admin) => {
      // The admin role: realm-management/<admin>, placed as a composite of app/<admin>.
      const compositesOf: CompositesOf = (role, clientId) => {
        if (clientId === 'app' && role === admin) return roles([], { 'realm-management': [admin] });
        return clientId === undefined ? realmGraph[role] : clientId === 'app' ? appGraph[role] : undefined;
      };
      const found = adminRolesIn('shop', roles(['a']), compositesOf);
      const reachable = new Set<string>();
      const walk = (key: string): void => {
        if (reachable.has(key)) return;
        reachable.add(key);
        const at = key.indexOf('/');
        const parts = at < 0 ? compositesOf(key) : compositesOf(key.slice(at + 1), key.slice(0, at));
        for (const inner of parts?.realm ?? []) walk(inner);
        for (const [client, names] of Object.entries(parts?.clients ?? {})) for (const inner of names) walk(`${client}/${inner}`);
      };
      walk('a');
      expect(found.length > 0).toBe(reachable.has(`realm-management/${admin}`));
    }));
  });
});

describe('groups', () => {
  it('are /a, /a/b, /a/b/c for /a/b/c', () => {
    expect(groupAndParents('/a/b/c')).toEqual(['/a', '/a/b', '/a/b/c']);
    expect(groupAndParents('a/b')).toEqual(['/a', '/a/b']);
  });

  it('give their members their parents\' roles: a subgroup of /ops reaches what /ops does', () => {
    expect(adminRoleOfGroup('shop', '/ops/oncall', known.groupRolesOf, known.compositesOf)).toBe('realm-management/view-users');
    expect(adminRoleOfGroup('shop', '/staff', known.groupRolesOf, known.compositesOf)).toBeUndefined();
    expect(adminRoleOfGroup('shop', '/nowhere', known.groupRolesOf, known.compositesOf)).toBeUndefined();
  });
});

describe('adminRoleGrants with what Keycloak showed', () => {
  const shop = { realmName: 'shop', deletionPolicy: 'Delete' as const };

  it('names each grant that reaches an admin role only through client roles or groups', () => {
    const spec = {
      ...shop,
      defaultRoles: { clientRoles: { app: ['reader'] } },
      defaultGroups: ['/ops/oncall', '/staff'],
      groups: [{ name: 'team', clientRoles: { app: ['inner'] } }],
      realmRoles: [{ name: 'power', composites: { clients: { app: ['reader'] } } }],
      identityProviders: [{
        alias: 'corp',
        providerId: 'oidc',
        mappers: [
          { name: 'to-ops', identityProviderMapper: 'oidc-hardcoded-group-idp-mapper', config: { group: '/ops' } },
          { name: 'reader', identityProviderMapper: 'hardcoded-role-idp-mapper', config: { role: 'app.reader' } },
        ],
      }],
      userFederation: [{ name: 'ldap', providerId: 'ldap' as const, mappers: [{ name: 'groups', mapperType: 'group-ldap-mapper', config: { 'groups.path': '/ops' } }] }],
    };
    expect(adminRoleGrants(spec, undefined, reach)).toEqual([
      'defaultRoles: app/reader (reaches realm-management/view-users)',
      'group /team: app/inner (reaches realm-management/view-users)',
      'composites of realm role power: app/reader (reaches realm-management/view-users)',
      'defaultGroups: /ops/oncall (reaches realm-management/view-users)',
      'identity provider corp mapper to-ops: group /ops (reaches realm-management/view-users)',
      'identity provider corp mapper reader: app/reader (reaches realm-management/view-users)',
      'user federation ldap mapper groups: group /ops (reaches realm-management/view-users)',
    ]);
  });

  it('counts a default group\'s roles the spec states, and its parent\'s the spec states', () => {
    const spec = { ...shop, defaultGroups: ['/team/sub'], groups: [{ name: 'team', clientRoles: { 'realm-management': ['query-users'] }, subGroups: [{ name: 'sub' }] }] };
    expect(adminRoleGrants(spec, undefined)).toContain('defaultGroups: /team/sub (reaches realm-management/query-users)');
  });

  it('finds nothing where the groups and client roles reach no admin role', () => {
    expect(adminRoleGrants({ ...shop, defaultGroups: ['/staff'], defaultRoles: { clientRoles: { app: ['plain'] } } }, undefined, reach)).toEqual([]);
  });
});

describe('grantReachRead', () => {
  it('names every role the spec grants or composes and every group it puts users in, once each', () => {
    const spec = {
      realmName: 'shop',
      deletionPolicy: 'Delete' as const,
      defaultRoles: { realmRoles: ['viewer'], clientRoles: { app: ['reader'] } },
      defaultGroups: ['/ops'],
      groups: [{ name: 'team', realmRoles: ['viewer'], clientRoles: { app: ['reader', 'plain'] } }],
      identityProviders: [{ alias: 'corp', providerId: 'oidc', mappers: [{ name: 'm', identityProviderMapper: 'x', config: { role: 'web.app.user', group: '/ops' } }] }],
    };
    expect(grantReachRead(spec)).toEqual({
      roles: { realm: ['viewer', 'web.app.user'], clients: { app: ['reader', 'plain'], web: ['app.user'], 'web.app': ['user'] } },
      groups: ['/ops'],
    });
  });

  it('reads nothing for a spec that grants nothing', () => {
    expect(grantReachRead({ realmName: 'shop', deletionPolicy: 'Delete', displayName: 'Shop', realmRoles: [{ name: 'plain' }] })).toBeUndefined();
  });
});

describe('service-account roles through composites', () => {
  it('refuses a role that reaches an admin role, naming what it reaches, unless the operator allows the role or what it reaches', () => {
    const wanted = { realmRoles: ['viewer', 'offline_access'], clientRoles: { app: ['plain', 'reader'] } };
    expect(forbiddenServiceAccountRoles('shop', wanted, [], known.compositesOf)).toEqual([
      'viewer (reaches realm-management/view-users)',
      'app/reader (reaches realm-management/view-users)',
    ]);
    expect(forbiddenServiceAccountRoles('shop', wanted, ['viewer'], known.compositesOf)).toEqual(['app/reader (reaches realm-management/view-users)']);
    expect(forbiddenServiceAccountRoles('shop', wanted, ['realm-management/view-users'], known.compositesOf)).toEqual([]);
  });

  it('reads only the roles not refused by name, and nothing when every role is', () => {
    expect(serviceAccountReach('shop', { realmRoles: ['admin', 'viewer'], clientRoles: { 'realm-management': ['view-users'], app: ['reader'] } }, [])).toEqual({ roles: { realm: ['viewer'], clients: { app: ['reader'] } }, groups: [] });
    expect(serviceAccountReach('shop', { clientRoles: { 'realm-management': ['view-users'] } }, [])).toBeUndefined();
    expect(serviceAccountReach('shop', { realmRoles: ['viewer'] }, ['*'])).toBeUndefined();
    expect(serviceAccountReach('shop', { realmRoles: ['viewer'] }, ['viewer'])).toBeUndefined();
  });
});

describe('what a KeycloakClient reads for its service-account roles', () => {
  const asking = { ...clientSpec, settings: { serviceAccountsEnabled: true }, serviceAccountRoles: { realmRoles: ['viewer'], clientRoles: { 'realm-management': ['view-users'] } } };

  it('asks for the composites of the roles not refused by name, in the realm status records', () => {
    expect(observeClient(clientObject(asking), clientConfig).grantReach).toMatchObject({ kind: 'keycloak.grantReach', realm: 'shared', read: { roles: { realm: ['viewer'], clients: {} }, groups: [] } });
  });

  it('reads nothing before the realm is recorded, while deleting, or for a client of Keycloak\'s own', () => {
    expect(observeClient(clientObject(asking, {}), clientConfig).grantReach).toBeUndefined();
    expect(observeClient(clientObject(asking, { realm: 'shared' }, { deletionTimestamp: '2026-03-01T00:00:00Z' }), clientConfig).grantReach).toBeUndefined();
    expect(observeClient(clientObject({ ...asking, clientId: 'broker' }), clientConfig).grantReach).toBeUndefined();
  });
});

describe('ReachWalk', () => {
  it('looks each role up once, level by level, and stops at admin roles', () => {
    const walk = new ReachWalk({ roles: roles(['viewer']), groups: ['/ops/oncall'] }, (role) => role.clientId === 'realm-management');
    expect(walk.groups).toEqual(['/ops', '/ops/oncall']);
    walk.foundGroups(walk.groups.map((path) => ({ path, roles: known.groupRolesOf(path) })));
    const looked: string[][] = [];
    for (let level = walk.level(); level.length > 0; level = walk.level()) {
      looked.push(level.map((role) => (role.clientId === undefined ? role.name : `${role.clientId}/${role.name}`)));
      walk.foundComposites(level.map((role) => ({ role, composites: known.compositesOf(role.name, role.clientId) })));
    }
    expect(looked).toEqual([['viewer', 'app/plain'], ['app/reader', 'offline_access'], ['app/inner'], ['loop']]);
    expect(walk.reached.groups.map((group) => group.path)).toEqual(['/ops', '/ops/oncall']);
    expect(walk.reached.composites.map((entry) => entry.name)).toEqual(['viewer', 'plain', 'reader', 'inner', 'loop']);
  });
});

describe('a realm whose default group reaches an admin role, against the in-memory Keycloak', () => {
  it('is refused once, with one Warning event, writes nothing for it, and stays quiet on the next reconciles', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    const ref = { type: keycloakRealmType, namespace: 'team', name: 'shop' };
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const spec = { realmName: 'shop', groups: [{ name: 'ops', subGroups: [{ name: 'oncall' }] }] };
    w.put(keycloakRealmType, { metadata: { name: 'shop', namespace: 'team' }, spec });
    const reconcile = async () => {
      const outcome = await reconcileOnce(keycloakRealmController, w, ref, { config: simulatedConfig, now: clock.now() });
      if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
      expect(outcome.result?.ok).toBe(true);
      clock.advance(3_000);
      return outcome.decision.plan.steps.map((step) => step.action.kind);
    };
    await convergeRealm(w, ref, clock);
    // By hand: the parent group is given a role of realm-management.
    w.apis.keycloak.editGroup('shop', '/ops', (_rep, held) => held.clients.set('realm-management', new Set(['view-users'])));
    const writes = w.apis.keycloak.writes;
    w.update(ref, (object) => ({ ...object, spec: { ...spec, defaultGroups: ['/ops/oncall'] } }));

    expect(await reconcile()).toEqual(['k8s.status', 'k8s.event']);
    const ready = (w.get(ref)?.['status'] as { conditions: { type: string; status: string; reason: string; message: string }[] }).conditions.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'AdminRolesNotGrantable', message: expect.stringContaining('defaultGroups: /ops/oncall (reaches realm-management/view-users)') as unknown });
    expect(w.events.filter((event) => event.type === 'Warning' && event.reason === 'AdminRolesNotGrantable')).toHaveLength(1);
    expect(await reconcile()).toEqual([]);
    expect(await reconcile()).toEqual([]);
    expect(w.apis.keycloak.writes).toBe(writes);
    expect(w.events.filter((event) => event.reason === 'AdminRolesNotGrantable')).toHaveLength(1);
  });
});
