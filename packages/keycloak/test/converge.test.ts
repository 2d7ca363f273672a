// The two controllers run together against the in-memory Keycloak until nothing is left to do: a realm and a
// client converge (every plan applied, then a reconcile with no step), and a second namespace's claim on the
// same clientId is refused. Fast proof that the diffs and the simulator agree; the real server is proved in
// the integration tests.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, findCondition, type KubeObject, type ObjectRef, InMemoryWorld } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { FakeClock } from '@keyward/kernel/testing';
import { CREDENTIALS_KEYS, REALM_SECRET_LABEL, keycloakClientType, keycloakRealmType } from '../src/index.js';
import { simulateKeycloak } from '../src/testing.js';
import { convergeAt, type KeycloakWorld } from './simulated-world.js';

const realmRef: ObjectRef = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
const clientRef = (namespace: string): ObjectRef => ({ type: keycloakClientType, namespace, name: 'shop' });

function world(): KeycloakWorld {
  const w = new InMemoryWorld({ keycloak: simulateKeycloak });
  w.put(coreTypes.secret, { metadata: { name: 'smtp', namespace: 'platform', labels: { [REALM_SECRET_LABEL]: 'true' } }, data: { password: Buffer.from('mail-pass').toString('base64') } });
  w.put(keycloakRealmType, {
    metadata: { name: 'shared', namespace: 'platform' },
    spec: {
      realmName: 'shared',
      displayName: 'Shared realm',
      clientAuthorizationGrants: ['team-a', 'team-b'],
      security: { registrationAllowed: true, sslRequired: 'external', bruteForceProtected: true, failureFactor: 5 },
      tokenSettings: { accessTokenLifespan: 600 },
      smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
      attributes: { tier: 'gold' },
      realmRoles: [{ name: 'viewer', description: 'reads' }, { name: 'admin', composites: { realm: ['viewer'] } }],
      clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop' } }] }],
      defaultClientScopes: ['shop-api'],
      clientProfiles: [{ name: 'pkce', executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': true } }] }],
      clientPolicies: [{ name: 'confidential-pkce', conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['pkce'] }],
      identityProviders: [{
        alias: 'upstream', providerId: 'oidc', displayName: 'Upstream', trustEmail: true, hideOnLogin: false,
        config: { clientId: 'shared', tokenUrl: 'https://upstream.example.com/token' },
        configSecrets: { clientSecret: { name: 'smtp', key: 'password' } },
        mappers: [{ name: 'department', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: 'department', 'attribute.value': 'engineering' } }],
      }],
      organizationsEnabled: true,
      organizations: [{ name: 'Acme', alias: 'acme', domains: [{ name: 'acme.example.com', verified: true }], attributes: { tier: ['gold'] }, identityProviders: [{ alias: 'upstream' }] }],
    },
  });
  return w;
}

function putClient(w: KeycloakWorld, namespace: string): void {
  w.put(keycloakClientType, {
    metadata: { name: 'shop', namespace },
    spec: {
      clientId: 'shop-web',
      realmRef: { name: 'shared', namespace: 'platform' },
      redirectUris: ['https://shop.example.com/*'],
      settings: { serviceAccountsEnabled: true, pkceCodeChallengeMethod: 'S256' },
      clientRoles: [{ name: 'buyer' }],
      serviceAccountRoles: { realmRoles: ['viewer'] },
    },
  });
}

const ready = (object: KubeObject | undefined) => findCondition(readConditions((object?.['status'] as { conditions?: unknown } | undefined)?.conditions), 'Ready');

describe('a KeycloakRealm and a KeycloakClient against the in-memory Keycloak', () => {
  it('converge, then make no writes at all', async () => {
    const w = world();
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    await convergeAt(w, realmRef, clock);
    expect(ready(w.get(realmRef))?.status).toBe('True');
    putClient(w, 'team-a');
    await convergeAt(w, clientRef('team-a'), clock);
    expect(ready(w.get(clientRef('team-a')))?.status).toBe('True');

    const keycloak = w.apis.keycloak;
    expect(keycloak.realmSmtpPassword('shared')).toBe('mail-pass');
    const secret = w.get({ type: coreTypes.secret, namespace: 'team-a', name: 'shop-credentials' });
    const data = (secret?.['data'] ?? {}) as Record<string, string>;
    expect(Buffer.from(data[CREDENTIALS_KEYS.clientSecret] ?? '', 'base64').toString()).toBe(keycloak.clientSecret('shared', 'shop-web'));

    const writes = keycloak.writes;
    await convergeAt(w, realmRef, clock);
    await convergeAt(w, clientRef('team-a'), clock);
    expect(keycloak.writes).toBe(writes);
  });

  it('keeps the realm its own through an update of its attributes (Keycloak replaces a realm\'s attributes whole)', async () => {
    const w = world();
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    await convergeAt(w, realmRef, clock);
    const stored = w.get(realmRef);
    const spec = (stored?.['spec'] ?? {}) as Record<string, unknown>;
    w.put(keycloakRealmType, { metadata: { name: 'shared', namespace: 'platform', generation: 2 }, spec: { ...spec, attributes: { tier: 'silver', zone: 'eu' } } });
    await convergeAt(w, realmRef, clock);
    expect(ready(w.get(realmRef))).toMatchObject({ status: 'True' });
  });

  it("refuses another namespace's claim on the same clientId, and writes it no Secret", async () => {
    const w = world();
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    await convergeAt(w, realmRef, clock);
    putClient(w, 'team-a');
    await convergeAt(w, clientRef('team-a'), clock);
    const secretBefore = w.apis.keycloak.clientSecret('shared', 'shop-web');

    putClient(w, 'team-b');
    await convergeAt(w, clientRef('team-b'), clock);
    const condition = ready(w.get(clientRef('team-b')));
    expect(condition?.status).toBe('False');
    expect(condition?.message).toMatch(/team-a\/shop/);
    expect(w.get({ type: coreTypes.secret, namespace: 'team-b', name: 'shop-credentials' })).toBeUndefined();
    expect(w.apis.keycloak.clientSecret('shared', 'shop-web')).toBe(secretBefore);
  });
});
