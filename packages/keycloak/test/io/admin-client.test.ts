import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { sensitive } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import type { KeycloakCall } from '../../src/apis/keycloak/actions.js';
import { KeycloakAdminClient, AdminTokenCache, adminCredentialsFrom, keycloakTransportPool, type AdminCredentials } from '../../src/io.js';
import { nockPerTest } from './nock-lifecycle.js';

const URL = 'http://keycloak.example.test';
const TOKEN_PATH = '/realms/master/protocol/openid-connect/token';
const call: KeycloakCall = { server: { url: URL, credentials: { namespace: 'ops', name: 'kc-admin' } }, chargeTo: 'team-a' };
const request = { method: 'GET', path: '/realms/shop', operation: 'get_realm', description: 'read realm shop' } as const;

const closeAfterTest = nockPerTest();

/** A client whose credential reads, token-bucket and admin-bucket acquisitions are counted; no pause is waited out. */
function setup(options: { readonly now?: () => number; readonly credentials?: () => AdminCredentials } = {}) {
  const counts = { credentialReads: 0, tokenAcquires: 0, adminAcquires: [] as string[] };
  const limiter = {
    acquire: (namespace: string) => { counts.adminAcquires.push(namespace); return Promise.resolve(); },
    acquireToken: () => { counts.tokenAcquires += 1; return Promise.resolve(); },
  };
  const transports = keycloakTransportPool({ sleep: () => Promise.resolve(), tenantLimiter: limiter });
  closeAfterTest(transports);
  const tokens = new AdminTokenCache({
    readCredentials: () => {
      counts.credentialReads += 1;
      return Promise.resolve(options.credentials?.() ?? { grant: 'client_credentials', clientId: 'keyward', clientSecret: sensitive('s3cret-value') });
    },
    transportFor: transports,
    limiter,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { counts, admin: new KeycloakAdminClient({ transportFor: transports, tokens }) };
}

const tokenAnswer = (token: string) => [200, { access_token: token, expires_in: 60, token_type: 'Bearer' }] as const;

describe('the Keycloak admin client', () => {
  it('after a 401 forgets the token, reads the Secret again, logs in again and retries once', async () => {
    const { admin, counts } = setup();
    nock(URL).post(TOKEN_PATH).reply(...tokenAnswer('first-token')).post(TOKEN_PATH).reply(...tokenAnswer('second-token'));
    nock(URL).get('/admin/realms/shop').matchHeader('authorization', 'Bearer first-token').reply(401, { error: 'HTTP 401 Unauthorized' });
    nock(URL).get('/admin/realms/shop').matchHeader('authorization', 'Bearer second-token').reply(200, { realm: 'shop' });
    const response = await admin.send(call, request);
    expect({ status: response.status, counts }).toEqual({ status: 200, counts: { credentialReads: 2, tokenAcquires: 2, adminAcquires: ['team-a', 'team-a'] } });
  });

  it('gives up after the retry is refused too, with a retryable error that names the Secret and no token', async () => {
    const { admin } = setup();
    nock(URL).post(TOKEN_PATH).times(2).reply(...tokenAnswer('refused-token'));
    nock(URL).get('/admin/realms/shop').times(2).reply(401, { error: 'HTTP 401 Unauthorized' });
    const error = await admin.send(call, request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeywardError);
    const { code, retryable, message } = error as KeywardError;
    expect({ code, retryable, namesSecret: message.includes('ops/kc-admin'), leaks: message.includes('refused-token') }).toEqual({ code: 401, retryable: true, namesSecret: true, leaks: false });
  });

  it('retries a 5xx of a GET, and quotes Keycloak\'s errorMessage and field in a failure', async () => {
    const { admin } = setup();
    nock(URL).post(TOKEN_PATH).reply(...tokenAnswer('token'));
    nock(URL).get('/admin/realms/shop').reply(503, 'busy').get('/admin/realms/shop').reply(200, { realm: 'shop' });
    expect((await admin.send(call, request)).status).toBe(200);
    nock(URL).put('/admin/realms/shop').reply(400, { errorMessage: 'Invalid redirect uri', field: 'redirectUris' });
    const error = (await admin.send(call, { ...request, method: 'PUT', body: {} }).catch((caught: unknown) => caught)) as KeywardError;
    expect({ code: error.code, retryable: error.retryable, message: error.message }).toEqual({ code: 400, retryable: false, message: 'read realm shop: HTTP 400 Invalid redirect uri (field redirectUris)' });
  });

  it('reuses a token until 15 s before it expires, then asks for a new one with the Secret as it is then', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    let user = 'first-admin';
    const { admin, counts } = setup({ now: () => now, credentials: () => ({ grant: 'password', username: user, password: sensitive('pw-value') }) });
    nock(URL).post(TOKEN_PATH, (form: Record<string, string>) => form['username'] === 'first-admin' && form['client_id'] === 'admin-cli' && form['grant_type'] === 'password').reply(...tokenAnswer('first-token'));
    nock(URL).post(TOKEN_PATH, (form: Record<string, string>) => form['username'] === 'second-admin').reply(...tokenAnswer('second-token'));
    nock(URL).get('/admin/realms/shop').times(2).matchHeader('authorization', 'Bearer first-token').reply(200, {});
    nock(URL).get('/admin/realms/shop').matchHeader('authorization', 'Bearer second-token').reply(200, {});
    await admin.send(call, request);
    user = 'second-admin';
    now += 44_000;
    await admin.send(call, request);
    expect(counts.credentialReads).toBe(1);
    now += 2_000;
    await admin.send(call, request);
    expect({ credentialReads: counts.credentialReads, tokenAcquires: counts.tokenAcquires, pending: nock.pendingMocks() }).toEqual({ credentialReads: 2, tokenAcquires: 2, pending: [] });
  });

  it('reports a refused login as retryable, naming the Secret, without the secret', async () => {
    const { admin } = setup();
    nock(URL).post(TOKEN_PATH).reply(401, { error: 'unauthorized_client', error_description: 'Invalid client or Invalid client credentials' });
    const error = (await admin.send(call, request).catch((caught: unknown) => caught)) as KeywardError;
    expect({ reason: error.reason, retryable: error.retryable, message: error.message }).toEqual({
      reason: 'AdminLoginRefused',
      retryable: true,
      message: 'log in to Keycloak as service account keyward (credentials in Secret ops/kc-admin): HTTP 401 unauthorized_client: Invalid client or Invalid client credentials',
    });
  });
});

describe('admin credentials from a Secret', () => {
  const encode = (data: Record<string, string>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  const where = { namespace: 'ops', name: 'kc-admin' };

  it('prefers username and password, else takes client-id and client-secret, trimming a trailing newline', () => {
    const user = adminCredentialsFrom(encode({ username: 'admin', password: 'pw\n', 'client-id': 'c', 'client-secret': 's' }), where);
    const client = adminCredentialsFrom(encode({ 'client-id': 'keyward', 'client-secret': 'sec\n' }), where);
    expect({ user: user.grant === 'password' && user.password.equals(sensitive('pw')), client: client.grant === 'client_credentials' && client.clientSecret.equals(sensitive('sec')) }).toEqual({ user: true, client: true });
  });

  it('fails retryably, naming the Secret and the keys it needs, when neither pair is complete', () => {
    let error: unknown;
    try {
      adminCredentialsFrom(encode({ username: 'admin', 'client-secret': 's' }), where);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(KeywardError);
    expect({ retryable: (error as KeywardError).retryable, message: (error as KeywardError).message }).toEqual({
      retryable: true,
      message: 'Secret ops/kc-admin holds no Keycloak admin credentials: it needs the keys username and password, or client-id and client-secret',
    });
  });
});
