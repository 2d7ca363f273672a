// The KeycloakClient controller with core's runtime, against the real kube-apiserver and Keycloak 26: a client
// and its credentials Secret (whose secret works), an update and a deletion; a takeover from another granted
// namespace refused without the victim's secret ever being read; a grant added later healing a client;
// regenerateSecret firing once per token; and dangerous service-account roles refused unless the operator allows
// them. Each client namespace has an operator of its own, so the Keycloak requests made for it are told apart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import { CREDENTIALS_KEYS } from '../../src/index.js';
import {
  clientCredentialsWork,
  clientRef,
  conditionOf,
  controllerEnv,
  createClient,
  createRealm,
  credentialsSecretOf,
  patchSpec,
  realmRef,
  secretData,
  secretRef,
  startOperator,
  statusOf,
  unique,
  waitForGone,
  waitForObject,
  waitForReady,
  writeSecret,
  writesIn,
  WAIT_MS,
  type ControllerEnv,
  type Operator,
} from './harness.js';

let env: ControllerEnv;
let platform: string;
let teamA: string;
let teamB: string;
let teamC: string;
let realm: string;
const operators: Operator[] = [];
let teamAOperator: Operator;
/** Realms made by single tests, deleted from Keycloak when the file ends. */
const otherRealms: string[] = [];

beforeAll(async () => {
  env = await controllerEnv('kcc');
  [platform, teamA, teamB, teamC] = await Promise.all(['kcc-platform', 'kcc-team-a', 'kcc-team-b', 'kcc-team-c'].map((prefix) => createTestNamespace(prefix))) as [string, string, string, string];
  await start('platform', platform);
  teamAOperator = await start('team-a', teamA);
  realm = unique('kcc');
  await createRealm(env.kube, platform, 'shared', {
    realmName: realm,
    clientAuthorizationGrants: [teamA, teamB],
    realmRoles: [{ name: 'viewer' }, { name: 'editor' }],
  });
  await waitForReady(env.kube, realmRef(platform, 'shared'));
}, 120_000);

afterAll(async () => {
  for (const operator of operators) await operator.stop();
  await env.admin.deleteRealm(realm);
  for (const other of otherRealms) await env.admin.deleteRealm(other);
  env.close();
});

async function start(name: string, namespace: string): Promise<Operator> {
  const operator = await startOperator(env.kube, { name: `client-${name}`, namespaces: [namespace], config: env.config() });
  operators.push(operator);
  return operator;
}

const realmRefSpec = () => ({ name: 'shared', namespace: platform });

/** A confidential client with a service account: its secret can be tried with client_credentials. */
const confidential = (clientId: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  clientId,
  realmRef: realmRefSpec(),
  settings: { serviceAccountsEnabled: true, standardFlowEnabled: true },
  redirectUris: ['https://app.example.com/*'],
  ...extra,
});

const secretValue = (secret: KubeObject | undefined): string | undefined => secretData(secret, CREDENTIALS_KEYS.clientSecret);

describe('the KeycloakClient controller against the real Keycloak and API server', () => {
  it('creates a client with a working credentials Secret, applies an update, and deletes the client with its object', async () => {
    const clientId = unique('shop');
    const ref = clientRef(teamA, 'shop');
    await createClient(env.kube, teamA, 'shop', confidential(clientId, {
      clientName: 'Shop',
      description: 'the shop',
      webOrigins: ['https://app.example.com'],
      postLogoutRedirectUris: ['https://app.example.com/bye'],
      rootUrl: 'https://app.example.com',
      settings: { serviceAccountsEnabled: true, standardFlowEnabled: true, directAccessGrantsEnabled: false, pkceCodeChallengeMethod: 'S256', accessTokenLifespan: 300 },
      clientRoles: [{ name: 'buyer', description: 'buys' }],
      serviceAccountRoles: { realmRoles: ['viewer'] },
      attributes: { team: 'a' },
      secretMetadata: { labels: { app: 'shop' }, annotations: { owner: 'team-a' } },
    }));
    const ready = await waitForReady(env.kube, ref);
    expect(statusOf(ready)).toMatchObject({ realm, secretName: 'shop-credentials', endpoints: { issuer: `${env.url}/realms/${realm}` } });

    const secret = await credentialsSecretOf(env.kube, teamA, 'shop');
    expect(Object.keys((secret?.['data'] as Record<string, string> | undefined) ?? {}).sort()).toEqual(Object.values(CREDENTIALS_KEYS).sort());
    const issuer = `${env.url}/realms/${realm}`;
    expect(Object.fromEntries(Object.values(CREDENTIALS_KEYS).filter((key) => key !== CREDENTIALS_KEYS.clientSecret).map((key) => [key, secretData(secret, key)]))).toEqual({
      [CREDENTIALS_KEYS.clientId]: clientId,
      [CREDENTIALS_KEYS.keycloakUrl]: env.url,
      [CREDENTIALS_KEYS.realm]: realm,
      [CREDENTIALS_KEYS.issuer]: issuer,
      [CREDENTIALS_KEYS.tokenEndpoint]: `${issuer}/protocol/openid-connect/token`,
      [CREDENTIALS_KEYS.userinfoEndpoint]: `${issuer}/protocol/openid-connect/userinfo`,
      [CREDENTIALS_KEYS.jwksEndpoint]: `${issuer}/protocol/openid-connect/certs`,
    });
    expect(secret?.metadata.labels).toMatchObject({ app: 'shop' });
    expect(secret?.metadata.annotations).toMatchObject({ owner: 'team-a' });
    expect(secret?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'KeycloakClient', name: 'shop', uid: ready.metadata.uid, controller: true })]);
    const value = secretValue(secret);
    expect(value).toBe(await env.admin.clientSecret(realm, clientId));
    expect(await clientCredentialsWork(env.url, realm, clientId, value ?? '')).toBe(true);

    const created = await env.admin.client(realm, clientId);
    expect(created).toMatchObject({
      name: 'Shop',
      description: 'the shop',
      rootUrl: 'https://app.example.com',
      redirectUris: ['https://app.example.com/*'],
      webOrigins: ['https://app.example.com'],
      directAccessGrantsEnabled: false,
      serviceAccountsEnabled: true,
      attributes: expect.objectContaining({ team: 'a', 'pkce.code.challenge.method': 'S256', 'access.token.lifespan': '300', 'post.logout.redirect.uris': 'https://app.example.com/bye' }) as unknown,
    });
    const id = String(created?.['id']);
    expect(((await env.admin.get<Record<string, unknown>[]>(`/realms/${realm}/clients/${id}/roles`)) ?? []).map((r) => r['name'])).toEqual(['buyer']);
    const saUser = await env.admin.get(`/realms/${realm}/clients/${id}/service-account-user`);
    const saRealmRoles = (await env.admin.get<Record<string, unknown>[]>(`/realms/${realm}/users/${String(saUser?.['id'])}/role-mappings/realm`)) ?? [];
    expect(saRealmRoles.map((r) => r['name'])).toContain('viewer');

    await patchSpec(env.kube, ref, {
      clientName: 'Shop v2',
      redirectUris: ['https://shop.example.com/*', 'https://app.example.com/cb'],
      webOrigins: ['https://shop.example.com'],
      postLogoutRedirectUris: ['https://shop.example.com/bye'],
      settings: { serviceAccountsEnabled: true, standardFlowEnabled: true, directAccessGrantsEnabled: true, pkceCodeChallengeMethod: 'plain', accessTokenLifespan: 600 },
      serviceAccountRoles: { realmRoles: ['editor'] },
      attributes: { team: 'a2' },
    });
    await waitForReady(env.kube, ref);
    const updated = await env.admin.client(realm, clientId);
    expect(updated).toMatchObject({
      name: 'Shop v2',
      webOrigins: ['https://shop.example.com'],
      directAccessGrantsEnabled: true,
      attributes: expect.objectContaining({ team: 'a2', 'pkce.code.challenge.method': 'plain', 'access.token.lifespan': '600', 'post.logout.redirect.uris': 'https://shop.example.com/bye' }) as unknown,
    });
    expect([...((updated?.['redirectUris'] as string[] | undefined) ?? [])].sort()).toEqual(['https://app.example.com/cb', 'https://shop.example.com/*']);
    const saAfter = ((await env.admin.get<Record<string, unknown>[]>(`/realms/${realm}/users/${String(saUser?.['id'])}/role-mappings/realm`)) ?? []).map((r) => r['name']);
    expect(saAfter).toContain('editor');
    expect(saAfter).not.toContain('viewer');
    // The secret did not change with the update.
    expect(secretValue(await credentialsSecretOf(env.kube, teamA, 'shop'))).toBe(value);

    await env.kube.delete(ref);
    await waitForGone(env.kube, ref);
    expect(await env.admin.client(realm, clientId)).toBeUndefined();
  });

  it("refuses a takeover from another granted namespace: no Secret there, the victim's secret unchanged and never read", async () => {
    const clientId = unique('victim');
    await createClient(env.kube, teamA, 'victim', confidential(clientId));
    await waitForReady(env.kube, clientRef(teamA, 'victim'));
    const victimSecret = secretValue(await credentialsSecretOf(env.kube, teamA, 'victim')) ?? '';
    expect(victimSecret).not.toBe('');

    const attacker = await start('team-b', teamB);
    const attackerRef = clientRef(teamB, 'thief');
    await createClient(env.kube, teamB, 'thief', confidential(clientId, { redirectUris: ['https://evil.example.com/*'] }));
    const refused = await waitForObject(env.kube, attackerRef, 'the takeover to be refused', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(refused, 'Ready')).toMatchObject({ status: 'False', reason: 'Conflict' });
    expect(conditionOf(refused, 'Ready')?.message).toContain(`${teamA}/victim`);
    // Once more, on demand: still nothing to do but report.
    const again = await attacker.reconcileClient(teamB, 'thief');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);

    // The attacker's operator looked the client up, and never asked for a secret nor wrote anything.
    const operations = attacker.requests.map((r) => r.operation);
    expect(operations).toContain('find_client');
    expect(operations.filter((op) => op.includes('secret'))).toEqual([]);
    expect(writesIn(attacker.requests)).toEqual([]);

    expect(await env.kube.get(secretRef(teamB, 'thief-credentials'))).toBeUndefined();
    const client = await env.admin.client(realm, clientId);
    expect(client?.['redirectUris']).toEqual(['https://app.example.com/*']);
    expect(await env.admin.clientSecret(realm, clientId)).toBe(victimSecret);
    expect(secretValue(await credentialsSecretOf(env.kube, teamA, 'victim'))).toBe(victimSecret);

    // Nowhere in the attacker's namespace: no Secret, event, or the CR (status included) holds it.
    const encoded = Buffer.from(victimSecret).toString('base64');
    const holds = (object: unknown): boolean => { const text = JSON.stringify(object); return text.includes(victimSecret) || text.includes(encoded); };
    const [secrets, events, coreEvents] = await Promise.all([
      env.kube.listAll(coreTypes.secret, { namespace: teamB }),
      env.kube.listAll(coreTypes.event, { namespace: teamB }),
      env.kube.listAll({ group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true }, { namespace: teamB }),
    ]);
    expect(secrets.items.filter(holds).map((s) => s.metadata.name)).toEqual([]);
    expect([...events.items, ...coreEvents.items].filter(holds).length).toBe(0);
    expect(holds(await env.kube.get(attackerRef))).toBe(false);
  });

  it('heals a client whose namespace the realm grants later, without the client object being touched', async () => {
    const operator = await start('team-c', teamC);
    const clientId = unique('late');
    const ref = clientRef(teamC, 'late');
    await createClient(env.kube, teamC, 'late', confidential(clientId));
    const stalled = await waitForObject(env.kube, ref, 'the ungranted client to stall', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({ status: 'False', reason: 'NotAuthorized' });
    expect(conditionOf(stalled, 'Ready')?.message).toContain('clientAuthorizationGrants');
    const again = await operator.reconcileClient(teamC, 'late');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(operator.requests)).toEqual([]);
    expect(await env.admin.client(realm, clientId)).toBeUndefined();
    const generation = stalled?.metadata.generation;

    await patchSpec(env.kube, realmRef(platform, 'shared'), { clientAuthorizationGrants: [teamA, teamB, teamC] });
    const healed = await waitForReady(env.kube, ref);
    expect(healed.metadata.generation).toBe(generation);
    expect(await env.admin.client(realm, clientId)).toBeDefined();
    const secret = secretValue(await credentialsSecretOf(env.kube, teamC, 'late'));
    expect(await clientCredentialsWork(env.url, realm, clientId, secret ?? '')).toBe(true);
  });

  it('regenerates the secret once per regenerateSecret token, and not again on later reconciles or resyncs', async () => {
    const clientId = unique('regen');
    const ref = clientRef(teamA, 'regen');
    await createClient(env.kube, teamA, 'regen', confidential(clientId));
    await waitForReady(env.kube, ref);
    const first = secretValue(await credentialsSecretOf(env.kube, teamA, 'regen')) ?? '';
    expect(await clientCredentialsWork(env.url, realm, clientId, first)).toBe(true);
    const regenerations = (): number => teamAOperator.requests.filter((r) => r.operation === 'regenerate_client_secret').length;
    const before = regenerations();

    await patchSpec(env.kube, ref, { regenerateSecret: 'rotate-1' });
    const done = await waitForReady(env.kube, ref);
    expect(statusOf(done)['secretRegeneratedFor']).toBe('rotate-1');
    const second = await waitFor(async () => {
      const value = secretValue(await credentialsSecretOf(env.kube, teamA, 'regen'));
      return value !== undefined && value !== first ? value : undefined;
    }, { what: 'the credentials Secret to hold the new secret', timeoutMs: WAIT_MS });
    expect(second).toBe(await env.admin.clientSecret(realm, clientId));
    expect(await clientCredentialsWork(env.url, realm, clientId, second)).toBe(true);
    expect(await clientCredentialsWork(env.url, realm, clientId, first)).toBe(false);
    expect(regenerations()).toBe(before + 1);

    // Further reconciles, on demand and by resync, leave the secret alone.
    for (let round = 0; round < 3; round++) {
      const outcome = await teamAOperator.reconcileClient(teamA, 'regen');
      expect(outcome.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    }
    const clients = (await env.kube.listAll(ref.type, { namespace: teamA })).items.length;
    const reconciled = teamAOperator.reconciles.get('keycloak-client') ?? 0;
    teamAOperator.resync();
    await waitFor(async () => Promise.resolve((teamAOperator.reconciles.get('keycloak-client') ?? 0) >= reconciled + clients ? true : undefined), { what: 'a resync of the clients', timeoutMs: WAIT_MS, intervalMs: 100 });
    await waitForReady(env.kube, ref);
    expect(regenerations()).toBe(before + 1);
    expect(await env.admin.clientSecret(realm, clientId)).toBe(second);
    expect(secretValue(await credentialsSecretOf(env.kube, teamA, 'regen'))).toBe(second);
  });

  it('pushes a client secret the spec provides to Keycloak, and again when its Secret changes', async () => {
    const clientId = unique('provided');
    const ref = clientRef(teamA, 'provided');
    const provided = `provided-${unique('s')}`;
    rememberSecret(provided);
    await writeSecret(env.kube, teamA, 'provided-secret', { secret: provided });
    await createClient(env.kube, teamA, 'provided', confidential(clientId, { clientSecret: { name: 'provided-secret', key: 'secret' } }));
    await waitForReady(env.kube, ref);
    expect(await env.admin.clientSecret(realm, clientId)).toBe(provided);
    expect(await clientCredentialsWork(env.url, realm, clientId, provided)).toBe(true);
    await waitFor(async () => (secretValue(await credentialsSecretOf(env.kube, teamA, 'provided')) === provided ? true : undefined), { what: 'the credentials Secret to hold the provided secret', timeoutMs: WAIT_MS });

    // The Secret is watched by name: a new value reaches Keycloak without the client object changing.
    const changed = `changed-${unique('s')}`;
    rememberSecret(changed);
    await writeSecret(env.kube, teamA, 'provided-secret', { secret: changed });
    await waitFor(async () => ((await env.admin.clientSecret(realm, clientId)) === changed ? true : undefined), { what: 'Keycloak to hold the changed secret', timeoutMs: WAIT_MS });
    await waitFor(async () => (secretValue(await credentialsSecretOf(env.kube, teamA, 'provided')) === changed ? true : undefined), { what: 'the credentials Secret to hold the changed secret', timeoutMs: WAIT_MS });
    expect(await clientCredentialsWork(env.url, realm, clientId, changed)).toBe(true);
    expect(await clientCredentialsWork(env.url, realm, clientId, provided)).toBe(false);
  });

  it('refuses to grant a service account realm-management roles unless the operator allows them', async () => {
    const serviceAccountRolesOf = async (clientId: string): Promise<string[]> => {
      const id = String((await env.admin.client(realm, clientId))?.['id']);
      const user = await env.admin.get(`/realms/${realm}/clients/${id}/service-account-user`);
      const management = String((await env.admin.client(realm, 'realm-management'))?.['id']);
      const roles = (await env.admin.get<Record<string, unknown>[]>(`/realms/${realm}/users/${String(user?.['id'])}/role-mappings/clients/${management}`)) ?? [];
      return roles.map((role) => String(role['name'])).sort();
    };
    const asking = (clientId: string) => confidential(clientId, { serviceAccountRoles: { realmRoles: ['viewer'], clientRoles: { 'realm-management': ['view-users', 'manage-users'] } } });
    const clientId = unique('guarded');
    const ref = clientRef(teamA, 'guarded');
    await createClient(env.kube, teamA, 'guarded', asking(clientId));
    const stalled = await waitForObject(env.kube, ref, 'the client asking for manage-users to stall', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({ status: 'False', reason: 'ForbiddenServiceAccountRoles' });
    expect(conditionOf(stalled, 'Ready')?.message).toContain('realm-management/manage-users');
    expect(await env.admin.client(realm, clientId)).toBeUndefined();
    const events = await env.kube.raw<{ items: { reason: string; type: string; regarding: { name: string } }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${teamA}/events`, what: 'list events', verb: 'list', resource: 'events' });
    expect(events.items.filter((event) => event.regarding.name === 'guarded' && event.reason === 'ForbiddenServiceAccountRoles').map((event) => event.type)).toEqual(['Warning']);

    expect(conditionOf(stalled, 'Ready')?.message).toContain('realm-management/view-users');
    expect(await env.admin.client(realm, clientId)).toBeUndefined();

    // Without the dangerous roles the same client is made, with the rest of its roles.
    await patchSpec(env.kube, ref, { serviceAccountRoles: { realmRoles: ['viewer'], clientRoles: { 'realm-management': null, broker: ['read-token'] } } });
    await waitForReady(env.kube, ref);
    expect(await serviceAccountRolesOf(clientId)).toEqual([]);

    // An operator told to allow manage-users grants it.
    const teamD = await createTestNamespace('kcc-team-d');
    const realmObject = await env.kube.get(realmRef(platform, 'shared'));
    const grants = (realmObject?.['spec'] as { clientAuthorizationGrants?: string[] } | undefined)?.clientAuthorizationGrants ?? [];
    await patchSpec(env.kube, realmRef(platform, 'shared'), { clientAuthorizationGrants: [...grants, teamD] });
    const allowing = await startOperator(env.kube, { name: 'client-team-d', namespaces: [teamD], config: { ...env.config(), keycloakAllowedServiceAccountRoles: ['realm-management/manage-users', 'realm-management/view-users'] } });
    operators.push(allowing);
    const allowedId = unique('allowed');
    await createClient(env.kube, teamD, 'allowed', asking(allowedId));
    await waitForReady(env.kube, clientRef(teamD, 'allowed'));
    expect(await serviceAccountRolesOf(allowedId)).toEqual(['manage-users', 'view-users']);
  });

  it('rotates a secret without downtime where the realm has client-secret rotation: both valid until the grace period ends', async () => {
    const rotating = unique('kcc-rot');
    otherRealms.push(rotating);
    await createRealm(env.kube, platform, 'rotating', {
      realmName: rotating,
      clientAuthorizationGrants: [teamA],
      clientProfiles: [{ name: 'rotation', executors: [{ executor: 'secret-rotation', configuration: { 'expiration-period': 2_592_000, 'rotated-expiration-period': 86_400, 'remaining-rotation-period': 864_000 } }] }],
      clientPolicies: [{ name: 'rotate-confidential', conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['rotation'] }],
    });
    await waitForReady(env.kube, realmRef(platform, 'rotating'));
    const clientId = unique('rot');
    const ref = clientRef(teamA, 'rotating');
    await createClient(env.kube, teamA, 'rotating', confidential(clientId, { realmRef: { name: 'rotating', namespace: platform }, secretRotation: { gracePeriod: '1h' } }));
    await waitForReady(env.kube, ref);
    const first = secretValue(await credentialsSecretOf(env.kube, teamA, 'rotating')) ?? '';
    rememberSecret(first);

    await patchSpec(env.kube, ref, { regenerateSecret: 'r1' });
    const second = await waitFor(async () => {
      const value = secretValue(await credentialsSecretOf(env.kube, teamA, 'rotating'));
      return value !== undefined && value !== first ? value : undefined;
    }, { what: 'the credentials Secret to hold the regenerated secret', timeoutMs: WAIT_MS });
    rememberSecret(second);
    expect(await env.admin.clientSecret(rotating, clientId)).toBe(second);
    // Consumers still on the old secret keep working while the new one rolls out.
    expect(await clientCredentialsWork(env.url, rotating, clientId, second)).toBe(true);
    expect(await clientCredentialsWork(env.url, rotating, clientId, first)).toBe(true);
    // The rotated secret Keycloak keeps in the client's attributes never reaches the object's status.
    expect(JSON.stringify(await env.kube.get(ref))).not.toContain(first);

    // Once the grace period has passed, the old secret is invalidated and the new one stays.
    await patchSpec(env.kube, ref, { secretRotation: { gracePeriod: '1s' } });
    await waitFor(async () => ((await clientCredentialsWork(env.url, rotating, clientId, first)) ? undefined : true), { what: 'the rotated secret to be invalidated', timeoutMs: WAIT_MS });
    expect(await clientCredentialsWork(env.url, rotating, clientId, second)).toBe(true);
    const id = String((await env.admin.client(rotating, clientId))?.['id']);
    expect(await env.admin.get(`/realms/${rotating}/clients/${id}/client-secret/rotated`)).toBeUndefined();
  });

  it('logs a client in with the flows it overrides, by id, removes an override it no longer states, and stalls on a flow the realm lacks', async () => {
    expect(await env.admin.send('POST', `/realms/${realm}/authentication/flows/browser/copy`, { newName: 'strict browser' })).toBe(201);
    const flows = (await env.admin.get<Record<string, unknown>[]>(`/realms/${realm}/authentication/flows`)) ?? [];
    const idOf = (alias: string): string => String(flows.find((flow) => flow['alias'] === alias)?.['id']);
    const clientId = unique('flows');
    const ref = clientRef(teamA, 'flows');
    const overridesOf = async (): Promise<unknown> => (await env.admin.client(realm, clientId))?.['authenticationFlowBindingOverrides'];
    await createClient(env.kube, teamA, 'flows', confidential(clientId, { authenticationFlowOverrides: { browser: 'strict browser', directGrant: 'direct grant' } }));
    await waitForReady(env.kube, ref);
    expect(await overridesOf()).toEqual({ browser: idOf('strict browser'), direct_grant: idOf('direct grant') });
    const before = teamAOperator.requests.length;
    const again = await teamAOperator.reconcileClient(teamA, 'flows');
    expect(again.plan?.steps.map((step) => step.action.kind)).toEqual([]);
    expect(writesIn(teamAOperator.requests.slice(before))).toEqual([]);

    await patchSpec(env.kube, ref, { authenticationFlowOverrides: { browser: 'strict browser', directGrant: null } });
    await waitForReady(env.kube, ref);
    expect(await overridesOf()).toEqual({ browser: idOf('strict browser') });

    await patchSpec(env.kube, ref, { authenticationFlowOverrides: { browser: 'no such flow' } });
    const stalled = await waitForObject(env.kube, ref, 'the client naming a missing flow to stall', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({ reason: 'FlowNotFound', message: `authentication flow "no such flow" (spec.authenticationFlowOverrides.browser) does not exist in realm ${realm}` });
    expect(await overridesOf()).toEqual({ browser: idOf('strict browser') });
  });
});
