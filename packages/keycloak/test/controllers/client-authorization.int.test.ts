// KeycloakClient authorizationSettings with core's runtime, against the real kube-apiserver and Keycloak 26:
// the resource server's settings, scopes and resources created and shown to work by Keycloak's policy
// evaluation, updated, pruned only where the spec made them, a change made by hand undone, no writes once
// converged, and what the spec never listed (made by hand) left as it is.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientRef, createClient, createRealm, patchSpec, realmRef, startRealmTestFile, statusOf, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcz', 'authz');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

type Json = Record<string, unknown>;

const MARKER = 'io.kubernetes.managed-by';

describe('KeycloakClient authorizationSettings against the real Keycloak and API server', () => {
  it('creates settings, scopes and resources that Keycloak evaluates, updates and prunes only its own, repairs a change made by hand, and then writes nothing', async () => {
    const realm = file.newRealmName('kcz');
    await createRealm(env.kube, namespace, 'authz-realm', { realmName: realm, clientAuthorizationGrants: [namespace] });
    await waitForReady(env.kube, realmRef(namespace, 'authz-realm'));
    const clientId = 'documents';
    const ref = clientRef(namespace, 'documents');
    await createClient(env.kube, namespace, 'documents', {
      clientId,
      realmRef: { name: 'authz-realm' },
      settings: { serviceAccountsEnabled: true },
      authorizationSettings: {
        policyEnforcementMode: 'PERMISSIVE',
        decisionStrategy: 'AFFIRMATIVE',
        allowRemoteResourceManagement: false,
        scopes: [{ name: 'read', displayName: 'Read' }, { name: 'write', iconUri: 'https://icons.example.com/write.png' }],
        resources: [
          { name: 'doc', displayName: 'Documents', type: 'urn:documents:doc', uris: ['/doc/*'], scopes: ['read', 'write'], attributes: { team: 'a' } },
          { name: 'report', scopes: ['read'], ownerManagedAccess: true },
        ],
      },
    });
    const created = await waitForReady(env.kube, ref);
    const uuid = String(statusOf(created)['clientUuid']);
    const server = `/realms/${realm}/clients/${uuid}/authz/resource-server`;
    const settings = async (): Promise<Json> => (await env.admin.get<Json>(server)) ?? {};
    const scopes = async (): Promise<Map<string, Json>> => new Map(((await env.admin.get<Json[]>(`${server}/scope`)) ?? []).map((scope) => [String(scope['name']), scope]));
    const resources = async (): Promise<Map<string, Json>> => new Map(((await env.admin.get<Json[]>(`${server}/resource`)) ?? []).map((resource) => [String(resource['name']), resource]));
    const scopeNamesOf = (resource: Json | undefined): string[] => ((resource?.['scopes'] as Json[] | undefined) ?? []).map((scope) => String(scope['name'])).sort();

    expect(await settings()).toMatchObject({ policyEnforcementMode: 'PERMISSIVE', decisionStrategy: 'AFFIRMATIVE', allowRemoteResourceManagement: false });
    expect((await scopes()).get('read')).toMatchObject({ displayName: 'Read' });
    expect((await scopes()).get('write')).toMatchObject({ iconUri: 'https://icons.example.com/write.png' });
    const doc = (await resources()).get('doc');
    expect(doc).toMatchObject({ displayName: 'Documents', type: 'urn:documents:doc', uris: ['/doc/*'], ownerManagedAccess: false, attributes: { team: ['a'], [MARKER]: ['keyward'] } });
    expect((await resources()).get('report')).toMatchObject({ ownerManagedAccess: true });
    expect(scopeNamesOf(doc)).toEqual(['read', 'write']);
    expect(statusOf(created)['managed']).toEqual({ authorizationScopes: ['read', 'write'], authorizationResources: ['doc', 'report'] });

    // Keycloak evaluates them: in PERMISSIVE mode a resource no permission covers is granted with its scopes
    // (one with ownerManagedAccess is left to its owner's grants, and is not).
    expect(await env.admin.send('POST', `/realms/${realm}/users`, { username: 'alice', enabled: true })).toBe(201);
    const userId = String((await env.admin.get<Json[]>(`/realms/${realm}/users`, { username: 'alice', exact: 'true' }))?.[0]?.['id']);
    const allowedScopes = async (resource: Json | undefined): Promise<string[]> => {
      const answer = await env.admin.post<{ results?: Json[] }>(`${server}/policy/evaluate`, { userId, clientId: uuid, resources: [{ name: resource?.['name'] }] });
      const result = answer.results?.find((entry) => (entry['resource'] as Json | undefined)?.['_id'] === resource?.['_id']);
      return ((result?.['allowedScopes'] as Json[] | undefined) ?? []).map((scope) => String(scope['name'])).sort();
    };
    expect(await allowedScopes(doc)).toEqual(['read', 'write']);

    // Scopes and resources made by hand (as Keycloak's console or a resource server's own API would) are not the spec's.
    expect(await env.admin.send('POST', `${server}/scope`, { name: 'by-hand' })).toBe(201);
    expect(await env.admin.send('POST', `${server}/resource`, { name: 'Default Resource', type: 'urn:documents:resources:default', uris: ['/*'], scopes: [{ name: 'by-hand' }] })).toBe(201);

    const before = operator.requests.length;
    const again = await operator.reconcileClient(namespace, 'documents');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    // Update: a scope changed, one scope and one resource no longer listed.
    await patchSpec(env.kube, ref, {
      authorizationSettings: {
        decisionStrategy: 'UNANIMOUS',
        scopes: [{ name: 'read', displayName: 'Read documents' }],
        resources: [{ name: 'doc', displayName: 'Documents', type: 'urn:documents:doc', uris: ['/doc/*', '/docs/*'], scopes: ['read'], attributes: { team: 'a' } }],
      },
    });
    const updated = await waitForReady(env.kube, ref);
    expect(await settings()).toMatchObject({ policyEnforcementMode: 'PERMISSIVE', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: false });
    const scopesAfter = await scopes();
    expect([...scopesAfter.keys()].sort()).toEqual(['by-hand', 'read']);
    expect(scopesAfter.get('read')).toMatchObject({ displayName: 'Read documents' });
    const resourcesAfter = await resources();
    expect([...resourcesAfter.keys()].sort()).toEqual(['Default Resource', 'doc']);
    expect(scopeNamesOf(resourcesAfter.get('doc'))).toEqual(['read']);
    expect(resourcesAfter.get('doc')).toMatchObject({ uris: expect.arrayContaining(['/doc/*', '/docs/*']) as unknown });
    expect(scopeNamesOf(resourcesAfter.get('Default Resource'))).toEqual(['by-hand']);
    expect(await allowedScopes(resourcesAfter.get('doc'))).toEqual(['read']);
    expect(statusOf(updated)['managed']).toEqual({ authorizationScopes: ['read'], authorizationResources: ['doc'] });

    // A change made by hand is undone by the next reconcile (the controller's own, woken by its status write,
    // may run beside the test's and make part of the repair): only what was changed is written.
    const handChange = operator.requests.length;
    const docId = String(resourcesAfter.get('doc')?.['_id']);
    expect(await env.admin.send('PUT', `${server}/resource/${docId}`, { name: 'doc', uris: ['/elsewhere'], attributes: { [MARKER]: ['keyward'] } })).toBe(204);
    expect(await env.admin.send('PUT', server, { policyEnforcementMode: 'ENFORCING', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: true })).toBe(204);
    await operator.reconcileClient(namespace, 'documents');
    expect([...new Set(writesIn(operator.requests.slice(handChange)))].sort()).toEqual(['update_authorizationResource', 'update_authorizationSettings']);
    expect(await settings()).toMatchObject({ policyEnforcementMode: 'PERMISSIVE', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: false });
    const repaired = (await resources()).get('doc');
    expect(repaired).toMatchObject({ displayName: 'Documents', type: 'urn:documents:doc', uris: expect.arrayContaining(['/doc/*', '/docs/*']) as unknown, attributes: { team: ['a'], [MARKER]: ['keyward'] } });
    expect(scopeNamesOf(repaired)).toEqual(['read']);

    const settled = operator.requests.length;
    const quiet = await operator.reconcileClient(namespace, 'documents');
    expect(quiet.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests.slice(settled))).toEqual([]);
  });
});
