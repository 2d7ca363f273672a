// What Keycloak keeps for itself, against the real Keycloak 26, with an operator that lets the tenant namespace
// adopt (everything, and master by name too): the master realm is refused and left as it was, the bootstrap
// admin's client, admin-cli and a tenant realm's broker are refused without a credentials Secret, roles that
// administer a realm are neither granted by a realm spec nor to a service account (not even through client
// roles' composites and groups made by hand), and a hand-made realm is adopted only by a namespace the
// operator's scope names.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject, ObjectRef } from '@keyward/kernel';
import { createTestNamespace, testKeycloak, waitFor } from '@keyward/test-env';
import {
  clientRef,
  conditionOf,
  controllerEnv,
  createClient,
  createRealm,
  patchSpec,
  realmRef,
  secretRef,
  startOperator,
  unique,
  waitForReady,
  waitForRefusal,
  writesIn,
  WAIT_MS,
  type ControllerEnv,
  type Operator,
} from './harness.js';

type Json = Record<string, unknown>;

let env: ControllerEnv;
let tenant: string;
let outsider: string;
let operator: Operator;
/** A hand-made realm the outsider namespace may adopt by name (namespace/realm). */
const outsiderRealm = unique('kcr-theirs');
/** Realms made here, deleted from Keycloak when the file ends (never master). */
const realms: string[] = [outsiderRealm];

beforeAll(async () => {
  env = await controllerEnv('kcr');
  tenant = await createTestNamespace('kcr-tenant');
  outsider = await createTestNamespace('kcr-outsider');
  const config = { ...env.config(), keycloakAdoptUnownedNamespaces: [tenant, `${tenant}/master`, `${outsider}/${outsiderRealm}`] };
  operator = await startOperator(env.kube, { name: 'reserved', namespaces: [tenant, outsider], config });
}, 120_000);

afterAll(async () => {
  await operator.stop();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  env.close();
});

const refusedWith = (ref: ObjectRef, reason: string): Promise<KubeObject | undefined> => waitForRefusal(env.kube, ref, reason);

const names = (roles: Json[] | undefined): string[] => (roles ?? []).map((role) => String(role['name'])).sort();
const defaultRolesOf = async (realm: string): Promise<string[]> => names(await env.admin.get<Json[]>(`/realms/${realm}/roles/default-roles-${realm}/composites`));
const attributesOf = (found: Json | undefined): Json => (found?.['attributes'] as Json | undefined) ?? {};

async function handMadeRealm(realm: string): Promise<void> {
  expect(await env.admin.send('POST', '/realms', { realm, enabled: true })).toBe(201);
}

describe('the master realm', () => {
  it('is refused whatever the adoption scope: nothing is written, its default roles keep their composites', async () => {
    const before = await defaultRolesOf('master');
    const master = await env.admin.get('/realms/master');
    await createRealm(env.kube, tenant, 'master', { realmName: 'master', displayName: 'Taken', clientAuthorizationGrants: [tenant], defaultRoles: { realmRoles: ['admin'] } });
    const refused = await refusedWith(realmRef(tenant, 'master'), 'ReservedByKeycloak');
    expect(conditionOf(refused, 'Ready')?.message).toContain("realm master is Keycloak's admin realm");
    expect(before).not.toContain('admin');
    expect(await defaultRolesOf('master')).toEqual(before);
    const after = await env.admin.get('/realms/master');
    expect(after?.['displayName']).toEqual(master?.['displayName']);
    expect(attributesOf(after)).toEqual(attributesOf(master));
    expect(writesIn(operator.requests)).toEqual([]);
  });

  it.each([
    ['the bootstrap admin\'s service-account client', 'bootstrap', testKeycloak().clientId],
    ['admin-cli', 'admin-cli', 'admin-cli'],
  ])('keeps %s from a KeycloakClient: refused, unchanged, and no Secret holds its secret', async (_what, name, clientId) => {
    const before = await env.admin.client('master', clientId);
    expect(before).toBeDefined();
    await createClient(env.kube, tenant, name, { clientId, realmRef: { name: 'master', namespace: tenant } });
    const refused = await refusedWith(clientRef(tenant, name), 'ReservedByKeycloak');
    expect(conditionOf(refused, 'Ready')?.message).toContain(`client ${clientId} is in realm master`);
    expect(await env.kube.get(secretRef(tenant, `${name}-credentials`))).toBeUndefined();
    expect(attributesOf(await env.admin.client('master', clientId))).toEqual(attributesOf(before));
    expect(writesIn(operator.requests)).toEqual([]);
  });
});

describe('a tenant realm', () => {
  const realm = unique('kcr-shop');
  realms.push(realm);
  /** The namespace is made in the file's beforeAll, after this block is read. */
  const ref = () => realmRef(tenant, 'shop');

  beforeAll(async () => {
    await createRealm(env.kube, tenant, 'shop', { realmName: realm, clientAuthorizationGrants: [tenant], realmRoles: [{ name: 'viewer' }] });
    await waitForReady(env.kube, ref());
  }, 120_000);

  it('keeps its broker client from a KeycloakClient of a namespace that may adopt: refused, unchanged, no Secret', async () => {
    const before = await env.admin.client(realm, 'broker');
    await createClient(env.kube, tenant, 'broker', { clientId: 'broker', realmRef: { name: 'shop', namespace: tenant } });
    const refused = await refusedWith(clientRef(tenant, 'broker'), 'ReservedByKeycloak');
    expect(conditionOf(refused, 'Ready')?.message).toContain('client broker is one Keycloak makes in every realm');
    expect(await env.kube.get(secretRef(tenant, 'broker-credentials'))).toBeUndefined();
    expect(attributesOf(await env.admin.client(realm, 'broker'))).toEqual(attributesOf(before));
  });

  it('is not given roles that administer it: a default role, a hand-made composite reaching one, a service account\'s', async () => {
    const defaults = await defaultRolesOf(realm);
    await patchSpec(env.kube, ref(), { defaultRoles: { clientRoles: { 'realm-management': ['realm-admin'] } } });
    const direct = await refusedWith(ref(), 'AdminRolesNotGrantable');
    expect(conditionOf(direct, 'Ready')?.message).toContain('defaultRoles: realm-management/realm-admin');

    // A realm role composed by hand of realm-management's view-users reaches it.
    expect(await env.admin.send('POST', `/realms/${realm}/roles`, { name: 'handmade' })).toBe(201);
    const management = String((await env.admin.client(realm, 'realm-management'))?.['id']);
    const viewUsers = await env.admin.get(`/realms/${realm}/clients/${management}/roles/view-users`);
    expect(await env.admin.send('POST', `/realms/${realm}/roles/handmade/composites`, [viewUsers])).toBe(204);
    await patchSpec(env.kube, ref(), { defaultRoles: { realmRoles: ['handmade'], clientRoles: null } });
    const composite = await refusedWith(ref(), 'AdminRolesNotGrantable');
    expect(conditionOf(composite, 'Ready')?.message).toContain('defaultRoles: handmade (reaches realm-management/view-users)');
    expect(await defaultRolesOf(realm)).toEqual(defaults);

    // Any realm-management role is refused to a service account, view-clients (every client's secret) too.
    await createClient(env.kube, tenant, 'reader', { clientId: 'reader', realmRef: { name: 'shop', namespace: tenant }, settings: { serviceAccountsEnabled: true }, serviceAccountRoles: { clientRoles: { 'realm-management': ['view-clients'] } } });
    const reader = await refusedWith(clientRef(tenant, 'reader'), 'ForbiddenServiceAccountRoles');
    expect(conditionOf(reader, 'Ready')?.message).toContain('realm-management/view-clients');
    expect(await env.admin.client(realm, 'reader')).toBeUndefined();
    expect(await env.kube.get(secretRef(tenant, 'reader-credentials'))).toBeUndefined();

    // A grant that administers nothing goes through.
    await patchSpec(env.kube, ref(), { defaultRoles: { realmRoles: ['viewer'] } });
    await waitForReady(env.kube, ref());
    expect(await defaultRolesOf(realm)).toEqual([...defaults, 'viewer'].sort());
  });
});

describe('grants that reach an admin role only through what was made by hand', () => {
  const realm = unique('kcr-reach');
  realms.push(realm);
  const ref = () => realmRef(tenant, 'reach');
  const reaches = 'reaches realm-management/view-users';
  let management = '';
  let oncall = '';

  /** The id of what a POST just made, read back by `path`. */
  const idAt = async (path: string): Promise<string> => String((await env.admin.get(path))?.['id']);

  beforeAll(async () => {
    await createRealm(env.kube, tenant, 'reach', { realmName: realm, clientAuthorizationGrants: [tenant], realmRoles: [{ name: 'viewer' }] });
    await waitForReady(env.kube, ref());
    const base = `/realms/${realm}`;
    management = String((await env.admin.client(realm, 'realm-management'))?.['id']);
    // By hand: handmade (a realm role) -> app/reader -> app/inner -> realm-management/view-users, and /ops,
    // which has handmade, with a subgroup /ops/oncall of no roles of its own.
    expect(await env.admin.send('POST', `${base}/clients`, { clientId: 'app' })).toBe(201);
    const app = String((await env.admin.client(realm, 'app'))?.['id']);
    for (const name of ['reader', 'inner']) expect(await env.admin.send('POST', `${base}/clients/${app}/roles`, { name })).toBe(201);
    const viewUsers = await env.admin.get(`${base}/clients/${management}/roles/view-users`);
    expect(await env.admin.send('POST', `${base}/clients/${app}/roles/inner/composites`, [viewUsers])).toBe(204);
    expect(await env.admin.send('POST', `${base}/clients/${app}/roles/reader/composites`, [await env.admin.get(`${base}/clients/${app}/roles/inner`)])).toBe(204);
    expect(await env.admin.send('POST', `${base}/roles`, { name: 'handmade' })).toBe(201);
    expect(await env.admin.send('POST', `${base}/roles/handmade/composites`, [await env.admin.get(`${base}/clients/${app}/roles/reader`)])).toBe(204);
    expect(await env.admin.send('POST', `${base}/groups`, { name: 'ops' })).toBe(201);
    const ops = await idAt(`${base}/group-by-path/ops`);
    expect(await env.admin.send('POST', `${base}/groups/${ops}/role-mappings/realm`, [await env.admin.get(`${base}/roles/handmade`)])).toBe(204);
    expect(await env.admin.send('POST', `${base}/groups/${ops}/children`, { name: 'oncall' })).toBe(201);
    oncall = await idAt(`${base}/group-by-path/ops/oncall`);
  }, 120_000);

  /** The Warning events about an object with `reason`, once there are `count` of them. */
  async function warnings(name: string, reason: string, count: number): Promise<string[]> {
    return waitFor(async () => {
      const events = await env.kube.raw<{ items: { reason: string; type: string; regarding: { name: string } }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${tenant}/events`, what: 'list events', verb: 'list', resource: 'events' });
      const found = events.items.filter((event) => event.regarding.name === name && event.reason === reason).map((event) => event.type);
      if (found.length < count) throw new Error(`${String(found.length)} events`);
      return found;
    }, { what: `${String(count)} ${reason} events about ${name}`, timeoutMs: WAIT_MS, intervalMs: 200 });
  }

  it('refuses a default role that reaches one through an ordinary client\'s composite roles, once, writing nothing', async () => {
    const defaults = await defaultRolesOf(realm);
    const from = operator.requests.length;
    await patchSpec(env.kube, ref(), { defaultRoles: { realmRoles: ['handmade'] } });
    const viaRealmRole = await refusedWith(ref(), 'AdminRolesNotGrantable');
    expect(conditionOf(viaRealmRole, 'Ready')?.message).toContain(`defaultRoles: handmade (${reaches})`);
    expect(await warnings('reach', 'AdminRolesNotGrantable', 1)).toEqual(['Warning']);

    await patchSpec(env.kube, ref(), { defaultRoles: { realmRoles: null, clientRoles: { app: ['reader'] } } });
    const viaClientRole = await refusedWith(ref(), 'AdminRolesNotGrantable');
    expect(conditionOf(viaClientRole, 'Ready')?.message).toContain(`defaultRoles: app/reader (${reaches})`);
    expect(await warnings('reach', 'AdminRolesNotGrantable', 2)).toEqual(['Warning', 'Warning']);
    expect(await defaultRolesOf(realm)).toEqual(defaults);
    expect(writesIn(operator.requests.slice(from))).toEqual([]);

    // Refused, it stays quiet: another reconcile reads, and writes nothing, not even status.
    const quiet = await operator.reconcileRealm(tenant, 'reach');
    expect(quiet.plan?.steps.map((step) => step.action.kind)).toEqual([]);
  });

  it('refuses a default group whose parent\'s roles reach one, as a member of it would hold it', async () => {
    // Keycloak's own answer: a user in /ops/oncall holds view-users, through /ops, handmade, app/reader, app/inner.
    expect(await env.admin.send('POST', `/realms/${realm}/users`, { username: 'probe', enabled: true })).toBe(201);
    const probe = String((await env.admin.get<Json[]>(`/realms/${realm}/users`, { username: 'probe', exact: 'true' }))?.[0]?.['id']);
    expect(await env.admin.send('PUT', `/realms/${realm}/users/${probe}/groups/${oncall}`)).toBe(204);
    expect(names(await env.admin.get<Json[]>(`/realms/${realm}/users/${probe}/role-mappings/clients/${management}/composite`))).toContain('view-users');

    await patchSpec(env.kube, ref(), { defaultRoles: null, defaultGroups: ['/ops/oncall'] });
    const refused = await refusedWith(ref(), 'AdminRolesNotGrantable');
    expect(conditionOf(refused, 'Ready')?.message).toContain(`defaultGroups: /ops/oncall (${reaches})`);
    expect(names(await env.admin.get<Json[]>(`/realms/${realm}/default-groups`))).toEqual([]);

    await patchSpec(env.kube, ref(), { defaultGroups: null });
    await waitForReady(env.kube, ref());
  });

  it('refuses a service account a role that reaches one only through composites made by hand: no client, no Secret', async () => {
    await createClient(env.kube, tenant, 'composed', {
      clientId: 'composed',
      realmRef: { name: 'reach', namespace: tenant },
      settings: { serviceAccountsEnabled: true },
      serviceAccountRoles: { realmRoles: ['handmade'], clientRoles: { app: ['reader'] } },
    });
    const refused = await refusedWith(clientRef(tenant, 'composed'), 'ForbiddenServiceAccountRoles');
    expect(conditionOf(refused, 'Ready')?.message).toContain(`spec.serviceAccountRoles lists handmade (${reaches}), app/reader (${reaches})`);
    expect(await warnings('composed', 'ForbiddenServiceAccountRoles', 1)).toEqual(['Warning']);
    expect(await env.admin.client(realm, 'composed')).toBeUndefined();
    expect(await env.kube.get(secretRef(tenant, 'composed-credentials'))).toBeUndefined();
  });
});

describe('adoption', () => {
  it('takes over a hand-made realm only for a namespace (or namespace/realm) the operator names', async () => {
    const handMade = unique('kcr-handmade');
    realms.push(handMade);
    await handMadeRealm(handMade);
    await handMadeRealm(outsiderRealm);

    // The outsider may adopt only the realm named with it.
    await createRealm(env.kube, outsider, 'grab', { realmName: handMade, displayName: 'Grabbed' });
    const refused = await refusedWith(realmRef(outsider, 'grab'), 'NotOwned');
    expect(conditionOf(refused, 'Ready')?.message).toContain('--keycloak-adopt-unowned-namespaces');
    const untouched = await env.admin.get(`/realms/${handMade}`);
    expect(untouched?.['displayName']).not.toBe('Grabbed');
    expect(attributesOf(untouched)).not.toHaveProperty('io.kubernetes.cr-namespace');

    await createRealm(env.kube, outsider, 'theirs', { realmName: outsiderRealm, displayName: 'Theirs' });
    await waitForReady(env.kube, realmRef(outsider, 'theirs'));
    expect(attributesOf(await env.admin.get(`/realms/${outsiderRealm}`))).toMatchObject({ 'io.kubernetes.cr-namespace': outsider, 'io.kubernetes.cr-name': 'theirs' });

    // The tenant may adopt any realm that is not Keycloak's.
    await createRealm(env.kube, tenant, 'adopted', { realmName: handMade, displayName: 'Adopted' });
    await waitForReady(env.kube, realmRef(tenant, 'adopted'));
    const adopted = await env.admin.get(`/realms/${handMade}`);
    expect(adopted?.['displayName']).toBe('Adopted');
    expect(attributesOf(adopted)).toMatchObject({ 'io.kubernetes.cr-namespace': tenant, 'io.kubernetes.cr-name': 'adopted' });
  });
});
