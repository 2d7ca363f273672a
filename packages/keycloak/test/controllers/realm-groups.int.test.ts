// KeycloakRealm groups with core's runtime, against the real kube-apiserver and Keycloak 26: nested groups
// created with attributes and realm and client roles, updated (roles granted and revoked as the spec
// states), pruned only where we made them, a change made by hand undone, and no writes once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRealm, patchSpec, realmRef, startRealmTestFile, statusOf, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcg', 'groups');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

/** Reconciles the controllers ran from their queues (not those a test asks for). */
const queuedReconciles = (): number => [...operator.reconciles.values()].reduce((sum, n) => sum + n, 0);

const newRealmName = (prefix: string): string => file.newRealmName(prefix);

type Json = Record<string, unknown>;

interface GroupView {
  readonly id: string;
  readonly attributes: Json;
  readonly realmRoles: string[];
  readonly clientRoles: Json;
}

const sorted = (value: unknown): string[] => (Array.isArray(value) ? value.map(String).sort() : []);

function viewOf(groups: readonly Json[]): Map<string, GroupView> {
  return new Map(groups.map((g) => [String(g['name']), {
    id: String(g['id']),
    attributes: (g['attributes'] as Json | undefined) ?? {},
    realmRoles: sorted(g['realmRoles']),
    clientRoles: (g['clientRoles'] as Json | undefined) ?? {},
  }]));
}

/** The realm's top-level groups, by name, as Keycloak holds them. */
const topGroups = async (realm: string): Promise<Map<string, GroupView>> => viewOf((await env.admin.get<Json[]>(`/realms/${realm}/groups`, { briefRepresentation: 'false' })) ?? []);
/** A group's subgroups, by name. */
const subGroups = async (realm: string, id: string): Promise<Map<string, GroupView>> =>
  viewOf((await env.admin.get<Json[]>(`/realms/${realm}/groups/${id}/children`, { briefRepresentation: 'false', max: '100' })) ?? []);

const MARKER = { 'io.kubernetes.managed-by': ['keyward'] };

describe('KeycloakRealm groups against the real Keycloak and API server', () => {
  it('creates nested groups with attributes and roles, updates them, prunes only its own, repairs a change made by hand, and then writes nothing', async () => {
    const realm = newRealmName('kcg-groups');
    const ref = realmRef(namespace, 'groups');
    await createRealm(env.kube, namespace, 'groups', {
      realmName: realm,
      realmRoles: [{ name: 'viewer' }, { name: 'admin' }, { name: 'auditor' }],
      groups: [
        {
          name: 'staff',
          attributes: { dept: 'ops' },
          realmRoles: ['viewer'],
          clientRoles: { broker: ['read-token'] },
          subGroups: [{ name: 'leads', realmRoles: ['admin'] }, { name: 'interns' }],
        },
        { name: 'guests' },
      ],
    });
    await waitForReady(env.kube, ref);
    const created = await topGroups(realm);
    expect([...created.keys()].sort()).toEqual(['guests', 'staff']);
    const staff = created.get('staff');
    expect(staff).toMatchObject({ attributes: { dept: ['ops'], ...MARKER }, realmRoles: ['viewer'], clientRoles: { broker: ['read-token'] } });
    const staffId = staff?.id ?? '';
    const children = await subGroups(realm, staffId);
    expect([...children.keys()].sort()).toEqual(['interns', 'leads']);
    expect(children.get('leads')).toMatchObject({ attributes: MARKER, realmRoles: ['admin'] });

    // Made by hand: a group beside ours and one among staff's subgroups. Neither is ours to remove.
    expect(await env.admin.send('POST', `/realms/${realm}/groups`, { name: 'by-hand' })).toBe(201);
    expect(await env.admin.send('POST', `/realms/${realm}/groups/${staffId}/children`, { name: 'manual' })).toBe(201);

    const converged = operator.requests.length;
    const queuedBefore = queuedReconciles();
    const again = await operator.reconcileRealm(namespace, 'groups');
    expect(again.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`)).toEqual([]);
    const resync = operator.requests.slice(converged);
    expect(writesIn(resync)).toEqual([]);
    // Per reconcile (ours, and any the status write of Ready woke meanwhile): the top-level list and staff's
    // subgroups, the only group whose subgroups the spec lists.
    const reconciles = 1 + queuedReconciles() - queuedBefore;
    const groupReads = resync.map((r) => r.operation).filter((op) => op.includes('group'));
    expect(groupReads.filter((op) => op === 'list_groups')).toHaveLength(reconciles);
    expect(groupReads.filter((op) => op === 'list_group_children')).toHaveLength(reconciles);
    expect(groupReads).toHaveLength(2 * reconciles);

    await patchSpec(env.kube, ref, {
      groups: [
        { name: 'staff', attributes: { dept: 'sales' }, realmRoles: ['viewer', 'auditor'], clientRoles: {}, subGroups: [{ name: 'leads', realmRoles: ['admin'] }] },
      ],
    });
    await waitForReady(env.kube, ref);
    const updated = await topGroups(realm);
    expect([...updated.keys()].sort()).toEqual(['by-hand', 'staff']);
    expect(updated.get('staff')).toMatchObject({ id: staffId, attributes: { dept: ['sales'], ...MARKER }, realmRoles: ['auditor', 'viewer'], clientRoles: {} });
    expect([...(await subGroups(realm, staffId)).keys()].sort()).toEqual(['leads', 'manual']);

    // By hand: staff loses its attributes (our marker too), leads gets a role the spec does not map to it.
    const byHand = operator.requests.length;
    expect(await env.admin.send('PUT', `/realms/${realm}/groups/${staffId}`, { name: 'staff', attributes: {} })).toBe(204);
    const leadsId = (await subGroups(realm, staffId)).get('leads')?.id ?? '';
    const viewer = await env.admin.get<Json>(`/realms/${realm}/roles/viewer`);
    expect(await env.admin.send('POST', `/realms/${realm}/groups/${leadsId}/role-mappings/realm`, [viewer])).toBe(204);
    // A reconcile the Ready status write woke may run beside ours, and repair some or all of it too.
    await operator.reconcileRealm(namespace, 'groups');
    expect(new Set(writesIn(operator.requests.slice(byHand)))).toEqual(new Set(['update_group', 'revoke_roles']));
    expect((await topGroups(realm)).get('staff')).toMatchObject({ attributes: { dept: ['sales'], ...MARKER } });
    expect((await subGroups(realm, staffId)).get('leads')).toMatchObject({ realmRoles: ['admin'] });

    await waitForReady(env.kube, ref);
    const before = operator.requests.length;
    const last = await operator.reconcileRealm(namespace, 'groups');
    expect(last.plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
  });

  it('reads no groups for a realm whose spec lists none, and removes its own only when told to prune', async () => {
    const realm = newRealmName('kcg-none');
    const ref = realmRef(namespace, 'none');
    await createRealm(env.kube, namespace, 'none', { realmName: realm, groups: [{ name: 'team' }] });
    await waitForReady(env.kube, ref);
    expect(await env.admin.send('POST', `/realms/${realm}/groups`, { name: 'by-hand' })).toBe(201);

    // An empty list manages nothing: the group stays, and no group is read.
    await patchSpec(env.kube, ref, { groups: [] });
    await waitForReady(env.kube, ref);
    const before = operator.requests.length;
    await operator.reconcileRealm(namespace, 'none');
    expect(operator.requests.slice(before).filter((r) => r.operation.includes('group'))).toEqual([]);
    expect([...(await topGroups(realm)).keys()].sort()).toEqual(['by-hand', 'team']);

    await patchSpec(env.kube, ref, { pruneUnlisted: ['groups'] });
    await waitForReady(env.kube, ref);
    expect([...(await topGroups(realm)).keys()]).toEqual(['by-hand']);
  });

  it('adds default groups and default roles, removes only those it listed before, repairs one taken by hand, and then writes nothing', async () => {
    const realm = newRealmName('kcg-defaults');
    const ref = realmRef(namespace, 'defaults');
    const defaultRole = `/realms/${realm}/roles/default-roles-${realm}/composites`;
    const defaultGroups = async (): Promise<string[]> => ((await env.admin.get<Json[]>(`/realms/${realm}/default-groups`)) ?? []).map((g) => String(g['path'])).sort();
    const defaultRoles = async (): Promise<string[]> => ((await env.admin.get<Json[]>(defaultRole)) ?? []).map((r) => String(r['name'])).sort();
    await createRealm(env.kube, namespace, 'defaults', {
      realmName: realm,
      realmRoles: [{ name: 'viewer' }, { name: 'auditor' }],
      groups: [{ name: 'staff', subGroups: [{ name: 'leads' }] }],
      defaultGroups: ['/staff/leads'],
      defaultRoles: { realmRoles: ['viewer'], clientRoles: { broker: ['read-token'] } },
    });
    await waitForReady(env.kube, ref);
    expect(await defaultGroups()).toEqual(['/staff/leads']);
    // Keycloak's own defaults stay beside the spec's.
    expect(await defaultRoles()).toEqual(['manage-account', 'offline_access', 'read-token', 'uma_authorization', 'view-profile', 'viewer']);

    // By hand: /staff becomes a default group, auditor a default role.
    const staffId = (await topGroups(realm)).get('staff')?.id ?? '';
    expect(await env.admin.send('PUT', `/realms/${realm}/default-groups/${staffId}`)).toBe(204);
    const auditor = await env.admin.get<Json>(`/realms/${realm}/roles/auditor`);
    expect(await env.admin.send('POST', defaultRole, [auditor])).toBe(204);
    const converged = operator.requests.length;
    expect((await operator.reconcileRealm(namespace, 'defaults')).plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(converged))).toEqual([]);

    // The listed default group goes, the one added by hand stays; viewer goes, auditor is now the spec's,
    // read-token stays as clientRoles is no longer stated.
    await patchSpec(env.kube, ref, { defaultGroups: [], defaultRoles: { realmRoles: ['auditor'], clientRoles: null } });
    const updated = await waitForReady(env.kube, ref);
    expect(await defaultGroups()).toEqual(['/staff']);
    expect(await defaultRoles()).toEqual(['auditor', 'manage-account', 'offline_access', 'read-token', 'uma_authorization', 'view-profile']);
    expect(statusOf(updated)['managed']).toEqual({ defaultGroups: [], defaultRoles: { realmRoles: ['auditor'] } });

    const byHand = operator.requests.length;
    expect(await env.admin.send('DELETE', defaultRole, [auditor])).toBe(204);
    await operator.reconcileRealm(namespace, 'defaults');
    // A reconcile the Ready status write woke may have granted it beside ours.
    expect(new Set(writesIn(operator.requests.slice(byHand)))).toEqual(new Set(['grant_roles']));
    expect(await defaultRoles()).toContain('auditor');

    await waitForReady(env.kube, ref);
    const before = operator.requests.length;
    expect((await operator.reconcileRealm(namespace, 'defaults')).plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
  });

  it('maps roles to the scope of a client scope and of a client, unmaps only what it mapped, and then writes nothing', async () => {
    const realm = newRealmName('kcg-scopes');
    const ref = realmRef(namespace, 'scopes');
    const names = (mappings: Json | undefined): string[] => [
      ...((mappings?.['realmMappings'] as Json[] | undefined) ?? []).map((r) => String(r['name'])),
      ...Object.entries((mappings?.['clientMappings'] as Record<string, Json> | undefined) ?? {}).flatMap(([clientId, entry]) => ((entry['mappings'] as Json[] | undefined) ?? []).map((r) => `${clientId}/${String(r['name'])}`)),
    ].sort();
    const scopeOf = async (path: string): Promise<string[]> => names(await env.admin.get<Json>(`${path}/scope-mappings`));
    await createRealm(env.kube, namespace, 'scopes', {
      realmName: realm,
      realmRoles: [{ name: 'viewer' }, { name: 'auditor' }],
      clientScopes: [{ name: 'api' }],
      scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer'], clientRoles: { 'realm-management': ['view-users'] } }],
    });
    await waitForReady(env.kube, ref);
    const scopes = (await env.admin.get<Json[]>(`/realms/${realm}/client-scopes`)) ?? [];
    const api = `/realms/${realm}/client-scopes/${String(scopes.find((scope) => scope['name'] === 'api')?.['id'])}`;
    expect(await scopeOf(api)).toEqual(['realm-management/view-users', 'viewer']);

    // By hand: a client, and auditor in api's scope.
    expect(await env.admin.send('POST', `/realms/${realm}/clients`, { clientId: 'web', fullScopeAllowed: false })).toBe(201);
    const web = `/realms/${realm}/clients/${String((await env.admin.client(realm, 'web'))?.['id'])}`;
    const auditor = await env.admin.get<Json>(`/realms/${realm}/roles/auditor`);
    expect(await env.admin.send('POST', `${api}/scope-mappings/realm`, [auditor])).toBe(204);
    const converged = operator.requests.length;
    expect((await operator.reconcileRealm(namespace, 'scopes')).plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(converged))).toEqual([]);

    // viewer leaves api's scope (auditor, mapped by hand, stays; clientRoles is no longer stated), web gets viewer.
    await patchSpec(env.kube, ref, { scopeMappings: [{ clientScope: 'api', realmRoles: [] }, { client: 'web', realmRoles: ['viewer'] }] });
    await waitForReady(env.kube, ref);
    expect(await scopeOf(api)).toEqual(['auditor', 'realm-management/view-users']);
    expect(await scopeOf(web)).toEqual(['viewer']);

    // An entry the spec drops loses all it mapped.
    await patchSpec(env.kube, ref, { scopeMappings: [{ clientScope: 'api', realmRoles: [] }] });
    const dropped = await waitForReady(env.kube, ref);
    expect(await scopeOf(web)).toEqual([]);
    expect(statusOf(dropped)['managed']).toEqual({ scopeMappings: [{ clientScope: 'api', realmRoles: [] }] });

    const before = operator.requests.length;
    expect((await operator.reconcileRealm(namespace, 'scopes')).plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
  });
});
