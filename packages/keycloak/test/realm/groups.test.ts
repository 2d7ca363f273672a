// Realm groups: what is read, and the pure plan for creating, updating and pruning them; then the same
// spec against the in-memory Keycloak until it converges, and an out-of-band change repaired.
import { describe, expect, it } from '@jest/globals';
import type { Plan } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld } from '@keyward/kernel';
import { convergeRealm } from '../simulated-world.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ObservedGroup } from '../../src/apis/keycloak/groups.js';
import { keycloakRealmType } from '../../src/index.js';
import { MANAGED_BY } from '../../src/ownership.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { groupReads } from '../../src/realm/groups/plan.js';
import { observe } from '../../src/realm/observe.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { simulateKeycloak, type SimulatedKeycloak } from '../../src/testing.js';
import { baseSpec, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

const marked = { [MANAGED_BY]: ['keyward'] };

function group(path: string, fields: Partial<ObservedGroup> = {}): ObservedGroup {
  return { id: `id${path}`, name: path.slice(path.lastIndexOf('/') + 1), path, attributes: marked, roles: { realm: [], clients: {} }, ...fields };
}

/** "keycloak.create group /staff {...}", "keycloak.grantRoles /staff realm:a clients:c=x", ... */
function describeStep(action: KeycloakAction): string {
  if (action.kind === 'keycloak.grantRoles' || action.kind === 'keycloak.revokeRoles') {
    const holder = action.holder.type === 'group' ? action.holder.path : action.holder.type;
    const clients = Object.entries(action.roles.clients).map(([client, names]) => `${client}=${names.join(',')}`);
    return `${action.kind} ${holder} realm:${action.roles.realm.join(',')} clients:${clients.join(';')}`;
  }
  if (action.kind === 'keycloak.regenerateClientSecret' || action.resource.type !== 'group') return action.kind;
  const body = action.kind === 'keycloak.delete' ? '' : ` ${JSON.stringify(action.body?.['attributes'])}`;
  return `${action.kind} group ${action.resource.path}${body}`;
}

const groupSteps = (p: Plan<KeycloakRealmAction>): string[] =>
  p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.')).map(describeStep);

const spec = {
  ...baseSpec,
  groups: [
    { name: 'staff', attributes: { dept: 'ops' }, realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] }, subGroups: [{ name: 'leads', realmRoles: ['admin'] }] },
    { name: 'guests' },
  ],
};

/** What Keycloak answers once `spec` is applied. */
const converged = (): ObservedGroup[] => [
  group('/staff', { attributes: { dept: ['ops'], ...marked }, roles: { realm: ['viewer'], clients: { shop: ['buyer'] } }, subGroups: [group('/staff/leads', { roles: { realm: ['admin'], clients: {} } })] }),
  group('/guests'),
];

const planFor = (specObject: unknown, groups: ObservedGroup[] | undefined) => plan(realmObject(specObject), { realm: observedRealm(groups === undefined ? {} : { groups }) });

describe('reading groups', () => {
  it('reads none when the spec lists none, and the subgroups only of groups whose subgroups it manages', () => {
    expect(groupReads({})).toBeUndefined();
    expect(groupReads({ groups: [] })).toBeUndefined();
    expect(groupReads(spec)).toEqual({ childrenOf: ['/staff'] });
    expect(groupReads({ groups: [{ name: 'a', subGroups: [{ name: 'b', subGroups: [{ name: 'c' }] }] }] })).toEqual({ childrenOf: ['/a', '/a/b'] });
    expect(groupReads({ pruneUnlisted: ['groups'], groups: [{ name: 'a', subGroups: [{ name: 'b' }] }] })).toEqual({ childrenOf: ['/a', '/a/b'] });
    expect(groupReads({ pruneUnlisted: ['groups'] })).toEqual({ childrenOf: [] });
    expect(groupReads({ pruneUnlisted: ['realmRoles'] })).toBeUndefined();
  });

  it('asks the realm query for them only then', () => {
    expect(observe(decoded(realmObject(baseSpec)), config).realm?.groups).toBeUndefined();
    expect(observe(decoded(realmObject(spec)), config).realm?.groups).toEqual({ childrenOf: ['/staff'] });
  });
});

describe('planning groups', () => {
  it('creates listed groups with our marker, their roles and subgroups, the children under the id the parent gets', () => {
    const p = planFor(spec, []);
    expect(groupSteps(p)).toEqual([
      'keycloak.create group /staff {"dept":["ops"],"io.kubernetes.managed-by":["keyward"]}',
      'keycloak.grantRoles /staff realm:viewer clients:shop=buyer',
      'keycloak.create group /staff/leads {"io.kubernetes.managed-by":["keyward"]}',
      'keycloak.grantRoles /staff/leads realm:admin clients:',
      'keycloak.create group /guests {"io.kubernetes.managed-by":["keyward"]}',
    ]);
    const creating = (path: string) => p.steps.find((s) => s.action.kind === 'keycloak.create' && s.action.resource.type === 'group' && s.action.resource.path === path);
    const child = creating('/staff/leads')?.action;
    const parentId = child?.kind === 'keycloak.create' && child.resource.type === 'group' ? child.resource.parentId : undefined;
    expect(parentId).toEqual({ kind: 'output', step: creating('/staff')?.id, output: 'id' });
  });

  it('creates them with a realm created in the same plan', () => {
    const steps = groupSteps(plan(realmObject(spec), { realm: undefined }));
    expect(steps.filter((s) => s.startsWith('keycloak.create group'))).toHaveLength(3);
  });

  it('plans no write for groups Keycloak holds as the spec says', () => {
    expect(groupSteps(planFor(spec, converged()))).toEqual([]);
  });

  it('brings attributes and roles to the spec: stated lists exactly, unstated ones untouched', () => {
    const drifted = [
      group('/staff', { attributes: { dept: ['sales'], extra: ['x'], ...marked }, roles: { realm: ['viewer', 'auditor'], clients: { shop: ['seller'] } }, subGroups: [group('/staff/leads', { roles: { realm: ['admin'], clients: { shop: ['by-hand'] } } })] }),
      group('/guests', { attributes: { note: ['by hand'] } }),
    ];
    expect(groupSteps(planFor(spec, drifted))).toEqual([
      'keycloak.update group /staff {"dept":["ops"],"io.kubernetes.managed-by":["keyward"]}',
      'keycloak.revokeRoles /staff realm:auditor clients:shop=seller',
      'keycloak.grantRoles /staff realm: clients:shop=buyer',
      // A group whose spec states no attributes keeps its own, and gets the marker back.
      'keycloak.update group /guests {"note":["by hand"],"io.kubernetes.managed-by":["keyward"]}',
    ]);
  });

  it('prunes only marked groups the spec no longer lists, and only while the list is managed', () => {
    const observed = [...converged(), group('/old'), group('/by-hand', { attributes: {} })];
    expect(groupSteps(planFor(spec, observed))).toEqual(['keycloak.delete group /old']);
    // An empty list manages nothing, so nothing is even read; pruneUnlisted naming groups says so explicitly.
    expect(groupSteps(planFor({ ...baseSpec, groups: [] }, undefined))).toEqual([]);
    expect(groupSteps(planFor({ ...baseSpec, pruneUnlisted: ['groups'] }, observed))).toEqual(['keycloak.delete group /staff', 'keycloak.delete group /guests', 'keycloak.delete group /old']);
  });

  it('prunes marked subgroups of a listed group whose subgroups it lists, never unread ones', () => {
    const observed = converged().map((g) => (g.path === '/staff' ? { ...g, subGroups: [...(g.subGroups ?? []), group('/staff/old'), group('/staff/mine', { attributes: {} })] } : g));
    expect(groupSteps(planFor(spec, observed))).toEqual(['keycloak.delete group /staff/old']);
    // /guests has no subgroups in the spec: they were not read, and are not touched.
    expect(groupSteps(planFor(spec, converged().map(({ subGroups, ...g }) => (g.path === '/guests' ? g : { ...g, ...(subGroups === undefined ? {} : { subGroups }) }))))).toEqual([]);
  });
});

describe('the groups codec', () => {
  const rejection = (groups: unknown): string => {
    const result = decodeRealm(realmObject({ ...baseSpec, groups }));
    if (!isLeft(result)) throw new Error('expected the spec to be rejected');
    return result.left.message;
  };

  it('keeps groups as written', () => {
    expect(decoded(realmObject(spec)).spec.groups).toEqual(spec.groups);
  });

  it.each([
    ['a name with a slash', [{ name: 'a/b' }], 'spec.groups[0].name: expected a group name of 1 to 255 characters without /, got "a/b"'],
    ['a subgroup listed twice', [{ name: 'a', subGroups: [{ name: 'b' }, { name: 'b' }] }], 'spec.groups[0].subGroups[1]: duplicate of spec.groups[0].subGroups[0] ("b")'],
    ['a role listed twice', [{ name: 'a', realmRoles: ['x', 'x'] }], 'spec.groups[0].realmRoles[1]: duplicate of spec.groups[0].realmRoles[0] ("x")'],
    ['a client role that is no string', [{ name: 'a', clientRoles: { shop: [1] } }], 'spec.groups[0].clientRoles.shop[0]: expected a string of at least 1 character, got 1'],
    ['groups six deep', [{ name: '1', subGroups: [{ name: '2', subGroups: [{ name: '3', subGroups: [{ name: '4', subGroups: [{ name: '5', subGroups: [{ name: '6' }] }] }] }] }] }], 'spec.groups[0].subGroups[0].subGroups[0].subGroups[0].subGroups[0].subGroups: groups nest at most 5 levels deep'],
  ])('names the field of %s', (_what, groups, message) => {
    expect(rejection(groups)).toBe(message);
  });
});

describe('groups against the in-memory Keycloak', () => {
  it('converge, make no writes once converged, and a change made by hand is undone', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    const ref = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    w.put(keycloakRealmType, { metadata: { name: 'shared', namespace: 'platform' }, spec: { realmName: 'shared', realmRoles: [{ name: 'viewer' }, { name: 'admin' }], groups: spec.groups.map((g) => ({ ...g, clientRoles: {} })) } });
    const keycloak: SimulatedKeycloak = w.apis.keycloak;
    const converge = async (): Promise<number> => (await convergeRealm(w, ref, clock, { ...config, keycloakOperatorNamespace: 'keyward-system' })).length;
    await converge();
    const writes = keycloak.writes;
    expect(await converge()).toBe(1);
    expect(keycloak.writes).toBe(writes);

    keycloak.editGroup('shared', '/staff/leads', (rep, roles) => {
      rep['attributes'] = {};
      roles.realm.add('viewer');
    });
    await converge();
    expect(keycloak.writes).toBe(writes + 2);
  });
});
