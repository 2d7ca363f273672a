import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { decodeRealm, readRealmStatus } from '../../src/realm/decode.js';
import { REALM_PRUNABLE_FIELDS } from '../../src/realm/spec.js';
import { baseSpec, decoded, realmObject } from './fixtures.js';

function rejection(spec: unknown): string {
  const result = decodeRealm(realmObject(spec));
  if (!isLeft(result)) throw new Error('expected the spec to be rejected');
  return result.left.message;
}

describe('decoding a KeycloakRealm', () => {
  it('applies the defaults the CRD applies', () => {
    const realm = decoded(realmObject({ ...baseSpec, clientScopes: [{ name: 'shop-api' }] }));
    expect(realm.spec.deletionPolicy).toBe('Delete');
    expect(realm.spec.clientScopes?.[0]?.protocol).toBe('openid-connect');
  });

  it('keeps a full spec as written', () => {
    const spec = {
      ...baseSpec,
      deletionPolicy: 'Retain',
      security: { registrationAllowed: true, sslRequired: 'all', failureFactor: 5 },
      tokenSettings: { accessTokenLifespan: 600, clientSessionIdleTimeout: 0 },
      smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
      realmRoles: [{ name: 'admin', composites: { realm: ['viewer'], clients: { 'realm-management': ['view-users'] } } }, { name: 'viewer' }],
      identityProviders: [{ alias: 'github', providerId: 'oidc', displayName: 'GitHub', enabled: true, trustEmail: true, hideOnLogin: false, firstBrokerLoginFlowAlias: 'first broker login', config: { clientId: 'shop', tokenUrl: 'https://gh.example.com/token' }, configSecrets: { clientSecret: { name: 'github-oidc', key: 'client-secret' } }, mappers: [{ name: 'dept', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: 'department', 'attribute.value': 'engineering' } }] }],
    };
    expect(decoded(realmObject(spec)).spec).toEqual(spec);
  });

  it.each([
    ['no spec', undefined, 'spec: required'],
    ['no realmName', { displayName: 'x' }, 'spec.realmName: required'],
    ['a realmName with a slash', { realmName: 'a/b' }, 'spec.realmName: expected a string of 1 to 237 characters (letters, digits, - and _, starting and ending with a letter or digit), got "a/b"'],
    ['an unknown sslRequired', { ...baseSpec, security: { sslRequired: 'sometimes' } }, 'spec.security.sslRequired: expected one of none, external, all, got "sometimes"'],
    ['duplicate emails with login by email', { ...baseSpec, security: { duplicateEmailsAllowed: true, loginWithEmailAllowed: true } }, 'spec.security.duplicateEmailsAllowed: duplicateEmailsAllowed cannot be combined with registrationEmailAsUsername or loginWithEmailAllowed (Keycloak turns them off)'],
    ['duplicate emails with email as username', { ...baseSpec, security: { duplicateEmailsAllowed: true, registrationEmailAsUsername: true } }, 'spec.security.duplicateEmailsAllowed: duplicateEmailsAllowed cannot be combined with registrationEmailAsUsername or loginWithEmailAllowed (Keycloak turns them off)'],
    ['a failureFactor of 0', { ...baseSpec, security: { failureFactor: 0 } }, 'spec.security.failureFactor: expected an integer from 1 to 2147483647, got 0'],
    ['a fractional lifespan', { ...baseSpec, tokenSettings: { accessTokenLifespan: 1.5 } }, 'spec.tokenSettings.accessTokenLifespan: expected an integer from 1 to 2147483647, got 1.5'],
    ['an unknown OTP type', { ...baseSpec, otpPolicy: { type: 'sms' } }, 'spec.otpPolicy.type: expected one of totp, hotp, got "sms"'],
    ['7 OTP digits', { ...baseSpec, otpPolicy: { digits: 7 } }, 'spec.otpPolicy.digits: expected one of 6, 8, got 7'],
    ['an OTP period of 0', { ...baseSpec, otpPolicy: { period: 0 } }, 'spec.otpPolicy.period: expected an integer from 1 to 2147483647, got 0'],
    ['an unknown prunable field', { ...baseSpec, pruneUnlisted: ['groups', 'users'] }, `spec.pruneUnlisted[1]: expected one of ${REALM_PRUNABLE_FIELDS.join(', ')}, got "users"`],
    ['an unknown WebAuthn signature algorithm', { ...baseSpec, webAuthnPolicy: { signatureAlgorithms: ['ES256', 'XX1'] } }, 'spec.webAuthnPolicy.signatureAlgorithms[1]: expected one of ES256, ES384, ES512, RS256, RS384, RS512, RS1, got "XX1"'],
    ['a negative passwordless timeout', { ...baseSpec, webAuthnPasswordlessPolicy: { createTimeout: -5 } }, 'spec.webAuthnPasswordlessPolicy.createTimeout: expected an integer from 0 to 2147483647, got -5'],
    ['an unknown resident key choice', { ...baseSpec, webAuthnPasswordlessPolicy: { requireResidentKey: 'yes' } }, 'spec.webAuthnPasswordlessPolicy.requireResidentKey: expected one of not specified, Yes, No, got "yes"'],
    ['a header that is no string', { ...baseSpec, browserSecurityHeaders: { xFrameOptions: false } }, 'spec.browserSecurityHeaders.xFrameOptions: expected a string, got false'],
    ['a port beyond 65535', { ...baseSpec, smtpServer: { host: 'h', from: 'f', port: 70000 } }, 'spec.smtpServer.port: expected an integer from 1 to 65535, got 70000'],
    ['an SMTP server without from', { ...baseSpec, smtpServer: { host: 'h' } }, 'spec.smtpServer.from: required'],
    // A password Secret without key reads its key "password", as the Kopf operator's manifests expect.
    ['a password Secret with an empty key', { ...baseSpec, smtpServer: { host: 'h', from: 'f', passwordSecret: { name: 'smtp', key: '' } } }, 'spec.smtpServer.passwordSecret.key: expected a string of at least 1 character, got ""'],
    ['a grant that is no namespace', { ...baseSpec, clientAuthorizationGrants: ['Team_A'] }, 'spec.clientAuthorizationGrants[0]: expected a string of 1 to 63 characters (a namespace name), got "Team_A"'],
    ['a grant listed twice', { ...baseSpec, clientAuthorizationGrants: ['a', 'a'] }, 'spec.clientAuthorizationGrants[1]: duplicate of spec.clientAuthorizationGrants[0] ("a")'],
    ['a role listed twice', { ...baseSpec, realmRoles: [{ name: 'admin' }, { name: 'admin' }] }, 'spec.realmRoles[1]: duplicate of spec.realmRoles[0] ("admin")'],
    ['a built-in role', { ...baseSpec, realmRoles: [{ name: 'offline_access' }] }, 'spec.realmRoles[0].name: is a role Keycloak makes in every realm (offline_access, uma_authorization, default-roles-<realm>)'],
    ['the default role', { ...baseSpec, realmRoles: [{ name: 'default-roles-shop' }] }, 'spec.realmRoles[0].name: is a role Keycloak makes in every realm (offline_access, uma_authorization, default-roles-<realm>)'],
    ['a built-in client scope', { ...baseSpec, clientScopes: [{ name: 'profile' }] }, 'spec.clientScopes[0].name: is a client scope Keycloak makes in every realm'],
    ['a mapper without protocolMapper', { ...baseSpec, clientScopes: [{ name: 'api', protocolMappers: [{ name: 'm' }] }] }, 'spec.clientScopes[0].protocolMappers[0].protocolMapper: required'],
    ['an unknown deletion policy', { ...baseSpec, deletionPolicy: 'Orphan' }, 'spec.deletionPolicy: expected one of Delete, Retain, got "Orphan"'],
    ['an attribute that is no string', { ...baseSpec, attributes: { tier: 1 } }, 'spec.attributes.tier: expected a string, got 1'],
    ['an identity provider without providerId', { ...baseSpec, identityProviders: [{ alias: 'gh' }] }, 'spec.identityProviders[0].providerId: required'],
    ['an alias with a slash', { ...baseSpec, identityProviders: [{ alias: 'a/b', providerId: 'oidc' }] }, 'spec.identityProviders[0].alias: expected a string of 1 to 255 characters (letters, digits, ., _ and -), got "a/b"'],
    ['an alias listed twice', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc' }, { alias: 'gh', providerId: 'saml' }] }, 'spec.identityProviders[1]: duplicate of spec.identityProviders[0] ("gh")'],
    ['a config key from a Secret with a dot', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', configSecrets: { 'client.secret': { name: 's', key: 'k' } } }] }, 'spec.identityProviders[0].configSecrets.client.secret: expected a string of 1 to 255 characters (letters, digits, _ and -), got "client.secret"'],
    ['a config Secret without key', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', configSecrets: { clientSecret: { name: 's' } } }] }, 'spec.identityProviders[0].configSecrets.clientSecret.key: required'],
    ['a mapper without its type', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', mappers: [{ name: 'm' }] }] }, 'spec.identityProviders[0].mappers[0].identityProviderMapper: required'],
    ['a switch that is no boolean', { ...baseSpec, identityProviders: [{ alias: 'gh', providerId: 'oidc', trustEmail: 'yes' }] }, 'spec.identityProviders[0].trustEmail: expected true or false, got "yes"'],
  ])('names the field of %s', (_what, spec, message) => {
    expect(rejection(spec)).toBe(message);
  });

  it('keeps only the status fields it knows, with the right types', () => {
    const status = readRealmStatus({ realmId: 'id', smtpPasswordVersion: 7, endpoints: { issuer: 'i' }, message: 'm', extra: true, observedGeneration: 2 });
    expect(status).toEqual({ realmId: 'id', message: 'm', observedGeneration: 2 });
    expect(readRealmStatus({ identityProviderSecretVersions: { a: '5', b: 6 } })).toEqual({ identityProviderSecretVersions: { a: '5' } });
  });
});
