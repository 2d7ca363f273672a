// KeycloakClient authorizationSettings policies and permissions with core's runtime, against the real
// kube-apiserver and Keycloak 26: role, user, group and client policies and resource and scope permissions
// created by name and shown to work by Keycloak's policy evaluation, updated, pruned only where the spec made
// them, a change made by hand undone, and no writes once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace } from '@keyward/test-env';
import { clientRef, conditionOf, createClient, createRealm, patchSpec, realmRef, startOperator, startRealmTestFile, statusOf, waitForObject, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcp', 'authzp');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

type Json = Record<string, unknown>;

const MARKER = '[io.kubernetes.managed-by=keyward]';

describe('KeycloakClient authorization policies and permissions against the real Keycloak and API server', () => {
  it('creates policies and permissions that Keycloak evaluates, updates and prunes only its own, repairs a change made by hand, and then writes nothing', async () => {
    const realm = file.newRealmName('kcp');
    await createRealm(env.kube, namespace, 'policies-realm', { realmName: realm, clientAuthorizationGrants: [namespace] });
    await waitForReady(env.kube, realmRef(namespace, 'policies-realm'));
    const base = `/realms/${realm}`;
    // Roles, a group and users made by hand: alice is a reader in /team, bob a writer.
    for (const role of ['reader', 'writer']) expect(await env.admin.send('POST', `${base}/roles`, { name: role })).toBe(201);
    expect(await env.admin.send('POST', `${base}/groups`, { name: 'team' })).toBe(201);
    const userIds = new Map<string, string>();
    for (const [username, role] of [['alice', 'reader'], ['bob', 'writer']] as const) {
      expect(await env.admin.send('POST', `${base}/users`, { username, enabled: true })).toBe(201);
      const id = String((await env.admin.get<Json[]>(`${base}/users`, { username, exact: 'true' }))?.[0]?.['id']);
      userIds.set(username, id);
      const roleRep = await env.admin.get<Json>(`${base}/roles/${role}`);
      expect(await env.admin.send('POST', `${base}/users/${id}/role-mappings/realm`, [roleRep])).toBe(204);
    }

    const ref = clientRef(namespace, 'documents');
    const settings = (policies: Json[], permissions: Json[]): Json => ({
      scopes: [{ name: 'read' }],
      resources: [{ name: 'doc', scopes: ['read'] }],
      policies,
      permissions,
    });
    await createClient(env.kube, namespace, 'documents', {
      clientId: 'documents',
      realmRef: { name: 'policies-realm' },
      settings: { serviceAccountsEnabled: true },
      authorizationSettings: settings(
        [
          // A client's role is named clientId/role.
          { name: 'readers', type: 'role', description: 'Who reads', roles: [{ name: 'reader', required: true }, { name: 'realm-management/view-users' }] },
          { name: 'only-alice', type: 'user', users: ['alice'] },
          { name: 'team-members', type: 'group', groups: [{ path: '/team', extendChildren: true }] },
          { name: 'by-client', type: 'client', logic: 'NEGATIVE', clients: ['documents'] },
        ],
        [
          { name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers'] },
          { name: 'read-access', type: 'scope', scopes: ['read'], policies: ['only-alice', 'team-members'], decisionStrategy: 'AFFIRMATIVE' },
        ],
      ),
    });
    const created = await waitForReady(env.kube, ref);
    const uuid = String(statusOf(created)['clientUuid']);
    const server = `${base}/clients/${uuid}/authz/resource-server`;
    const policies = async (): Promise<Map<string, Json>> => new Map(((await env.admin.get<Json[]>(`${server}/policy`)) ?? []).map((policy) => [String(policy['name']), policy]));
    const decision = async (username: string): Promise<unknown> =>
      (await env.admin.post<Json>(`${server}/policy/evaluate`, { userId: userIds.get(username), clientId: uuid, resources: [{ name: 'doc' }] }))['status'];

    const made = await policies();
    expect([...made.keys()].sort()).toEqual(['by-client', 'doc-access', 'only-alice', 'read-access', 'readers', 'team-members']);
    expect(made.get('readers')).toMatchObject({ type: 'role', description: `Who reads ${MARKER}`, logic: 'POSITIVE' });
    expect(made.get('by-client')).toMatchObject({ type: 'client', description: MARKER, logic: 'NEGATIVE' });
    expect(made.get('read-access')).toMatchObject({ type: 'scope', decisionStrategy: 'AFFIRMATIVE' });
    // Keycloak answers with ids where it took names.
    const roleId = String((await env.admin.get<Json>(`${base}/roles/reader`))?.['id']);
    const managementId = String((await env.admin.client(realm, 'realm-management'))?.['id']);
    const viewUsersId = String((await env.admin.get<Json>(`${base}/clients/${managementId}/roles/view-users`))?.['id']);
    const madeRoles = JSON.parse(String((made.get('readers')?.['config'] as Json)['roles'])) as Json[];
    expect(madeRoles.sort((a, b) => Number(b['required']) - Number(a['required']))).toEqual([{ id: roleId, required: true }, { id: viewUsersId, required: false }]);
    const associated = await env.admin.get<Json[]>(`${server}/policy/${String(made.get('read-access')?.['id'])}/associatedPolicies`);
    expect((associated ?? []).map((policy) => policy['name']).sort()).toEqual(['only-alice', 'team-members']);

    // Keycloak evaluates them: alice (a reader) is granted the document, bob (a writer) is not.
    expect(await decision('alice')).toBe('PERMIT');
    expect(await decision('bob')).toBe('DENY');

    // A policy made by hand is not the spec's.
    expect(await env.admin.send('POST', `${server}/policy/user`, { name: 'by-hand', users: ['bob'] })).toBe(201);

    const before = operator.requests.length;
    const again = await operator.reconcileClient(namespace, 'documents');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    // Update: readers are now the writers; the client policy and the scope permission are no longer listed.
    await patchSpec(env.kube, ref, {
      authorizationSettings: settings(
        [
          { name: 'readers', type: 'role', description: 'Who reads', roles: [{ name: 'writer' }] },
          { name: 'only-alice', type: 'user', users: ['alice'] },
          { name: 'team-members', type: 'group', groups: [{ path: '/team', extendChildren: true }] },
        ],
        [{ name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers'] }],
      ),
    });
    await waitForReady(env.kube, ref);
    const updated = await policies();
    expect([...updated.keys()].sort()).toEqual(['by-hand', 'doc-access', 'only-alice', 'readers', 'team-members']);
    const writerId = String((await env.admin.get<Json>(`${base}/roles/writer`))?.['id']);
    expect(JSON.parse(String((updated.get('readers')?.['config'] as Json)['roles']))).toEqual([{ id: writerId, required: false }]);
    expect(await decision('alice')).toBe('DENY');
    expect(await decision('bob')).toBe('PERMIT');

    // A change made by hand is undone by the next reconcile; only that policy is written.
    const handChange = operator.requests.length;
    const aliceOnly = String(updated.get('only-alice')?.['id']);
    expect(await env.admin.send('PUT', `${server}/policy/user/${aliceOnly}`, { id: aliceOnly, name: 'only-alice', description: 'changed by hand', users: ['bob'], logic: 'POSITIVE' })).toBe(201);
    await operator.reconcileClient(namespace, 'documents');
    expect([...new Set(writesIn(operator.requests.slice(handChange)))]).toEqual(['update_authorizationPolicy']);
    const repaired = (await policies()).get('only-alice');
    expect(repaired).toMatchObject({ description: MARKER });
    expect(JSON.parse(String((repaired?.['config'] as Json)['users']))).toEqual([userIds.get('alice')]);

    const settled = operator.requests.length;
    const quiet = await operator.reconcileClient(namespace, 'documents');
    expect(quiet.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(settled))).toEqual([]);
  });
  it('manages time, regex and aggregate policies: an aggregate over a role and a time policy grants only inside the time', async () => {
    const realm = file.newRealmName('kct');
    await createRealm(env.kube, namespace, 'time-realm', { realmName: realm, clientAuthorizationGrants: [namespace] });
    await waitForReady(env.kube, realmRef(namespace, 'time-realm'));
    const base = `/realms/${realm}`;
    expect(await env.admin.send('POST', `${base}/roles`, { name: 'reader' })).toBe(201);
    expect(await env.admin.send('POST', `${base}/users`, { username: 'carol', enabled: true })).toBe(201);
    const carol = String((await env.admin.get<Json[]>(`${base}/users`, { username: 'carol', exact: 'true' }))?.[0]?.['id']);
    expect(await env.admin.send('POST', `${base}/users/${carol}/role-mappings/realm`, [await env.admin.get<Json>(`${base}/roles/reader`)])).toBe(204);

    const ref = clientRef(namespace, 'timed');
    const spec = (window: Json, aggregate: Json[]): Json => ({
      resources: [{ name: 'doc' }],
      policies: [
        { name: 'within', type: 'time', ...window },
        { name: 'readers', type: 'role', roles: [{ name: 'reader' }] },
        { name: 'claims', type: 'regex', targetClaim: 'email', pattern: '.*@example\\.com' },
        ...aggregate,
      ],
      permissions: [{ name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers-within'] }],
    });
    const both = [{ name: 'readers-within', type: 'aggregate', policies: ['readers', 'within'], decisionStrategy: 'UNANIMOUS' }];
    await createClient(env.kube, namespace, 'timed', {
      clientId: 'timed',
      realmRef: { name: 'time-realm' },
      settings: { serviceAccountsEnabled: true },
      authorizationSettings: spec({ notBefore: '2000-01-01 00:00:00', year: 2000, yearEnd: 2999 }, both),
    });
    const created = await waitForReady(env.kube, ref);
    const uuid = String(statusOf(created)['clientUuid']);
    const server = `${base}/clients/${uuid}/authz/resource-server`;
    const policies = async (): Promise<Map<string, Json>> => new Map(((await env.admin.get<Json[]>(`${server}/policy`)) ?? []).map((policy) => [String(policy['name']), policy]));
    const decision = async (): Promise<unknown> => (await env.admin.post<Json>(`${server}/policy/evaluate`, { userId: carol, clientId: uuid, resources: [{ name: 'doc' }] }))['status'];

    const made = await policies();
    expect(made.get('within')).toMatchObject({ type: 'time', config: { nbf: '2000-01-01 00:00:00', year: '2000', yearEnd: '2999' } });
    expect(made.get('claims')).toMatchObject({ type: 'regex', config: { targetClaim: 'email', pattern: '.*@example\\.com' } });
    expect(made.get('readers-within')).toMatchObject({ type: 'aggregate', decisionStrategy: 'UNANIMOUS' });
    expect(await decision()).toBe('PERMIT');

    const before = operator.requests.length;
    const again = await operator.reconcileClient(namespace, 'timed');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    // The time has passed: the aggregate (all of its policies) no longer grants.
    await patchSpec(env.kube, ref, { authorizationSettings: spec({ notBefore: '2000-01-01 00:00:00', notOnOrAfter: '2001-01-01 00:00:00' }, both) });
    await waitForReady(env.kube, ref);
    expect((await policies()).get('within')).toMatchObject({ config: { nbf: '2000-01-01 00:00:00', noa: '2001-01-01 00:00:00' } });
    expect(await decision()).toBe('DENY');

    // The aggregate no longer listed is removed; a permission naming only it is left naming nothing, so
    // the spec points it at the role policy.
    const patched = spec({ notBefore: '2000-01-01 00:00:00' }, []);
    await patchSpec(env.kube, ref, { authorizationSettings: { ...patched, permissions: [{ name: 'doc-access', type: 'resource', resources: ['doc'], policies: ['readers'] }] } });
    await waitForReady(env.kube, ref);
    const pruned = await policies();
    expect([...pruned.keys()].sort()).toEqual(['claims', 'doc-access', 'readers', 'within']);
    // A bound the spec stops stating is gone: the update replaced the policy whole.
    expect(pruned.get('within')?.['config']).toEqual({ nbf: '2000-01-01 00:00:00' });
    expect(await decision()).toBe('PERMIT');

    const settled = operator.requests.length;
    const quiet = await operator.reconcileClient(namespace, 'timed');
    expect(quiet.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(settled))).toEqual([]);
  });
  it('stalls a client stating a JavaScript policy unless the operator allows them; allowed, Keycloak 26.7 answers 404 and the failure says why', async () => {
    const allowedNamespace = await createTestNamespace('kcp-js');
    const realm = file.newRealmName('kcj');
    await createRealm(env.kube, namespace, 'js-realm', { realmName: realm, clientAuthorizationGrants: [namespace, allowedNamespace] });
    await waitForReady(env.kube, realmRef(namespace, 'js-realm'));
    const scripted = (clientId: string): Json => ({
      clientId,
      realmRef: { name: 'js-realm', namespace },
      settings: { serviceAccountsEnabled: true },
      authorizationSettings: { policies: [{ name: 'scripted', type: 'js', code: '$evaluation.grant();' }] },
    });
    await createClient(env.kube, namespace, 'scripted', scripted('scripted'));
    const stalled = await waitForObject(env.kube, clientRef(namespace, 'scripted'), 'the client stating a JavaScript policy to stall', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({ status: 'False', reason: 'JavaScriptPoliciesNotAllowed' });
    expect(conditionOf(stalled, 'Ready')?.message).toContain('--keycloak-allow-js-policies');
    expect(await env.admin.client(realm, 'scripted')).toBeUndefined();
    const events = await env.kube.raw<{ items: { reason: string; type: string; regarding: { name: string } }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
    expect(events.items.filter((event) => event.regarding.name === 'scripted' && event.reason === 'JavaScriptPoliciesNotAllowed').map((event) => event.type)).toEqual(['Warning']);

    // An operator that allows them sends the policy; Keycloak 26.7 has no JavaScript provider and answers 404.
    const allowing = await startOperator(env.kube, { name: 'authzp-js', namespaces: [allowedNamespace], config: { ...env.config(), keycloakAllowJsPolicies: true } });
    try {
      await createClient(env.kube, allowedNamespace, 'scripted', scripted('scripted-allowed'));
      const failed = await waitForObject(env.kube, clientRef(allowedNamespace, 'scripted'), 'the JavaScript policy to fail', (object) => conditionOf(object, 'Ready')?.message.includes('script provider') === true);
      expect(conditionOf(failed, 'Ready')?.message).toContain('404');
      const uuid = String((await env.admin.client(realm, 'scripted-allowed'))?.['id']);
      const names = ((await env.admin.get<Json[]>(`/realms/${realm}/clients/${uuid}/authz/resource-server/policy`)) ?? []).map((policy) => policy['name']);
      expect(names).toEqual([]);
    } finally {
      await allowing.stop();
    }
  });
});
