// A realm's default groups and default roles: the spec's added, what it listed before (status) and lists no
// more removed, Keycloak's own defaults and what people added never; then against the in-memory Keycloak.
import { describe, expect, it } from '@jest/globals';
import type { Plan } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld } from '@keyward/kernel';
import { convergeRealm } from '../simulated-world.js';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import { keycloakRealmType } from '../../src/index.js';
import { defaultRoleName } from '../../src/realm/default-roles.js';
import { observe } from '../../src/realm/observe.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { simulateKeycloak, type SimulatedKeycloak } from '../../src/testing.js';
import { baseSpec, builtInRoles, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

function describeStep(action: KeycloakAction): string {
  if (action.kind === 'keycloak.grantRoles' || action.kind === 'keycloak.revokeRoles') {
    const holder = action.holder.type === 'role' ? action.holder.name : action.holder.type;
    const clients = Object.entries(action.roles.clients).map(([client, names]) => `${client}=${names.join(',')}`);
    return `${action.kind} ${holder} realm:${action.roles.realm.join(',')} clients:${clients.join(';')}`;
  }
  if (action.kind === 'keycloak.regenerateClientSecret') return action.kind;
  return `${action.kind} ${action.resource.type} ${'path' in action.resource ? action.resource.path : ''}`;
}

const keycloakSteps = (p: Plan<KeycloakRealmAction>): string[] =>
  p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.')).map(describeStep);
const statusOf = (p: Plan<KeycloakRealmAction>): Record<string, unknown> | undefined => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  return step?.action.kind === 'k8s.status' ? step.action.status : undefined;
};

/** Keycloak's default role of realm shop holding `held` besides its own composites. */
function realmWithDefaults(held: { realm?: string[]; clients?: Record<string, string[]> }, defaultGroups?: string[]) {
  const [defaults, ...rest] = builtInRoles;
  if (defaults === undefined) throw new Error('no default role');
  const composites = { realm: [...defaults.composites.realm, ...(held.realm ?? [])], clients: { ...defaults.composites.clients, ...held.clients } };
  return observedRealm({
    realmFields: { defaultRole: { id: 'r1', name: 'default-roles-shop' } },
    roles: [{ ...defaults, composites }, ...rest],
    ...(defaultGroups === undefined ? {} : { defaultGroups }),
  });
}

describe('default roles', () => {
  it('are the composites of the role the realm names, read with the realm roles at no extra cost', () => {
    expect(defaultRoleName(observedRealm({ realmFields: { defaultRole: { name: 'default-roles-shop' } } }))).toBe('default-roles-shop');
    expect(defaultRoleName(observedRealm({ realmFields: { realm: 'Shop' } }))).toBe('default-roles-shop');
    expect(observe(decoded(realmObject({ ...baseSpec, defaultRoles: { realmRoles: ['viewer'] } })), config).realm).toEqual(observe(decoded(realmObject(baseSpec)), config).realm);
  });

  it('adds only what the spec lists, and records it', () => {
    const p = plan(realmObject({ ...baseSpec, defaultRoles: { realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } } }), { realm: realmWithDefaults({}) });
    expect(keycloakSteps(p)).toEqual(['keycloak.grantRoles default-roles-shop realm:viewer clients:shop=buyer']);
    expect(statusOf(p)?.['managed']).toEqual({ defaultRoles: { realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } } });
  });

  it('takes away what it listed before and lists no more, never Keycloak\'s own or what people added', () => {
    const status = { managed: { defaultRoles: { realmRoles: ['viewer', 'offline_access'], clientRoles: { shop: ['buyer'], account: ['view-profile'] } } } };
    const spec = { ...baseSpec, defaultRoles: { realmRoles: [], clientRoles: {} } };
    const p = plan(realmObject(spec, { status }), { realm: realmWithDefaults({ realm: ['viewer', 'by-hand'], clients: { shop: ['buyer'] } }) });
    expect(keycloakSteps(p)).toEqual(['keycloak.revokeRoles default-roles-shop realm:viewer clients:shop=buyer']);
    expect(statusOf(p)?.['managed']).toEqual({ defaultRoles: { realmRoles: [], clientRoles: {} } });
  });

  it('plans no write once Keycloak holds them, and leaves them alone when the spec drops the field', () => {
    const status = { managed: { defaultRoles: { realmRoles: ['viewer'] } } };
    expect(keycloakSteps(plan(realmObject({ ...baseSpec, defaultRoles: { realmRoles: ['viewer'] } }, { status }), { realm: realmWithDefaults({ realm: ['viewer'] }) }))).toEqual([]);
    const dropped = plan(realmObject(baseSpec, { status }), { realm: realmWithDefaults({ realm: ['viewer'] }) });
    expect(keycloakSteps(dropped)).toEqual([]);
    expect(statusOf(dropped)?.['managed']).toBeUndefined();
  });
});

describe('default groups', () => {
  it('are read only while the spec lists them', () => {
    expect(observe(decoded(realmObject(baseSpec)), config).realm?.defaultGroups).toBeUndefined();
    expect(observe(decoded(realmObject({ ...baseSpec, defaultGroups: [] })), config).realm?.defaultGroups).toBe(true);
  });

  it('adds the listed ones, and removes only those the spec listed before', () => {
    const status = { managed: { defaultGroups: ['/old', '/staff'] } };
    const p = plan(realmObject({ ...baseSpec, defaultGroups: ['/staff', '/staff/leads'] }, { status }), { realm: realmWithDefaults({}, ['/old', '/by-hand', '/staff']) });
    expect(keycloakSteps(p)).toEqual(['keycloak.delete defaultGroup /old', 'keycloak.create defaultGroup /staff/leads']);
    expect(statusOf(p)?.['managed']).toEqual({ defaultGroups: ['/staff', '/staff/leads'] });
  });

  it('wait for a realm created in the same plan to be read', () => {
    const p = plan(realmObject({ ...baseSpec, defaultGroups: ['/staff'], defaultRoles: { realmRoles: ['viewer'] } }), { realm: undefined });
    expect(keycloakSteps(p).filter((s) => s.includes('default'))).toEqual([]);
  });

  it('refuse a path that is not one', () => {
    expect(() => decoded(realmObject({ ...baseSpec, defaultGroups: ['staff'] }))).toThrow('spec.defaultGroups[0]: expected a group path like /parent/child, got "staff"');
  });
});

describe('defaults against the in-memory Keycloak', () => {
  it('converge with the groups they name, and then make no writes', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    const ref = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    w.put(keycloakRealmType, {
      metadata: { name: 'shared', namespace: 'platform' },
      spec: { realmName: 'shared', realmRoles: [{ name: 'viewer' }], groups: [{ name: 'staff', subGroups: [{ name: 'leads' }] }], defaultGroups: ['/staff/leads'], defaultRoles: { realmRoles: ['viewer'] } },
    });
    const keycloak: SimulatedKeycloak = w.apis.keycloak;
    await convergeRealm(w, ref, clock, config);
    const writes = keycloak.writes;
    expect((await convergeRealm(w, ref, clock, config)).map((quiet) => quiet.steps.length)).toEqual([0]);
    expect(keycloak.writes).toBe(writes);
  });
});
