import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { keystoneAdmin, rememberSecret, testEnvironment, type KeystoneUserCredentials } from '@keyward/test-env';
import { KeystoneClient, type KeystoneRequestInfo, type PasswordAuthRequest } from '../../src/apis/keystone/io/client.js';
import { TokenCache } from '../../src/apis/keystone/io/token-cache.js';
import { sensitive } from '@keyward/kernel';
import { keystoneFailure } from './keystone-failure.js';


/** A fresh service user (project "service", role "service") with a random name and password. */
async function serviceUser(): Promise<{ user: KeystoneUserCredentials; login: PasswordAuthRequest }> {
  const userName = `keyward-it-${randomBytes(4).toString('hex')}`;
  const password = rememberSecret(`pw-${randomBytes(12).toString('hex')}`);
  const user = await (await keystoneAdmin()).ensureServiceUser({ userName, password });
  const login = { userName, userDomain: user.domain, password: sensitive(password), projectName: user.projectName, projectDomain: user.domain };
  return { user, login };
}

describe('KeystoneClient against a real Keystone', () => {
  let keystone: KeystoneClient;
  const seen: KeystoneRequestInfo[] = [];

  beforeAll(() => {
    const url = testEnvironment().keystone?.url;
    if (url === undefined) throw new Error('the test environment runs without Keystone');
    keystone = new KeystoneClient({ baseUrl: url, observer: { onRequest: (info) => seen.push(info) } });
  });

  it('authenticates with a password and gets a project token for the right user', async () => {
    const { user, login } = await serviceUser();

    const token = await keystone.authenticate(login);

    expect(token.userId).toBe(user.userId);
    expect(token.token.reveal()).toMatch(/^\S{20,}$/);
    expect(Date.parse(token.expiresAt)).toBeGreaterThan(Date.now());
    expect(seen).toContainEqual(expect.objectContaining({ operation: 'authenticate', status: 201 }));
  });

  it('creates, finds, uses and revokes an application credential', async () => {
    const { user, login } = await serviceUser();
    const { token } = await keystone.authenticate(login);
    const name = `cred-${randomBytes(3).toString('hex')}`;
    // Whole seconds: Keystone keeps the expiry to the second, so it comes back exactly.
    const expiresAt = new Date(Math.floor(Date.now() / 1_000) * 1_000 + 24 * 3_600_000);
    const accessRule = { service: 'identity', path: '/v3/auth/tokens', method: 'GET' };

    const created = await keystone.createApplicationCredential(token, user.userId, {
      name,
      description: 'keyward integration test',
      roles: ['service'],
      accessRules: [accessRule],
      unrestricted: false,
      expiresAt: expiresAt.toISOString(),
    });
    expect(created).toMatchObject({ name, roles: ['service'], accessRules: [accessRule] });
    expect(Date.parse(created.expiresAt ?? '')).toBe(expiresAt.getTime());
    expect(created.secret.reveal().length).toBeGreaterThan(20);

    const viaCredential = await keystone.authenticateWithApplicationCredential({ id: created.id, secret: created.secret });
    expect(viaCredential.userId).toBe(user.userId);
    expect(viaCredential.token.reveal()).not.toBe(token.reveal());

    const listed = await keystone.listApplicationCredentials(token, user.userId, { name });
    expect(listed).toEqual([{ id: created.id, name, description: 'keyward integration test', expiresAt: created.expiresAt }]);
    expect(JSON.stringify(listed)).not.toContain(created.secret.reveal());
    await expect(keystone.listApplicationCredentials(token, user.userId, { name: `${name}-other` })).resolves.toEqual([]);

    await expect(keystone.revokeApplicationCredential(token, user.userId, created.id)).resolves.toBe('revoked');

    // Keystone answers a login with a deleted credential 404 "Could not find Application Credential", not 401.
    const afterRevoke = await keystoneFailure(keystone.authenticateWithApplicationCredential({ id: created.id, secret: created.secret }));
    expect(afterRevoke).toMatchObject({ code: 404, reason: 'NotFound', retryable: false });
    expect(afterRevoke.message).toContain(`authenticate with application credential ${created.id}: HTTP 404`);
    expect(afterRevoke.message).not.toContain(created.secret.reveal());

    await expect(keystone.revokeApplicationCredential(token, user.userId, created.id)).resolves.toBe('absent');
    await expect(keystone.listApplicationCredentials(token, user.userId, { name })).resolves.toEqual([]);
  });

  it('rejects a wrong application credential secret with 401', async () => {
    const { user, login } = await serviceUser();
    const { token } = await keystone.authenticate(login);
    const created = await keystone.createApplicationCredential(token, user.userId, {
      name: 'wrong-secret',
      description: '',
      roles: ['service'],
      unrestricted: false,
      expiresAt: undefined,
    });
    expect(created.expiresAt).toBeNull();
    expect(created.accessRules).toEqual([]);
    // Changed at the start: Keystone hashes secrets with bcrypt, which ignores everything after 72 bytes, so
    // an 86-character secret with a character appended still authenticates.
    const secret = created.secret.reveal();
    const wrongSecret = sensitive(`${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`);

    const error = await keystoneFailure(keystone.authenticateWithApplicationCredential({ id: created.id, secret: wrongSecret }));

    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized', retryable: false });
    for (const text of [String(error), error.message, JSON.stringify(error), inspect(error)]) {
      expect(text).not.toContain(wrongSecret.reveal());
      expect(text).not.toContain(token.reveal());
    }
    await keystone.revokeApplicationCredential(token, user.userId, created.id);
  });

  it('rejects a wrong password with 401 and a message without the password', async () => {
    const { login } = await serviceUser();
    const wrong = `${login.password.reveal()}-wrong`;

    const error = await keystoneFailure(keystone.authenticate({ ...login, password: sensitive(wrong) }));

    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized', retryable: false });
    expect(error.message).toContain(login.userName);
    for (const text of [String(error), error.message, JSON.stringify(error), inspect(error)]) expect(text).not.toContain(wrong);
  });

  it('reports Keystone refusing a role the user does not hold, naming the credential', async () => {
    const { user, login } = await serviceUser();
    const { token } = await keystone.authenticate(login);

    const error = await keystoneFailure(
      keystone.createApplicationCredential(token, user.userId, { name: 'too-mighty', description: '', roles: ['admin'], unrestricted: false, expiresAt: undefined }),
    );

    expect(error).toMatchObject({ code: 400, reason: 'BadRequest', retryable: false });
    expect(error.message).toContain(`create application credential too-mighty for user ${user.userId}: HTTP 400`);
    expect(error.message).toContain('unassigned role');
  });

  it('serves a cached token to a second caller', async () => {
    const { login } = await serviceUser();
    const cache = new TokenCache();
    const before = seen.filter((info) => info.operation === 'authenticate').length;

    const first = await cache.token(keystone, login);
    const second = await cache.token(keystone, login);

    expect(second.token.equals(first.token)).toBe(true);
    expect(seen.filter((info) => info.operation === 'authenticate').length).toBe(before + 1);
  });
});
