import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { masterTokenUrl, rememberSecret, testKeycloak } from '@keyward/test-env';

interface TokenAnswer {
  readonly access_token?: string;
  readonly refresh_token?: string;
  readonly token_type?: string;
  readonly error?: string;
}

/** Asks the master realm for a token; the tokens it hands out are recorded for the secret scan. */
async function requestToken(form: Readonly<Record<string, string>>): Promise<{ readonly status: number; readonly body: TokenAnswer }> {
  const keycloak = testKeycloak();
  const response = await fetch(masterTokenUrl(keycloak), { method: 'POST', body: new URLSearchParams(form) });
  const body = (await response.json()) as TokenAnswer;
  for (const token of [body.access_token, body.refresh_token]) if (token !== undefined) rememberSecret(token);
  return { status: response.status, body };
}

async function serviceAccountToken(): Promise<string> {
  const { clientId, clientSecret } = testKeycloak();
  const { status, body } = await requestToken({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  expect(status).toBe(200);
  return body.access_token ?? '';
}

interface AdminAnswer {
  readonly status: number;
  readonly location: string | null;
  readonly body: string;
}

/** A call to the admin REST API as the bootstrap service account, read to the end. */
async function admin(path: string, init: { readonly method?: string; readonly json?: unknown } = {}): Promise<AdminAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${await serviceAccountToken()}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${testKeycloak().url}/admin${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

describe('a real Keycloak', () => {
  it('gives the bootstrap service account a token with client_credentials', async () => {
    const { clientId, clientSecret } = testKeycloak();
    const { status, body } = await requestToken({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect({ status, tokenType: body.token_type, hasToken: (body.access_token ?? '').length > 0 }).toEqual({ status: 200, tokenType: 'Bearer', hasToken: true });
  });

  it('gives the bootstrap admin user a token with the password grant on admin-cli', async () => {
    const { username, password } = testKeycloak();
    const { status, body } = await requestToken({ grant_type: 'password', client_id: 'admin-cli', username, password });
    expect({ status, tokenType: body.token_type, hasRefreshToken: (body.refresh_token ?? '').length > 0 }).toEqual({ status: 200, tokenType: 'Bearer', hasRefreshToken: true });
  });

  it('answers 401 to a wrong client secret', async () => {
    const { clientId } = testKeycloak();
    const { status, body } = await requestToken({ grant_type: 'client_credentials', client_id: clientId, client_secret: randomBytes(16).toString('hex') });
    expect({ status, error: body.error, hasToken: body.access_token !== undefined }).toEqual({ status: 401, error: 'unauthorized_client', hasToken: false });
  });

  it('lists the master realm through the admin API', async () => {
    const response = await admin('/realms?briefRepresentation=true');
    expect(response.status).toBe(200);
    const realms = JSON.parse(response.body) as { realm: string }[];
    expect(realms.map((r) => r.realm)).toContain('master');
  });

  it('creates a realm, refuses a duplicate, and deletes it through the admin API', async () => {
    const realm = `smoke-${randomBytes(3).toString('hex')}`;
    const created = await admin('/realms', { method: 'POST', json: { realm, enabled: true } });
    expect({ status: created.status, location: created.location }).toEqual({ status: 201, location: `${testKeycloak().url}/admin/realms/${realm}` });
    expect((await admin(`/realms/${realm}`)).status).toBe(200);
    expect((await admin('/realms', { method: 'POST', json: { realm, enabled: true } })).status).toBe(409);

    expect((await admin(`/realms/${realm}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin(`/realms/${realm}`)).status).toBe(404);
  });
});
