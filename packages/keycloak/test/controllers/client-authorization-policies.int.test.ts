// KeycloakClient authorizationSettings policies and permissions with core's runtime, against the real
// kube-apiserver and Keycloak 26: role, user, group and client policies and resource and scope permissions
// created by name and shown to work by Keycloak's policy evaluation, updated, pruned only where the spec made
// them, a change made by hand undone, and no writes once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientRef, createClient, createRealm, patchSpec, realmRef, startRealmTestFile, statusOf, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

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
          { name: 'readers', type: 'role', description: 'Who reads', roles: [{ name: 'reader', required: true }] },
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
    expect(JSON.parse(String((made.get('readers')?.['config'] as Json)['roles']))).toEqual([{ id: roleId, required: true }]);
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
});
