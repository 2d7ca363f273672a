import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sensitive } from '@keyward/kernel';
import { rememberSecret } from '@keyward/test-env';
import type { KeycloakAction, KeycloakCall } from '../../src/apis/keycloak/actions.js';
import type { KeycloakClientQuery } from '../../src/apis/keycloak/queries.js';
import { ownershipAttributes } from '../../src/ownership.js';
import { SA_SECRET, USER_SECRET, keycloakFixture, unique, writeSecret, type KeycloakFixture, type Outcome } from './keycloak-fixture.js';

let fx: KeycloakFixture;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  fx = await keycloakFixture('kcio-queries');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fx.close();
});

const run = (action: KeycloakAction): Promise<Outcome> => fx.run(action);

const queries = () => fx.runtime.queries({ caches: [] });

async function newRealm(call: KeycloakCall = fx.call()): Promise<string> {
  const realm = unique('kcio');
  await run({ kind: 'keycloak.create', resource: { type: 'realm', realm }, body: { realm, enabled: true }, ...call });
  cleanups.push(() => run({ kind: 'keycloak.delete', resource: { type: 'realm', realm }, ...fx.call() }));
  return realm;
}

describe('Keycloak queries against a real Keycloak', () => {
  it('reads a realm: its roles with composites by name, every client scope with mappers, the default and optional scope names', async () => {
    const realm = await newRealm();
    const observed = await queries()['keycloak.realm']({ kind: 'keycloak.realm', realm, ...fx.call() });
    const defaultRoles = observed?.roles.find((r) => r.role.name === `default-roles-${realm}`);
    expect({
      realm: observed?.realm.realm,
      // The default roles include roles of the account client: named by its clientId, not its id.
      defaultRoles: defaultRoles?.composites,
      builtInScopes: observed?.clientScopes.filter((s) => s.name === 'profile').map((s) => (s.protocolMappers ?? []).length > 0),
      defaults: observed?.defaultClientScopes.includes('profile'),
      optionals: observed?.optionalClientScopes.includes('address'),
    }).toEqual({
      realm,
      defaultRoles: { realm: expect.arrayContaining(['offline_access', 'uma_authorization']) as unknown as string[], clients: { account: expect.arrayContaining(['view-profile', 'manage-account']) as unknown as string[] } },
      builtInScopes: [true],
      defaults: true,
      optionals: true,
    });
    expect(await queries()['keycloak.realm']({ kind: 'keycloak.realm', realm: unique('absent'), ...fx.call() })).toBeUndefined();
  });

  it("reads a client's secret only for its owner, and sends no client-secret request for anyone else", async () => {
    const realm = await newRealm();
    const owner = { namespace: fx.namespace, name: 'shop' };
    const secret = rememberSecret(unique('client-secret'));
    await run({
      kind: 'keycloak.create',
      resource: { type: 'client', realm, clientId: 'shop' },
      body: { clientId: 'shop', publicClient: false, secret: sensitive(secret), attributes: ownershipAttributes(owner) },
      ...fx.call(),
    });
    const query = (who: KeycloakClientQuery['owner']): KeycloakClientQuery => ({ kind: 'keycloak.client', realm, clientId: 'shop', owner: who, roles: true, ...fx.call() });

    fx.requests.length = 0;
    const stranger = await queries()['keycloak.client'](query({ namespace: 'other', name: 'shop' }));
    expect({
      secret: stranger?.secret,
      // Keycloak puts the secret in every client representation: the query drops it.
      secretInRepresentation: stranger?.client['secret'],
      operations: fx.requests.map((r) => r.operation).filter((op) => op.includes('secret')),
    }).toEqual({ secret: undefined, secretInRepresentation: undefined, operations: [] });

    const ours = await queries()['keycloak.client'](query(owner));
    expect({ matches: ours?.secret?.equals(sensitive(secret)), shown: JSON.stringify(ours?.secret), serviceAccountRoles: ours?.serviceAccountRoles }).toEqual({
      matches: true,
      shown: '"***"',
      serviceAccountRoles: undefined,
    });
    // Without roles asked for, the roles are not listed: one request fewer.
    fx.requests.length = 0;
    const withoutRoles = await queries()['keycloak.client']({ ...query(owner), roles: false });
    expect({ roles: withoutRoles?.roles, operations: fx.requests.map((r) => r.operation) }).toEqual({ roles: [], operations: ['find_client', 'get_client_secret'] });
    expect(await queries()['keycloak.client']({ ...query(owner), clientId: 'absent' })).toBeUndefined();
    expect(await queries()['keycloak.client']({ ...query(owner), realm: unique('absent') })).toBeUndefined();
  });

  it('logs in with either kind of admin Secret: the admin user (password grant) and the service account (client_credentials)', async () => {
    for (const secret of [USER_SECRET, SA_SECRET]) {
      const realm = await newRealm(fx.call(secret));
      expect((await queries()['keycloak.realm']({ kind: 'keycloak.realm', realm, ...fx.call(secret) }))?.realm.realm).toBe(realm);
    }
  });

  it('picks up a rotated admin Secret after a 401: the old account is deleted, the Secret names a new one', async () => {
    const first = await newAdminAccount();
    const second = await newAdminAccount();
    const rotating = 'keycloak-admin-rotating';
    await writeSecret(fx.kube, fx.namespace, rotating, { 'client-id': first.clientId, 'client-secret': first.secret });
    const realm = await newRealm();
    const read = () => queries()['keycloak.realm']({ kind: 'keycloak.realm', realm, ...fx.call(rotating) });
    expect((await read())?.realm.realm).toBe(realm);

    await writeSecret(fx.kube, fx.namespace, rotating, { 'client-id': second.clientId, 'client-secret': second.secret });
    // Deleting the client deletes its service account user: Keycloak refuses its tokens from then on.
    await run({ kind: 'keycloak.delete', resource: { type: 'client', realm: 'master', clientId: first.clientId, id: first.id }, ...fx.call() });
    fx.requests.length = 0;
    expect((await read())?.realm.realm).toBe(realm);
    expect(fx.requests.slice(0, 3).map((r) => [r.operation, r.status])).toEqual([['get_realm', 401], ['token', 200], ['get_realm', 200]]);
  });
});

/** A confidential client in master whose service account has the admin role: an admin account a test may delete. */
async function newAdminAccount(): Promise<{ readonly clientId: string; readonly id: string; readonly secret: string }> {
  const clientId = unique('kcio-admin');
  const secret = rememberSecret(unique('admin-secret'));
  const { outputs } = await run({
    kind: 'keycloak.create',
    resource: { type: 'client', realm: 'master', clientId },
    body: { clientId, publicClient: false, serviceAccountsEnabled: true, secret: sensitive(secret) },
    ...fx.call(),
  });
  const id = String(outputs['id']);
  cleanups.push(() => run({ kind: 'keycloak.delete', resource: { type: 'client', realm: 'master', clientId, id }, ...fx.call() }));
  await run({ kind: 'keycloak.grantRoles', holder: { type: 'serviceAccount', client: { realm: 'master', clientId, id } }, roles: { realm: ['admin'], clients: {} }, ...fx.call() });
  return { clientId, id, secret };
}
