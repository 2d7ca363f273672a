// A create Keycloak answers 409 is read again at once. A create whose answer was lost (a timeout while Keycloak
// went on and made it) and a create that lost a race both leave the thing there: the read finds it, and the
// Conflict is retryable, so the next reconcile reads it and decides by the ownership rules. A 409 the read does
// not confirm stays final. nock: Keycloak answers 409 with the thing absent only while a transaction commits.
import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { sensitive } from '@keyward/kernel';
import { isOutputRef, resolveTemplate, type Value } from '@keyward/kernel/plan';
import { KeywardError, type HandlerContext } from '@keyward/kernel/interpreter';
import type { KeycloakCall, KeycloakCreateAction, KeycloakResource } from '../../src/apis/keycloak/actions.js';
import { keycloakHandlers } from '../../src/apis/keycloak/io/handlers.js';
import { keycloakErrorPolicy } from '../../src/problems.js';
import { KeycloakAdminClient, AdminTokenCache, keycloakTransportPool } from '../../src/io.js';
import { nockPerTest } from './nock-lifecycle.js';

const URL = 'http://keycloak.example.test';
const TOKEN_PATH = '/realms/master/protocol/openid-connect/token';
const call: KeycloakCall = { server: { url: URL, credentials: { namespace: 'ops', name: 'kc-admin' } }, chargeTo: 'team-a' };
const DUPLICATE = { errorMessage: 'Conflict detected. See logs for details' };

const closeAfterTest = nockPerTest();

function handlers(): ReturnType<typeof keycloakHandlers> {
  const limiter = { acquire: () => Promise.resolve(), acquireToken: () => Promise.resolve() };
  const transports = keycloakTransportPool({ sleep: () => Promise.resolve(), tenantLimiter: limiter });
  closeAfterTest(transports);
  const tokens = new AdminTokenCache({
    readCredentials: () => Promise.resolve({ grant: 'client_credentials', clientId: 'keyward', clientSecret: sensitive('s3cret-value') }),
    transportFor: transports,
    limiter,
  });
  nock(URL).post(TOKEN_PATH).reply(200, { access_token: 'token', expires_in: 60, token_type: 'Bearer' });
  return keycloakHandlers({ admin: new KeycloakAdminClient({ transportFor: transports, tokens }), readSecret: () => Promise.reject(new Error('no secret is read here')) });
}

/** The plans here name every id: nothing is known only after an earlier step. */
const context: HandlerContext = {
  resolve: <T>(value: Value<T>): T => {
    if (isOutputRef(value)) throw new Error('no earlier step');
    return value;
  },
  resolveTemplate: (template) => resolveTemplate(template, () => { throw new Error('no earlier step'); }),
  lookup: () => { throw new Error('no earlier step'); },
};

async function createFailure(resource: KeycloakResource, body: Readonly<Record<string, string>>): Promise<KeywardError> {
  const action: KeycloakCreateAction = { kind: 'keycloak.create', ...call, resource, body };
  const error = await handlers()['keycloak.create'](action, context).then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof KeywardError)) throw new Error(`expected a KeywardError, got ${String(error)}`);
  return error;
}

const verdict = (error: KeywardError) => ({ code: error.code, reason: error.reason, retryable: error.retryable, next: keycloakErrorPolicy(error, 'keycloak.create') });

describe('a create Keycloak answers 409', () => {
  it('is read again at once, and found: a retryable Conflict, read again by the next reconcile without a report', async () => {
    nock(URL).post('/admin/realms').reply(409, DUPLICATE);
    nock(URL).get('/admin/realms/shop').reply(200, { realm: 'shop', attributes: { 'io.kubernetes.cr-name': 'shop' } });
    const error = await createFailure({ type: 'realm', realm: 'shop' }, { realm: 'shop' });
    expect(verdict(error)).toEqual({ code: 409, reason: 'Conflict', retryable: true, next: { next: 'retry', report: false } });
    expect(error.message).toContain('it exists now');
    expect(nock.isDone()).toBe(true);
  });

  it('stays a final Conflict when the read right after does not find it', async () => {
    nock(URL).post('/admin/realms').reply(409, DUPLICATE);
    nock(URL).get('/admin/realms/Shop').reply(404, { error: 'Realm not found.' });
    const error = await createFailure({ type: 'realm', realm: 'Shop' }, { realm: 'Shop' });
    expect(verdict(error)).toEqual({ code: 409, reason: 'Conflict', retryable: false, next: { next: 'backoff', report: true } });
    expect(nock.isDone()).toBe(true);
  });

  it('finds a client again by its clientId', async () => {
    nock(URL).post('/admin/realms/shop/clients').reply(409, { errorMessage: 'Client app already exists' });
    nock(URL).get('/admin/realms/shop/clients').query({ clientId: 'app' }).reply(200, [{ id: 'uuid-1', clientId: 'app' }]);
    expect(verdict(await createFailure({ type: 'client', realm: 'shop', clientId: 'app' }, { clientId: 'app' }))).toMatchObject({ retryable: true, next: { next: 'retry' } });
  });

  it('finds a group again by its path', async () => {
    nock(URL).post('/admin/realms/shop/groups').reply(409, { errorMessage: 'Top level group named \'ops\' already exists.' });
    nock(URL).get('/admin/realms/shop/group-by-path/ops').reply(200, { id: 'group-1', name: 'ops' });
    expect(verdict(await createFailure({ type: 'group', realm: 'shop', path: '/ops' }, { name: 'ops' }))).toMatchObject({ retryable: true, next: { next: 'retry' } });
  });

  it('stays final for a type that cannot be found again by name (an organization: its name or alias may clash with another)', async () => {
    nock(URL).post('/admin/realms/shop/organizations').reply(409, { errorMessage: 'A organization with the same name already exists.' });
    const error = await createFailure({ type: 'organization', realm: 'shop', alias: 'acme' }, { name: 'Acme', alias: 'acme' });
    expect(verdict(error)).toMatchObject({ retryable: false, next: { next: 'backoff', report: true } });
    expect(nock.isDone()).toBe(true);
  });
});
