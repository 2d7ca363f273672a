import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Sensitive } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { masterTokenUrl, rememberSecret, testKeycloak } from '@keyward/test-env';
import type { ClientAddress, KeycloakAction, KeycloakResource } from '../../src/apis/keycloak/actions.js';
import type { ObservedRealm } from '../../src/apis/keycloak/queries.js';
import { keycloakFixture, unique, type KeycloakFixture, type Outcome } from './keycloak-fixture.js';

let fx: KeycloakFixture;
const realms: string[] = [];

beforeAll(async () => {
  fx = await keycloakFixture('kcio-handlers');
});

afterAll(async () => {
  for (const realm of realms) await run({ kind: 'keycloak.delete', resource: { type: 'realm', realm }, ...fx.call() });
  fx.close();
});

const run = (action: KeycloakAction): Promise<Outcome> => fx.run(action);

const create = (resource: KeycloakResource, body?: Readonly<Record<string, string | boolean | Readonly<Record<string, string>>>>): Promise<Outcome> =>
  run({ kind: 'keycloak.create', resource, ...(body === undefined ? {} : { body }), ...fx.call() });
const update = (resource: KeycloakResource, body: Readonly<Record<string, string | boolean | Readonly<Record<string, string>>>>): Promise<Outcome> =>
  run({ kind: 'keycloak.update', resource, body, changed: Object.keys(body), ...fx.call() });
const remove = (resource: KeycloakResource): Promise<Outcome> => run({ kind: 'keycloak.delete', resource, ...fx.call() });

async function newRealm(): Promise<string> {
  const realm = unique('kcio');
  realms.push(realm);
  await create({ type: 'realm', realm }, { realm, enabled: true });
  return realm;
}

async function readRealm(realm: string): Promise<ObservedRealm> {
  const observed = await fx.runtime.queries({ caches: [] })['keycloak.realm']({ kind: 'keycloak.realm', realm, ...fx.call() });
  if (observed === undefined) throw new Error(`realm ${realm} is gone`);
  return observed;
}

async function newClient(realm: string, clientId: string, body: Readonly<Record<string, string | boolean>> = {}): Promise<ClientAddress> {
  const { outputs } = await create({ type: 'client', realm, clientId }, { clientId, ...body });
  return { realm, clientId, id: String(outputs['id']) };
}

async function clientCredentialsStatus(realm: string, clientId: string, secret: string): Promise<number> {
  const response = await fetch(masterTokenUrl(testKeycloak()).replace('/realms/master/', `/realms/${realm}/`), {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (body.access_token !== undefined) rememberSecret(body.access_token);
  return response.status;
}

async function failure(promise: Promise<unknown>): Promise<KeywardError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof KeywardError)) throw new Error(`expected a KeywardError, got ${String(error)}`);
  return error;
}

describe('Keycloak handlers against a real Keycloak', () => {
  it('creates a realm (its id is its name), updates it, deletes it, and counts a second delete as unchanged', async () => {
    const realm = unique('kcio');
    realms.push(realm);
    expect(await create({ type: 'realm', realm }, { realm, enabled: true })).toEqual({ outcome: 'applied', outputs: { id: realm } });
    // The body names no realm: the handler sends the name, so the PUT cannot rename it.
    expect((await update({ type: 'realm', realm }, { displayName: 'Shop' })).outcome).toBe('applied');
    expect((await readRealm(realm)).realm['displayName']).toBe('Shop');
    expect((await failure(create({ type: 'realm', realm }, { realm }))).reason).toBe('Conflict');
    expect((await remove({ type: 'realm', realm })).outcome).toBe('applied');
    expect((await remove({ type: 'realm', realm })).outcome).toBe('unchanged');
  });

  it('creates, updates (Keycloak needs the role name in the PUT: the handler adds it) and deletes a realm role', async () => {
    const realm = await newRealm();
    const role = { type: 'realmRole', realm, name: 'shop admin' } as const;
    expect(await create(role, { name: 'shop admin', description: 'first' })).toEqual({ outcome: 'applied', outputs: { id: 'shop admin' } });
    await update(role, { description: 'second' });
    expect((await readRealm(realm)).roles.find((r) => r.role.name === 'shop admin')?.role.description).toBe('second');
    expect((await remove(role)).outcome).toBe('applied');
    expect((await remove(role)).outcome).toBe('unchanged');
  });

  it('creates, updates and deletes a client scope and its protocol mapper, by id or by name', async () => {
    const realm = await newRealm();
    const { outputs } = await create({ type: 'clientScope', realm, name: 'shop' }, { name: 'shop', protocol: 'openid-connect' });
    const scopeId = String(outputs['id']);
    await update({ type: 'clientScope', realm, name: 'shop', id: scopeId }, { description: 'by id' });
    await update({ type: 'clientScope', realm, name: 'shop' }, { protocol: 'openid-connect', description: 'by name' });
    const mapperBody = { name: 'tenant', protocol: 'openid-connect', protocolMapper: 'oidc-hardcoded-claim-mapper' };
    const mapper = { type: 'clientScopeMapper', realm, scope: { name: 'shop', id: scopeId }, name: 'tenant' } as const;
    const created = await create(mapper, { ...mapperBody, config: { 'claim.name': 'tenant', 'claim.value': 'a' } });
    // A mapper's PUT must carry its id (Keycloak answers 500 without it): found by name here.
    await update(mapper, { ...mapperBody, config: { 'claim.name': 'tenant', 'claim.value': 'b' } });
    const scope = (await readRealm(realm)).clientScopes.find((s) => s.name === 'shop');
    expect({ description: scope?.description, mappers: scope?.protocolMappers?.map((m) => [m.id, m.config?.['claim.value']]) }).toEqual({
      description: 'by name',
      mappers: [[created.outputs['id'], 'b']],
    });
    expect((await remove({ ...mapper, id: String(created.outputs['id']) })).outcome).toBe('applied');
    expect((await remove(mapper)).outcome).toBe('unchanged');
    expect((await remove({ type: 'clientScope', realm, name: 'shop', id: scopeId })).outcome).toBe('applied');
    expect((await remove({ type: 'clientScope', realm, name: 'shop', id: scopeId })).outcome).toBe('unchanged');
    expect((await remove({ type: 'clientScope', realm, name: 'shop' })).outcome).toBe('unchanged');
  });

  it('links a client scope into a realm list by name (its id is the scope id); a second link is a Conflict', async () => {
    const realm = await newRealm();
    const { outputs } = await create({ type: 'clientScope', realm, name: 'extra' }, { name: 'extra', protocol: 'openid-connect' });
    const link = { type: 'realmScopeLink', realm, list: 'optional', scope: 'extra' } as const;
    expect(await create(link)).toEqual({ outcome: 'applied', outputs: { id: outputs['id'] } });
    expect((await readRealm(realm)).optionalClientScopes).toContain('extra');
    expect((await failure(create(link))).reason).toBe('Conflict');
    expect((await remove(link)).outcome).toBe('applied');
    expect((await readRealm(realm)).optionalClientScopes).not.toContain('extra');
    expect((await remove({ ...link, scope: 'no-such-scope' })).outcome).toBe('unchanged');
  });

  it('creates, updates and deletes a client, its roles, mappers and scope links', async () => {
    const realm = await newRealm();
    await create({ type: 'clientScope', realm, name: 'extra' }, { name: 'extra', protocol: 'openid-connect' });
    const client = await newClient(realm, 'shop-web', { publicClient: true });
    expect(client.id).toMatch(/^[0-9a-f-]{36}$/);
    await update({ type: 'client', realm, clientId: 'shop-web', id: client.id }, { description: 'by id' });
    await update({ type: 'client', realm, clientId: 'shop-web' }, { rootUrl: 'https://shop.example.com' });
    const role = { type: 'clientRole', client, name: 'viewer' } as const;
    expect(await create(role, { name: 'viewer' })).toEqual({ outcome: 'applied', outputs: { id: 'viewer' } });
    await update(role, { description: 'views' });
    const mapper = { type: 'clientMapper', client, name: 'aud' } as const;
    const mapperBody = { name: 'aud', protocol: 'openid-connect', protocolMapper: 'oidc-audience-mapper' };
    await create(mapper, { ...mapperBody, config: { 'included.custom.audience': 'a' } });
    await update(mapper, { ...mapperBody, config: { 'included.custom.audience': 'b' } });
    const link = { type: 'clientScopeLink', client, list: 'default', scope: 'extra' } as const;
    await create(link);

    const observed = await fx.runtime.queries({ caches: [] })['keycloak.client']({ kind: 'keycloak.client', realm, clientId: 'shop-web', owner: { namespace: 'n', name: 'x' }, roles: true, ...fx.call() });
    expect({
      description: observed?.client['description'],
      rootUrl: observed?.client['rootUrl'],
      role: observed?.roles.map((r) => [r.role.name, r.role.description]),
      mapper: observed?.client.protocolMappers?.map((m) => [m.name, m.config?.['included.custom.audience']]),
      linked: observed?.defaultClientScopes.includes('extra'),
    }).toEqual({ description: 'by id', rootUrl: 'https://shop.example.com', role: [['viewer', 'views']], mapper: [['aud', 'b']], linked: true });

    expect((await remove(link)).outcome).toBe('applied');
    expect((await remove(mapper)).outcome).toBe('applied');
    expect((await remove(mapper)).outcome).toBe('unchanged');
    expect((await remove(role)).outcome).toBe('applied');
    expect((await remove(role)).outcome).toBe('unchanged');
    expect((await remove({ type: 'client', realm, clientId: 'shop-web', id: client.id })).outcome).toBe('applied');
    expect((await remove({ type: 'client', realm, clientId: 'shop-web', id: client.id })).outcome).toBe('unchanged');
    expect((await remove({ type: 'client', realm, clientId: 'shop-web' })).outcome).toBe('unchanged');
  });

  it('grants realm and client roles to a composite role once, and revokes them once', async () => {
    const realm = await newRealm();
    const owner = await newClient(realm, 'shop-api');
    await create({ type: 'clientRole', client: owner, name: 'reader' }, { name: 'reader' });
    await create({ type: 'realmRole', realm, name: 'member' }, { name: 'member' });
    await create({ type: 'realmRole', realm, name: 'admin' }, { name: 'admin' });
    const roles = { realm: ['member'], clients: { 'shop-api': ['reader'] } };
    const holder = { type: 'role', realm, name: 'admin' } as const;
    expect((await run({ kind: 'keycloak.grantRoles', holder, roles, ...fx.call() })).outcome).toBe('applied');
    expect((await run({ kind: 'keycloak.grantRoles', holder, roles, ...fx.call() })).outcome).toBe('unchanged');
    expect((await readRealm(realm)).roles.find((r) => r.role.name === 'admin')?.composites).toEqual(roles);
    expect((await run({ kind: 'keycloak.revokeRoles', holder, roles, ...fx.call() })).outcome).toBe('applied');
    expect((await run({ kind: 'keycloak.revokeRoles', holder, roles, ...fx.call() })).outcome).toBe('unchanged');
    expect((await readRealm(realm)).roles.find((r) => r.role.name === 'admin')?.role.composite).toBe(false);

    // A client role as the holder, and a grant of a role that does not exist.
    const clientHolder = { type: 'role', realm, name: 'reader', client: owner } as const;
    expect((await run({ kind: 'keycloak.grantRoles', holder: clientHolder, roles: { realm: ['member'], clients: {} }, ...fx.call() })).outcome).toBe('applied');
    const missing = await failure(run({ kind: 'keycloak.grantRoles', holder, roles: { realm: ['nobody'], clients: {} }, ...fx.call() }));
    expect({ reason: missing.reason, retryable: missing.retryable, message: missing.message }).toEqual({
      reason: 'NotFound',
      retryable: true,
      message: expect.stringContaining('realm role nobody not found') as unknown as string,
    });
  });

  it('grants realm and client roles to a service account once, and revokes them once', async () => {
    const realm = await newRealm();
    await create({ type: 'realmRole', realm, name: 'member' }, { name: 'member' });
    const api = await newClient(realm, 'orders');
    await create({ type: 'clientRole', client: api, name: 'write' }, { name: 'write' });
    const worker = await newClient(realm, 'worker', { publicClient: false, serviceAccountsEnabled: true });
    const holder = { type: 'serviceAccount', client: worker } as const;
    const roles = { realm: ['member'], clients: { orders: ['write'] } };
    expect((await run({ kind: 'keycloak.grantRoles', holder, roles, ...fx.call() })).outcome).toBe('applied');
    expect((await run({ kind: 'keycloak.grantRoles', holder, roles, ...fx.call() })).outcome).toBe('unchanged');
    const query = { kind: 'keycloak.client', realm, clientId: 'worker', owner: { namespace: 'n', name: 'x' }, roles: false, ...fx.call() } as const;
    const granted = await fx.runtime.queries({ caches: [] })['keycloak.client'](query);
    // Keycloak gives every service account the realm's default roles directly.
    expect(granted?.serviceAccountRoles).toEqual({ realm: expect.arrayContaining(['member', `default-roles-${realm}`]) as unknown as string[], clients: { orders: ['write'] } });
    expect((await run({ kind: 'keycloak.revokeRoles', holder, roles, ...fx.call() })).outcome).toBe('applied');
    expect((await run({ kind: 'keycloak.revokeRoles', holder, roles: { realm: ['member', 'no-such-role'], clients: { nowhere: ['x'] } }, ...fx.call() })).outcome).toBe('unchanged');
    const revoked = await fx.runtime.queries({ caches: [] })['keycloak.client'](query);
    expect(revoked?.serviceAccountRoles).toEqual({ realm: [`default-roles-${realm}`], clients: {} });
  });

  it('regenerates a client secret: the old one stops working for client_credentials, the new one works', async () => {
    const realm = await newRealm();
    const oldSecret = rememberSecret(unique('old-secret'));
    const client = await newClient(realm, 'batch', { publicClient: false, serviceAccountsEnabled: true, secret: oldSecret });
    expect(await clientCredentialsStatus(realm, 'batch', oldSecret)).toBe(200);
    const { outcome, outputs } = await run({ kind: 'keycloak.regenerateClientSecret', client, ...fx.call() });
    const secret = outputs['secret'];
    const value: unknown = secret instanceof Sensitive ? secret.reveal() : undefined;
    if (typeof value !== 'string') throw new Error('no Sensitive secret');
    const revealed = rememberSecret(value);
    expect({ outcome, shown: String(secret), json: JSON.stringify(outputs) }).toEqual({ outcome: 'applied', shown: '***', json: '{"secret":"***"}' });
    expect(await clientCredentialsStatus(realm, 'batch', revealed)).toBe(200);
    expect(await clientCredentialsStatus(realm, 'batch', oldSecret)).toBe(401);
  });
});
