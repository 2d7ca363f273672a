// jest-cost: 100 s
// stopComponent and startComponent for Keycloak: an outage of a length the caller chooses, after which its
// realms and bootstrap admins are still there; and no secret reaches its log across the restart.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEnvironment, type Environment, type EnvironmentInfo } from '../src/environment.js';
import { httpCall, type HttpResponse } from '../src/http.js';
import { masterTokenUrl, type KeycloakAdminCredentials } from '../src/keycloak.js';
import { assertNoSecretsInLogs, recordSecretIn } from '../src/secret-scan.js';

let env: Environment;

beforeAll(async () => {
  env = await startEnvironment({ ownership: 'session', keystone: false, keycloak: true, log: () => undefined });
}, 300_000);

afterAll(async () => {
  await env.stop(assertNoSecretsInLogs);
});

function keycloak(): KeycloakAdminCredentials {
  const { keycloak: credentials } = env.info;
  if (credentials === undefined) throw new Error('started without Keycloak');
  return credentials;
}

function requestToken(): Promise<HttpResponse> {
  const { clientId, clientSecret } = keycloak();
  return httpCall(masterTokenUrl(keycloak()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
  });
}

async function admin(method: string, path: string, json?: unknown): Promise<HttpResponse> {
  const token = (JSON.parse((await requestToken()).body) as { access_token: string }).access_token;
  recordSecretIn(env.info.dir, token);
  return httpCall(`${keycloak().url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

function keycloakPid(info: EnvironmentInfo): number | undefined {
  return info.components.find((c) => c.component === 'keycloak')?.pid;
}

describe('a Keycloak outage', () => {
  it('refuses connections from stopComponent until startComponent, and keeps its realms and bootstrap admins', async () => {
    const realm = `outage-${randomBytes(3).toString('hex')}`;
    expect((await admin('POST', '/realms', { realm, enabled: true })).status).toBe(201);
    const before = keycloakPid(env.info);

    await env.stopComponent('keycloak');
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(errorCode(await requestToken().catch((error: unknown) => error))).toBe('ECONNREFUSED');
    }

    await env.startComponent('keycloak');
    expect((await admin('GET', `/realms/${realm}`)).status).toBe(200);
    const saved = JSON.parse(readFileSync(join(env.info.dir, 'env.json'), 'utf8')) as EnvironmentInfo;
    expect(keycloakPid(saved)).toBe(keycloakPid(env.info));
    expect(keycloakPid(env.info)).not.toBe(before);
  });
});
