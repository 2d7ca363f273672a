import { describe, expect, it } from '@jest/globals';
import type { RealmRepresentation } from '../../src/apis/keycloak/representations.js';
import { desiredRealm } from '../../src/realm/desired.js';
import { MASKED_SECRET, diffRealm, realmCreation } from '../../src/realm/diff.js';
import { decoded, ours, realmObject } from './fixtures.js';

const smtp = { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } };
const keycloakSmtp = { host: 'smtp.example.com', from: 'noreply@example.com', port: '587', auth: 'true', user: 'mailer', password: MASKED_SECRET };
const passwordRef = { kind: 'secretKey', namespace: 'shop', name: 'smtp', key: 'password', requiredLabels: { 'keycloak.keyward.io/realm-secret': 'true' } };

/** A new realm's policies and headers, as Keycloak 26 shows them. */
const keycloakPolicies = {
  otpPolicyType: 'totp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyInitialCounter: 0, otpPolicyDigits: 6, otpPolicyLookAheadWindow: 1, otpPolicyPeriod: 30, otpPolicyCodeReusable: false,
  otpSupportedApplications: ['totpAppFreeOTPName'],
  webAuthnPolicyRpEntityName: 'keycloak', webAuthnPolicySignatureAlgorithms: ['ES256', 'RS256'], webAuthnPolicyRpId: '', webAuthnPolicyExtraOrigins: [],
  webAuthnPolicyPasswordlessRpEntityName: 'keycloak', webAuthnPolicyPasswordlessRequireResidentKey: 'not specified', webAuthnPolicyPasswordlessUserVerificationRequirement: 'required',
};
const keycloakHeaders = { contentSecurityPolicyReportOnly: '', xContentTypeOptions: 'nosniff', referrerPolicy: 'no-referrer', xRobotsTag: 'none', xFrameOptions: 'SAMEORIGIN' };

const desired = (spec: Record<string, unknown>) => desiredRealm(decoded(realmObject({ realmName: 'shop', ...spec })));
const observed = (fields: Record<string, unknown>): RealmRepresentation => ({ realm: 'shop', enabled: true, attributes: ours, ...(fields as Record<string, never>) });

describe('the desired realm', () => {
  it('holds only the fields the spec sets, in Keycloak\'s names, with ownership attributes', () => {
    const realm = desired({
      loginPageTitle: '<b>Shop</b>',
      description: 'the shop',
      themes: { login: 'shop' },
      localization: { enabled: true, supportedLocales: ['en'] },
      attributes: { tier: 'gold', [Object.keys(ours)[1] ?? '']: 'another-namespace' },
    });
    expect(realm.fields).toEqual({
      realm: 'shop',
      enabled: true,
      displayNameHtml: '<b>Shop</b>',
      loginTheme: 'shop',
      internationalizationEnabled: true,
      supportedLocales: ['en'],
      attributes: { tier: 'gold', description: 'the shop', ...ours },
    });
    expect(realm.smtpPassword).toBeUndefined();
  });

  it('creates a realm with the SMTP password read from its Secret, never in the body', () => {
    const creation = realmCreation(desired({ smtpServer: smtp }));
    expect(creation.body['smtpServer']).toEqual({ host: 'smtp.example.com', from: 'noreply@example.com', port: '587', auth: 'true', user: 'mailer' });
    expect(creation.secretFields).toEqual({ 'smtpServer.password': passwordRef });
  });
});

describe('the policy and header groups', () => {
  it('map to Keycloak\'s flat fields, only those the spec states', () => {
    const realm = desired({
      otpPolicy: { type: 'hotp', algorithm: 'HmacSHA256', digits: 8, lookAheadWindow: 2, period: 60, initialCounter: 5, codeReusable: true },
      webAuthnPolicy: { rpEntityName: 'shop', signatureAlgorithms: ['ES256'], extraOrigins: ['https://shop.example.com'] },
      webAuthnPasswordlessPolicy: { userVerificationRequirement: 'preferred', createTimeout: 60 },
      browserSecurityHeaders: { xFrameOptions: 'DENY', contentSecurityPolicyReportOnly: '' },
    });
    expect(realm.fields).toEqual({
      realm: 'shop',
      enabled: true,
      otpPolicyType: 'hotp', otpPolicyAlgorithm: 'HmacSHA256', otpPolicyDigits: 8, otpPolicyLookAheadWindow: 2, otpPolicyPeriod: 60, otpPolicyInitialCounter: 5, otpPolicyCodeReusable: true,
      webAuthnPolicyRpEntityName: 'shop', webAuthnPolicySignatureAlgorithms: ['ES256'], webAuthnPolicyExtraOrigins: ['https://shop.example.com'],
      webAuthnPolicyPasswordlessUserVerificationRequirement: 'preferred', webAuthnPolicyPasswordlessCreateTimeout: 60,
      browserSecurityHeaders: { xFrameOptions: 'DENY', contentSecurityPolicyReportOnly: '' },
      attributes: ours,
    });
  });

  it('create a realm with a policy stated in part completed by Keycloak\'s defaults, which Keycloak would leave unset', () => {
    const { body } = realmCreation(desired({ otpPolicy: { digits: 8 }, webAuthnPasswordlessPolicy: { rpId: 'example.com' } }));
    expect(body).toMatchObject({ otpPolicyType: 'totp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyDigits: 8, otpPolicyPeriod: 30, otpPolicyLookAheadWindow: 1, webAuthnPolicyPasswordlessRpEntityName: 'keycloak', webAuthnPolicyPasswordlessRpId: 'example.com', webAuthnPolicyPasswordlessUserVerificationRequirement: 'required' });
    expect(Object.keys(body).filter((field) => field.startsWith('webAuthnPolicy') && !field.startsWith('webAuthnPolicyPasswordless'))).toEqual([]);
  });

  it('send a policy that differs whole, Keycloak\'s values under the spec\'s, since Keycloak resets the fields a PUT leaves out', () => {
    const change = diffRealm(desired({ otpPolicy: { digits: 8 } }), observed(keycloakPolicies), false);
    expect(change).toEqual({
      changed: ['otpPolicyDigits'],
      body: { realm: 'shop', otpPolicyType: 'totp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyInitialCounter: 0, otpPolicyDigits: 8, otpPolicyLookAheadWindow: 1, otpPolicyPeriod: 30, otpPolicyCodeReusable: false },
    });
    const passwordless = diffRealm(desired({ webAuthnPasswordlessPolicy: { requireResidentKey: 'No' } }), observed(keycloakPolicies), false);
    expect(passwordless).toEqual({
      changed: ['webAuthnPolicyPasswordlessRequireResidentKey'],
      body: { realm: 'shop', webAuthnPolicyPasswordlessRpEntityName: 'keycloak', webAuthnPolicyPasswordlessRequireResidentKey: 'No', webAuthnPolicyPasswordlessUserVerificationRequirement: 'required' },
    });
  });

  it('send the headers that differ with every header Keycloak has', () => {
    const change = diffRealm(desired({ browserSecurityHeaders: { xFrameOptions: 'DENY', xRobotsTag: 'none' } }), observed({ browserSecurityHeaders: keycloakHeaders }), false);
    expect(change).toEqual({ changed: ['browserSecurityHeaders.xFrameOptions'], body: { realm: 'shop', browserSecurityHeaders: { ...keycloakHeaders, xFrameOptions: 'DENY' } } });
  });

  it('keep the attributes Keycloak mirrors policy fields in as the spec states those fields', () => {
    const change = diffRealm(
      desired({ attributes: { tier: 'gold' }, otpPolicy: { codeReusable: true }, webAuthnPolicy: { extraOrigins: ['https://a.example.com', 'https://b.example.com'] }, webAuthnPasswordlessPolicy: { extraOrigins: [] } }),
      observed({ otpPolicyCodeReusable: true, webAuthnPolicyExtraOrigins: ['https://b.example.com', 'https://a.example.com'], attributes: { ...ours, realmReusableOtpCode: 'false', webAuthnPolicyPasswordlessExtraOrigins: 'https://c.example.com' } }),
      false,
    );
    expect(change?.body['attributes']).toEqual({ ...ours, tier: 'gold', realmReusableOtpCode: 'true', webAuthnPolicyExtraOrigins: 'https://a.example.com,https://b.example.com' });
  });
});

describe('organizationsEnabled', () => {
  it('is the realm field of that name, sent only when it differs', () => {
    expect(desired({ organizationsEnabled: true }).fields['organizationsEnabled']).toBe(true);
    expect(diffRealm(desired({ organizationsEnabled: true }), observed({ organizationsEnabled: false }), false)).toEqual({ changed: ['organizationsEnabled'], body: { realm: 'shop', organizationsEnabled: true } });
    expect(diffRealm(desired({ organizationsEnabled: false }), observed({ organizationsEnabled: false }), false)).toBeUndefined();
  });
});

describe('the realm diff', () => {
  it.each([
    ['Keycloak\'s strings for numbers and booleans', { smtpServer: smtp }, { smtpServer: keycloakSmtp }],
    ['set-like lists in another order', { localization: { supportedLocales: ['en', 'nl'] }, eventsConfig: { eventsListeners: ['jboss-logging', 'email'] } }, { supportedLocales: ['nl', 'en'], eventsListeners: ['email', 'jboss-logging'] }],
    ['fields the spec does not set', { displayName: 'Shop' }, { displayName: 'Shop', registrationAllowed: true, smtpServer: { host: 'other' }, attributes: { ...ours, frontendUrl: 'x' } }],
    ['keys Keycloak added to smtpServer', { smtpServer: smtp }, { smtpServer: { ...keycloakSmtp, authType: 'basic' } }],
    ['policies and headers as Keycloak shows them', { otpPolicy: { type: 'hotp', digits: 8 }, webAuthnPolicy: { signatureAlgorithms: ['ES256', 'RS256'], extraOrigins: [] }, webAuthnPasswordlessPolicy: { requireResidentKey: 'Yes' }, browserSecurityHeaders: { xFrameOptions: 'DENY' } }, { ...keycloakPolicies, otpPolicyType: 'hotp', otpPolicyDigits: 8, webAuthnPolicySignatureAlgorithms: ['RS256', 'ES256'], webAuthnPolicyPasswordlessRequireResidentKey: 'Yes', browserSecurityHeaders: { ...keycloakHeaders, xFrameOptions: 'DENY' } }],
  ])('sees no change with %s', (_what, spec, fields) => {
    expect(diffRealm(desired(spec), observed(fields), false)).toBeUndefined();
  });

  it('sends the fields that differ, by name, and always the realm\'s name', () => {
    const change = diffRealm(desired({ displayName: 'Shop', security: { sslRequired: 'all' }, localization: { supportedLocales: ['en'] } }), observed({ displayName: 'Old', sslRequired: 'all', supportedLocales: ['en', 'nl'] }), false);
    expect(change).toEqual({ changed: ['displayName', 'supportedLocales'], body: { realm: 'shop', displayName: 'Shop', supportedLocales: ['en'] } });
  });

  it('names the attributes that differ, and sends every attribute Keycloak has, since a realm PUT replaces them whole', () => {
    const change = diffRealm(desired({ attributes: { tier: 'gold', zone: 'eu' } }), observed({ attributes: { ...ours, tier: 'silver', zone: 'eu', other: 'kept' } }), false);
    // Sending only {tier} would remove the ownership attributes, and the next reconcile would find the realm nobody's.
    expect(change).toEqual({ changed: ['attributes.tier'], body: { realm: 'shop', attributes: { ...ours, tier: 'gold', zone: 'eu', other: 'kept' } } });
  });

  it('writes the ownership attributes when a realm is adopted', () => {
    const change = diffRealm(desired({}), { realm: 'shop', enabled: true, attributes: {} }, false);
    expect(change?.changed).toEqual(Object.keys(ours).map((key) => `attributes.${key}`));
  });

  it('sends smtpServer whole with the mask when a setting changes, so the stored password is kept', () => {
    const change = diffRealm(desired({ smtpServer: { ...smtp, port: 465 } }), observed({ smtpServer: keycloakSmtp }), false);
    expect(change).toEqual({ changed: ['smtpServer'], body: { realm: 'shop', smtpServer: { ...keycloakSmtp, port: '465' } } });
  });

  it('sends the password from its Secret when the Secret changed since the last send', () => {
    const change = diffRealm(desired({ smtpServer: smtp }), observed({ smtpServer: keycloakSmtp }), true);
    const { password: _mask, ...settings } = keycloakSmtp;
    expect(change).toEqual({ changed: ['smtpServer.password'], body: { realm: 'shop', smtpServer: settings }, secretFields: { 'smtpServer.password': passwordRef } });
  });

  it('sends the password when Keycloak holds none', () => {
    const { password: _mask, ...withoutPassword } = keycloakSmtp;
    const change = diffRealm(desired({ smtpServer: smtp }), observed({ smtpServer: withoutPassword }), false);
    expect(change?.changed).toEqual(['smtpServer.password']);
    expect(change?.secretFields).toEqual({ 'smtpServer.password': passwordRef });
  });

  it('removes a password the spec does not ask for', () => {
    const { passwordSecret: _secret, ...noPassword } = smtp;
    const change = diffRealm(desired({ smtpServer: noPassword }), observed({ smtpServer: keycloakSmtp }), false);
    const { password: _mask, ...settings } = keycloakSmtp;
    expect(change).toEqual({ changed: ['smtpServer.password'], body: { realm: 'shop', smtpServer: settings } });
  });
});
