import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { httpCall, keystoneAdmin, passwordAuthBody, rememberSecret, testEnvironment } from '@keyward/test-env';

const json = { 'content-type': 'application/json' };

describe('a real Keystone with MariaDB', () => {
  it('lets a service user create an application credential with an access rule and log in with it', async () => {
    const url = testEnvironment().keystone?.url ?? '';
    const password = rememberSecret(randomBytes(12).toString('hex'));
    const user = await (await keystoneAdmin()).ensureServiceUser({ userName: `smoke-${randomBytes(3).toString('hex')}`, password });

    const login = await httpCall(`${url}/auth/tokens`, {
      method: 'POST',
      headers: json,
      body: passwordAuthBody({ username: user.userName, password, projectName: user.projectName, domain: user.domain }),
    });
    expect(login.status).toBe(201);
    const userToken = login.headers['x-subject-token'] ?? '';
    const tokenBody = JSON.parse(login.body) as { token: { user: { id: string } } };
    expect(tokenBody.token.user.id).toBe(user.userId);

    const created = await httpCall(`${url}/users/${user.userId}/application_credentials`, {
      method: 'POST',
      headers: { ...json, 'x-auth-token': userToken },
      body: JSON.stringify({
        application_credential: {
          name: 'smoke',
          roles: [{ name: 'service' }],
          access_rules: [{ service: 'identity', path: '/v3/auth/tokens', method: 'GET' }],
        },
      }),
    });
    expect(created.status).toBe(201);
    const credential = (JSON.parse(created.body) as { application_credential: { id: string; secret: string; access_rules: unknown[] } })
      .application_credential;
    expect(credential.access_rules).toHaveLength(1);
    rememberSecret(credential.secret);

    const appLogin = await httpCall(`${url}/auth/tokens`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        auth: { identity: { methods: ['application_credential'], application_credential: { id: credential.id, secret: credential.secret } } },
      }),
    });
    expect(appLogin.status).toBe(201);
    const appToken = JSON.parse(appLogin.body) as { token: { application_credential: { id: string; access_rules: unknown[] } } };
    expect(appToken.token.application_credential.id).toBe(credential.id);
    expect(appToken.token.application_credential.access_rules).toHaveLength(1);
  });
});
