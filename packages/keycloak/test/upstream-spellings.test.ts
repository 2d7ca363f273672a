// The Kopf operator's spellings of realm and client fields: read as Keyward's fields, said in the Ready
// message, refused when both spellings differ. The API server's side is in upstream-spellings.int.test.ts.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { KubeObject } from '@keyward/kernel';
import { decodeKeycloakClient } from '../src/client/decode.js';
import { decodeRealm } from '../src/realm/decode.js';
import { adminRoleGrants } from '../src/realm/admin-grants.js';
import { keycloakClientCrd } from '../src/client/crd.js';
import { keycloakRealmCrd } from '../src/realm/crd.js';
import { REALM_SECRET_LABEL, UPSTREAM_SECRET_LABEL, isOptedIn, realmSecretKey } from '../src/realm/secret-opt-in.js';
import { REALM_UPSTREAM_SPELLINGS } from '../src/realm/upstream.js';
import { CLIENT_UPSTREAM_SPELLINGS } from '../src/client/upstream.js';
import type { UpstreamSpelling } from '../src/upstream-spellings.js';
import { baseSpec as realmSpec, decoded, realmObject } from './realm/fixtures.js';

const clientObject = (spec: unknown): KubeObject => ({ apiVersion: 'vriesdemichael.github.io/v1', kind: 'KeycloakClient', metadata: { name: 'shop', namespace: 'team-a', uid: 'u', generation: 1 }, spec });
const clientSpec = { clientId: 'shop-web', realmRef: { name: 'shared-realm' } };

function decodedClient(spec: unknown): Record<string, unknown> {
  const result = decodeKeycloakClient(clientObject(spec));
  if (isLeft(result)) throw new Error(result.left.message);
  return result.right.spec as unknown as Record<string, unknown>;
}

describe('a realm in the Kopf operator\'s spellings', () => {
  it('decodes to Keyward\'s fields, and says which it read', () => {
    const spec = decoded(realmObject({
      ...realmSpec,
      roles: { realmRoles: [{ name: 'viewer', description: 'Reads' }] },
      security: { maxFailureWait: 900, minimumQuickLoginWait: 60, waitIncrement: 60, quickLoginCheckMillis: 1000, maxDeltaTime: 43_200, failureFactor: 5 },
      browserFlow: 'browser',
      directGrantFlow: 'direct grant',
      browserSecurityHeaders: { xFrameOptions: 'DENY', xXSSProtection: '1; mode=block' },
      instanceRef: { name: 'keycloak', namespace: 'keycloak-system' },
    })).spec;
    expect(spec.realmRoles).toEqual([{ name: 'viewer', description: 'Reads' }]);
    expect(spec.security).toEqual({ maxFailureWaitSeconds: 900, minimumQuickLoginWaitSeconds: 60, waitIncrementSeconds: 60, quickLoginCheckMilliSeconds: 1000, maxDeltaTimeSeconds: 43_200, failureFactor: 5 });
    expect(spec.flowBindings).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });
    expect(spec.browserSecurityHeaders).toEqual({ xFrameOptions: 'DENY' });
    expect(spec).not.toHaveProperty('instanceRef');
    expect(spec.upstreamSpellings).toEqual([
      'roles.realmRoles is read as realmRoles',
      'security.maxFailureWait is read as security.maxFailureWaitSeconds',
      'security.minimumQuickLoginWait is read as security.minimumQuickLoginWaitSeconds',
      'security.waitIncrement is read as security.waitIncrementSeconds',
      'security.quickLoginCheckMillis is read as security.quickLoginCheckMilliSeconds',
      'security.maxDeltaTime is read as security.maxDeltaTimeSeconds',
      'browserFlow is read as flowBindings.browserFlow',
      'directGrantFlow is read as flowBindings.directGrantFlow',
      'browserSecurityHeaders.xXSSProtection has no effect (Keycloak 26.2 and later send no X-XSS-Protection header)',
      'instanceRef has no effect (the operator reaches one Keycloak, the one of its --keycloak-url; operatorRef names the operator)',
    ]);
  });

  it('reads a password Secret without key as its key "password"', () => {
    const spec = decoded(realmObject({ ...realmSpec, smtpServer: { host: 'h', from: 'f', passwordSecret: { name: 'smtp' } } })).spec;
    expect(spec.smtpServer?.passwordSecret).toEqual({ name: 'smtp', key: 'password' });
  });

  it('refuses an SMTP password in the spec, naming passwordSecret as the way', () => {
    const result = decodeRealm(realmObject({ ...realmSpec, smtpServer: { host: 'h', from: 'f', auth: true, user: 'u', password: 'hunter2' } }));
    expect(isLeft(result) ? result.left.message : '').toBe('spec.smtpServer.password: smtpServer.password is refused: whoever can read this object would read the password; put it in a Secret and name it in smtpServer.passwordSecret');
    const smtp = (keycloakRealmCrd.spec.versions[0].schema.openAPIV3Schema.properties.spec as { properties: Record<string, { 'x-kubernetes-validations'?: unknown }> }).properties['smtpServer'];
    expect(smtp?.['x-kubernetes-validations']).toEqual([expect.objectContaining({ rule: '!has(self.password)', fieldPath: '.password', message: expect.stringContaining('smtpServer.passwordSecret') })]);
  });

  it('refuses a field stated in both spellings with different values, naming both', () => {
    const result = decodeRealm(realmObject({ ...realmSpec, security: { maxFailureWait: 60, maxFailureWaitSeconds: 120 } }));
    expect(isLeft(result) ? result.left.message : '').toBe('spec.security.maxFailureWait: security.maxFailureWait and security.maxFailureWaitSeconds are the same field (the first is the Kopf operator\'s spelling) and differ: state one of them');
  });

  it('accepts both spellings when they agree', () => {
    expect(decoded(realmObject({ ...realmSpec, browserFlow: 'browser', flowBindings: { browserFlow: 'browser' } })).spec.flowBindings).toEqual({ browserFlow: 'browser' });
  });

  it('has no Keyward spelling in it: a spec in Keyward\'s own words carries no note', () => {
    expect(decoded(realmObject({ ...realmSpec, security: { maxFailureWaitSeconds: 60 } })).spec).not.toHaveProperty('upstreamSpellings');
  });
});

describe('a realm role in the Kopf operator\'s spellings', () => {
  const roles = (realmRoles: readonly unknown[]): KubeObject => realmObject({ ...realmSpec, roles: { realmRoles } });

  it('reads compositeRoles as its realm composites, takes composite as Keycloak sets it, and says so', () => {
    const spec = decoded(roles([
      { name: 'editor', composite: true, compositeRoles: ['viewer', 'commenter'], composites: { clients: { shop: ['reader'] } } },
      { name: 'viewer', composite: false },
    ])).spec;
    expect(spec.realmRoles).toEqual([{ name: 'editor', composites: { realm: ['viewer', 'commenter'], clients: { shop: ['reader'] } } }, { name: 'viewer' }]);
    expect(spec.upstreamSpellings).toEqual([
      'roles.realmRoles is read as realmRoles',
      'realmRoles[].compositeRoles is read as realmRoles[].composites.realm',
      'realmRoles[].composite has no effect (Keycloak marks a role composite when it has composites, which compositeRoles states)',
    ]);
  });

  it('refuses compositeRoles next to composites.realm, naming the role', () => {
    const result = decodeRealm(roles([{ name: 'viewer' }, { name: 'editor', compositeRoles: ['viewer'], composites: { realm: ['viewer'] } }]));
    expect(isLeft(result) ? result.left.message : '').toBe('spec.realmRoles[1].compositeRoles: realmRoles[].compositeRoles and realmRoles[].composites.realm are the same field (the first is the Kopf operator\'s spelling): state one of them');
  });

  it('is guarded as composites.realm is: a composite reaching an admin role, made by hand included, is named', () => {
    const spec = decoded(roles([{ name: 'power', composite: true, compositeRoles: ['handmade'] }])).spec;
    const handmade = { role: { id: 'h', name: 'handmade', composite: true, attributes: {} }, composites: { realm: [], clients: { 'realm-management': ['view-users'] } } };
    expect(adminRoleGrants(spec, [handmade])).toEqual(['composites of realm role power: handmade (reaches realm-management/view-users)']);
  });

  it('checks compositeRoles as composites.realm: a name twice is refused', () => {
    const result = decodeRealm(roles([{ name: 'editor', compositeRoles: ['viewer', 'viewer'] }]));
    expect(isLeft(result) ? result.left.message : '').toContain('spec.realmRoles[0].composites.realm[1]: duplicate');
  });

  it('is in the schema of both lists of realm roles, which refuses both spellings in one role', () => {
    const spec = keycloakRealmCrd.spec.versions[0].schema.openAPIV3Schema.properties.spec as { properties: Record<string, { items?: unknown; properties?: Record<string, { items?: unknown }> }> };
    for (const items of [spec.properties['realmRoles']?.items, spec.properties['roles']?.properties?.['realmRoles']?.items] as ({ properties: Record<string, { type: string }>; 'x-kubernetes-validations': { rule: string }[] } | undefined)[]) {
      expect([items?.properties['compositeRoles']?.type, items?.properties['composite']?.type]).toEqual(['array', 'boolean']);
      expect(items?.['x-kubernetes-validations']).toEqual([expect.objectContaining({ rule: '!(has(self.compositeRoles) && has(self.composites) && has(self.composites.realm))', fieldPath: '.compositeRoles' })]);
    }
    // The spec's own rules name no field of an item: the API server takes only paths without lists.
    expect(JSON.stringify((spec as { 'x-kubernetes-validations'?: unknown })['x-kubernetes-validations'])).not.toContain('[]');
  });
});

describe('a client in the Kopf operator\'s spellings', () => {
  it('decodes its flow overrides and keeps its rotation time, and drops what Keycloak has no place for, saying so', () => {
    const spec = decodedClient({
      ...clientSpec,
      authenticationFlows: { browserFlow: 'browser', directGrantFlow: 'direct grant', clientAuthenticationFlow: 'clients' },
      secretRotation: { enabled: true, rotationPeriod: '30d', rotationTime: '03:00', timezone: 'Europe/Amsterdam' },
    });
    expect(spec['authenticationFlowOverrides']).toEqual({ browser: 'browser', directGrant: 'direct grant' });
    expect(spec['secretRotation']).toEqual({ enabled: true, rotationPeriod: '30d', gracePeriod: '1h', rotationTime: '03:00', timezone: 'Europe/Amsterdam' });
    expect(spec['upstreamSpellings']).toEqual([
      'authenticationFlows.browserFlow is read as authenticationFlowOverrides.browser',
      'authenticationFlows.directGrantFlow is read as authenticationFlowOverrides.directGrant',
      'authenticationFlows.clientAuthenticationFlow has no effect (Keycloak overrides only the browser and direct grant flows per client; bind it for the realm (flowBindings.clientAuthenticationFlow))',
    ]);
  });

  it('takes the Kopf operator\'s settings, protocol and secret fields as they are', () => {
    const spec = decodedClient({ ...clientSpec, protocol: 'docker-v2', secretName: 'shop-oidc', manageSecret: false, settings: { clientAuthenticatorType: 'client-jwt', alwaysDisplayInConsole: true } });
    expect(spec).toMatchObject({ protocol: 'docker-v2', secretName: 'shop-oidc', manageSecret: false, settings: { clientAuthenticatorType: 'client-jwt', alwaysDisplayInConsole: true } });
  });

  it('refuses a time zone the runtime does not know, naming the field', () => {
    const result = decodeKeycloakClient(clientObject({ ...clientSpec, secretRotation: { enabled: true, rotationTime: '03:00', timezone: 'Mars/Olympus' } }));
    expect(isLeft(result) ? result.left.message : '').toBe('spec.secretRotation.timezone: is no time zone this operator knows (an IANA name such as Europe/Amsterdam or UTC)');
  });

  it('refuses a flow override stated in both spellings with different values, naming both', () => {
    const result = decodeKeycloakClient(clientObject({ ...clientSpec, authenticationFlows: { browserFlow: 'a' }, authenticationFlowOverrides: { browser: 'b' } }));
    expect(isLeft(result) ? result.left.message : '').toContain('spec.authenticationFlows.browserFlow: authenticationFlows.browserFlow and authenticationFlowOverrides.browser are the same field');
  });
});

describe('the schemas', () => {
  // `list[].field` is a field of each item of a list.
  const propertyAt = (schema: unknown, path: string): Record<string, unknown> | undefined =>
    path.split('.').reduce<unknown>((node, key) => {
      const property = (node as { properties?: Record<string, unknown> } | undefined)?.properties?.[key.replace(/\[\]$/, '')];
      return key.endsWith('[]') ? (property as { items?: unknown } | undefined)?.items : property;
    }, schema) as Record<string, unknown> | undefined;
  const specOf = (crd: { spec: { versions: readonly { schema: { openAPIV3Schema: { properties: { spec: unknown } } } }[] } }): unknown => crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec;

  it.each([
    ['KeycloakRealm', specOf(keycloakRealmCrd), REALM_UPSTREAM_SPELLINGS],
    ['KeycloakClient', specOf(keycloakClientCrd), CLIENT_UPSTREAM_SPELLINGS],
  ] as const)('of %s declare each upstream field, with the type of the field it means', (_kind, spec, spellings: readonly UpstreamSpelling[]) => {
    for (const spelling of spellings) {
      const declared = propertyAt(spec, spelling.upstream);
      const stated = (spelling.schema as { type: string } | undefined)?.type;
      // A field inside one of two shapes (defaultRoles) is untyped: the spelling states the type it takes.
      expect([spelling.upstream, declared?.['type']]).toEqual([spelling.upstream, spelling.keyward === undefined ? stated : propertyAt(spec, spelling.keyward)?.['type'] ?? stated]);
    }
  });
});

describe('the Secret opt-in', () => {
  const secret = (labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'smtp', namespace: 'shop', labels } });

  it('takes the Kopf operator\'s label as well as ours, and the read requires again the one the Secret carries', () => {
    expect(isOptedIn(secret({ [UPSTREAM_SECRET_LABEL]: 'true' }))).toBe(true);
    expect(isOptedIn(secret({ [UPSTREAM_SECRET_LABEL]: 'false' }))).toBe(false);
    expect(realmSecretKey('shop', { name: 'smtp', key: 'password' }, secret({ [UPSTREAM_SECRET_LABEL]: 'true' })).requiredLabels).toEqual({ [UPSTREAM_SECRET_LABEL]: 'true' });
    expect(realmSecretKey('shop', { name: 'smtp', key: 'password' }, secret({ [UPSTREAM_SECRET_LABEL]: 'true', [REALM_SECRET_LABEL]: 'true' })).requiredLabels).toEqual({ [REALM_SECRET_LABEL]: 'true' });
    expect(realmSecretKey('shop', { name: 'smtp', key: 'password' }).requiredLabels).toEqual({ [REALM_SECRET_LABEL]: 'true' });
  });
});
