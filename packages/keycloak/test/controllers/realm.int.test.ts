// The KeycloakRealm controller with core's runtime, against the real kube-apiserver and Keycloak 26: every
// managed field group created and updated, deletion (ours only; Retain keeps), Keycloak's built-in client
// scopes left as a fresh realm has them, and the SMTP password kept through other changes.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import { startFakeSmtp, type FakeSmtp } from '../io/fake-smtp.js';
import { REALM_SECRET_LABEL } from '../../src/index.js';
import {
  conditionOf,
  controllerEnv,
  createRealm,
  patchSpec,
  realmRef,
  REALM_SECRET_LABELS,
  statusOf,
  startOperator,
  unique,
  waitForGone,
  waitForObject,
  waitForReady,
  writeSecret,
  writesIn,
  WAIT_MS,
  type ControllerEnv,
  type KeycloakAdmin,
  type Operator,
} from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let smtp: FakeSmtp;
const realms: string[] = [];
/** Master-realm clients made as mail-capable admins, deleted at the end. */
const mailers: string[] = [];
const MASK = '**********';

beforeAll(async () => {
  env = await controllerEnv('kcr');
  namespace = await createTestNamespace('kcr-ctl');
  smtp = await startFakeSmtp();
  operator = await startOperator(env.kube, { name: 'realm', namespaces: [namespace], config: env.config() });
}, 120_000);

afterAll(async () => {
  await operator.stop();
  for (const realm of realms) await env.admin.deleteRealm(realm);
  for (const id of mailers) await env.admin.send('DELETE', `/realms/master/clients/${id}`);
  await smtp.close();
  env.close();
});

/** A realm name of this test run, deleted from Keycloak when the file ends whatever happens. */
function newRealmName(prefix: string): string {
  const name = unique(prefix);
  realms.push(name);
  return name;
}

type Json = Record<string, unknown>;

const realmOf = (name: string): Promise<Json | undefined> => env.admin.get<Json>(`/realms/${name}`);

async function roleOf(realm: string, role: string): Promise<{ role: Json | undefined; composites: string[] }> {
  const found = await env.admin.get<Json>(`/realms/${realm}/roles/${role}`);
  const composites = (await env.admin.get<Json[]>(`/realms/${realm}/roles/${role}/composites`)) ?? [];
  return { role: found, composites: composites.map((c) => String(c['name'])).sort() };
}

interface ScopeView {
  readonly id: string;
  readonly name: string;
  readonly description: unknown;
  readonly attributes: Json;
  readonly mappers: readonly { readonly name: string; readonly protocolMapper: string; readonly config: Json }[];
}

async function scopesOf(realm: string): Promise<Map<string, ScopeView>> {
  const scopes = (await env.admin.get<Json[]>(`/realms/${realm}/client-scopes`)) ?? [];
  return new Map(scopes.map((s) => [String(s['name']), {
    id: String(s['id']),
    name: String(s['name']),
    description: s['description'],
    attributes: (s['attributes'] as Json | undefined) ?? {},
    mappers: ((s['protocolMappers'] as Json[] | undefined) ?? []).map((m) => ({ name: String(m['name']), protocolMapper: String(m['protocolMapper']), config: (m['config'] as Json | undefined) ?? {} })),
  }]));
}

async function scopeLists(realm: string): Promise<{ default: string[]; optional: string[] }> {
  const names = async (list: string): Promise<string[]> => ((await env.admin.get<Json[]>(`/realms/${realm}/default-${list}-client-scopes`)) ?? []).map((s) => String(s['name'])).sort();
  return { default: await names('default'), optional: await names('optional') };
}

const sorted = (value: unknown): string[] => (Array.isArray(value) ? value.map(String).sort() : []);

describe('the KeycloakRealm controller against the real Keycloak and API server', () => {
  it('creates a realm with every managed field group, applies an update of each, and deletes it with its object', async () => {
    const realm = newRealmName('kcr-full');
    const password = rememberSecret(unique('smtp-pass'));
    await writeSecret(env.kube, namespace, 'smtp', { password }, REALM_SECRET_LABELS);
    const ref = realmRef(namespace, 'full');
    await createRealm(env.kube, namespace, 'full', {
      realmName: realm,
      displayName: 'Full realm',
      description: 'every field group',
      loginPageTitle: '<b>Full</b>',
      security: {
        // Keycloak forces registrationEmailAsUsername and loginWithEmailAllowed off while duplicateEmailsAllowed is on.
        registrationAllowed: true, registrationEmailAsUsername: false, editUsernameAllowed: true, resetPasswordAllowed: true, rememberMe: true,
        verifyEmail: false, loginWithEmailAllowed: false, duplicateEmailsAllowed: true, revokeRefreshToken: true, refreshTokenMaxReuse: 1,
        sslRequired: 'external', bruteForceProtected: true, permanentLockout: false, failureFactor: 5, maxFailureWaitSeconds: 600,
        minimumQuickLoginWaitSeconds: 30, waitIncrementSeconds: 30, quickLoginCheckMilliSeconds: 500, maxDeltaTimeSeconds: 3600,
      },
      tokenSettings: {
        accessTokenLifespan: 600, ssoSessionIdleTimeout: 1800, ssoSessionMaxLifespan: 36_000, offlineSessionIdleTimeout: 2_592_000,
        offlineSessionMaxLifespanEnabled: true, offlineSessionMaxLifespan: 5_184_000, clientSessionIdleTimeout: 900, clientSessionMaxLifespan: 7200,
      },
      themes: { login: 'keycloak', email: 'keycloak' },
      localization: { enabled: true, defaultLocale: 'en', supportedLocales: ['en', 'nl'] },
      smtpServer: { host: '127.0.0.1', port: smtp.port, from: 'realm@example.com', fromDisplayName: 'Realm', replyTo: 'reply@example.com', auth: false, starttls: false, ssl: false },
      eventsConfig: { eventsEnabled: true, eventsListeners: ['jboss-logging'], enabledEventTypes: ['LOGIN', 'LOGOUT'], adminEventsEnabled: true, adminEventsDetailsEnabled: true, eventsExpiration: 3600 },
      passwordPolicy: 'length(12) and notUsername',
      attributes: { tier: 'gold' },
      realmRoles: [
        { name: 'viewer', description: 'reads', attributes: { level: '1' } },
        { name: 'editor' },
        { name: 'admin', composites: { realm: ['viewer'], clients: { broker: ['read-token'] } } },
      ],
      clientScopes: [
        { name: 'shop-api', description: 'the shop', attributes: { 'include.in.token.scope': 'true' }, protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.custom.audience': 'shop', 'access.token.claim': 'true' } }] },
        { name: 'shop-extra' },
      ],
      defaultClientScopes: ['shop-api'],
      optionalClientScopes: ['shop-extra'],
    });
    const first = await waitForReady(env.kube, ref);
    expect(first.metadata.finalizers).toContain('keycloak.keyward.io/realm');

    const created = await realmOf(realm);
    expect(created).toMatchObject({
      realm,
      enabled: true,
      displayName: 'Full realm',
      displayNameHtml: '<b>Full</b>',
      registrationAllowed: true,
      editUsernameAllowed: true,
      resetPasswordAllowed: true,
      rememberMe: true,
      verifyEmail: false,
      loginWithEmailAllowed: false,
      duplicateEmailsAllowed: true,
      revokeRefreshToken: true,
      refreshTokenMaxReuse: 1,
      sslRequired: 'external',
      bruteForceProtected: true,
      failureFactor: 5,
      maxFailureWaitSeconds: 600,
      quickLoginCheckMilliSeconds: 500,
      accessTokenLifespan: 600,
      ssoSessionIdleTimeout: 1800,
      ssoSessionMaxLifespan: 36_000,
      offlineSessionIdleTimeout: 2_592_000,
      offlineSessionMaxLifespanEnabled: true,
      offlineSessionMaxLifespan: 5_184_000,
      clientSessionIdleTimeout: 900,
      clientSessionMaxLifespan: 7200,
      loginTheme: 'keycloak',
      emailTheme: 'keycloak',
      internationalizationEnabled: true,
      defaultLocale: 'en',
      smtpServer: { host: '127.0.0.1', port: String(smtp.port), from: 'realm@example.com', fromDisplayName: 'Realm', replyTo: 'reply@example.com', auth: 'false' },
      eventsEnabled: true,
      adminEventsEnabled: true,
      adminEventsDetailsEnabled: true,
      eventsExpiration: 3600,
      attributes: expect.objectContaining({ tier: 'gold', description: 'every field group', 'io.kubernetes.cr-namespace': namespace, 'io.kubernetes.cr-name': 'full' }) as unknown,
    });
    expect(sorted(created?.['supportedLocales'])).toEqual(['en', 'nl']);
    expect(sorted(created?.['eventsListeners'])).toEqual(['jboss-logging']);
    expect(sorted(created?.['enabledEventTypes'])).toEqual(['LOGIN', 'LOGOUT']);
    expect(String(created?.['passwordPolicy'])).toMatch(/length\(12\)/);
    expect(String(created?.['passwordPolicy'])).toMatch(/notUsername/);
    expect((created?.['smtpServer'] as Json | undefined)?.['password']).toBeUndefined();

    expect(await roleOf(realm, 'viewer')).toMatchObject({ role: { name: 'viewer', description: 'reads', attributes: { level: ['1'] } }, composites: [] });
    expect(await roleOf(realm, 'admin')).toMatchObject({ composites: ['read-token', 'viewer'] });
    const scopes = await scopesOf(realm);
    expect(scopes.get('shop-api')).toMatchObject({ description: 'the shop', attributes: { 'include.in.token.scope': 'true' }, mappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: expect.objectContaining({ 'included.custom.audience': 'shop' }) as unknown }] });
    expect(scopes.has('shop-extra')).toBe(true);
    const lists = await scopeLists(realm);
    expect(lists.default).toContain('shop-api');
    expect(lists.optional).toContain('shop-extra');

    // An update of every group: each must reach Keycloak, not only on create.
    const generation = await patchSpec(env.kube, ref, {
      displayName: 'Full realm, renamed',
      description: 'every field group, updated',
      loginPageTitle: '<i>Full</i>',
      security: {
        registrationAllowed: false, registrationEmailAsUsername: true, editUsernameAllowed: false, resetPasswordAllowed: false, rememberMe: false,
        verifyEmail: true, loginWithEmailAllowed: true, duplicateEmailsAllowed: false, revokeRefreshToken: false, refreshTokenMaxReuse: 0,
        sslRequired: 'all', bruteForceProtected: false, permanentLockout: true, failureFactor: 7, maxFailureWaitSeconds: 900,
        minimumQuickLoginWaitSeconds: 60, waitIncrementSeconds: 60, quickLoginCheckMilliSeconds: 1000, maxDeltaTimeSeconds: 7200,
      },
      tokenSettings: {
        accessTokenLifespan: 300, ssoSessionIdleTimeout: 3600, ssoSessionMaxLifespan: 72_000, offlineSessionIdleTimeout: 1_296_000,
        offlineSessionMaxLifespanEnabled: false, offlineSessionMaxLifespan: 0, clientSessionIdleTimeout: 0, clientSessionMaxLifespan: 0,
      },
      themes: { login: 'keycloak.v2', email: 'keycloak' },
      localization: { enabled: true, defaultLocale: 'nl', supportedLocales: ['nl', 'de', 'en'] },
      // null: a merge patch removes replyTo from the spec.
      smtpServer: { host: '127.0.0.1', port: smtp.port, from: 'other@example.com', fromDisplayName: 'Other', replyTo: null, auth: true, user: 'mailer', starttls: false, ssl: false, passwordSecret: { name: 'smtp', key: 'password' } },
      eventsConfig: { eventsEnabled: false, eventsListeners: ['jboss-logging'], enabledEventTypes: ['LOGIN_ERROR'], adminEventsEnabled: false, adminEventsDetailsEnabled: false, eventsExpiration: 7200 },
      passwordPolicy: 'length(14)',
      attributes: { tier: 'silver', region: 'eu' },
      realmRoles: [
        { name: 'viewer', description: 'reads everything', attributes: { level: '2' } },
        { name: 'admin', composites: { realm: ['viewer'] } },
      ],
      clientScopes: [
        { name: 'shop-api', description: 'the shop, v2', attributes: { 'include.in.token.scope': 'false' }, protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.custom.audience': 'shop-v2', 'access.token.claim': 'true' } }] },
        { name: 'shop-more' },
      ],
      defaultClientScopes: ['shop-api', 'shop-more'],
      optionalClientScopes: [],
    });
    await waitForReady(env.kube, ref);
    expect(generation).toBeGreaterThan(first.metadata.generation ?? 0);

    const updated = await realmOf(realm);
    expect(updated).toMatchObject({
      displayName: 'Full realm, renamed',
      displayNameHtml: '<i>Full</i>',
      registrationAllowed: false,
      registrationEmailAsUsername: true,
      editUsernameAllowed: false,
      resetPasswordAllowed: false,
      rememberMe: false,
      verifyEmail: true,
      loginWithEmailAllowed: true,
      duplicateEmailsAllowed: false,
      revokeRefreshToken: false,
      refreshTokenMaxReuse: 0,
      sslRequired: 'all',
      bruteForceProtected: false,
      permanentLockout: true,
      failureFactor: 7,
      maxFailureWaitSeconds: 900,
      minimumQuickLoginWaitSeconds: 60,
      waitIncrementSeconds: 60,
      quickLoginCheckMilliSeconds: 1000,
      maxDeltaTimeSeconds: 7200,
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 3600,
      ssoSessionMaxLifespan: 72_000,
      offlineSessionIdleTimeout: 1_296_000,
      offlineSessionMaxLifespanEnabled: false,
      clientSessionIdleTimeout: 0,
      clientSessionMaxLifespan: 0,
      loginTheme: 'keycloak.v2',
      defaultLocale: 'nl',
      smtpServer: { host: '127.0.0.1', port: String(smtp.port), from: 'other@example.com', fromDisplayName: 'Other', auth: 'true', user: 'mailer', password: MASK },
      eventsEnabled: false,
      adminEventsEnabled: false,
      adminEventsDetailsEnabled: false,
      eventsExpiration: 7200,
      passwordPolicy: 'length(14)',
      attributes: expect.objectContaining({ tier: 'silver', region: 'eu', description: 'every field group, updated' }) as unknown,
    });
    expect(sorted(updated?.['supportedLocales'])).toEqual(['de', 'en', 'nl']);
    expect(sorted(updated?.['enabledEventTypes'])).toEqual(['LOGIN_ERROR']);
    // The replyTo the spec no longer states: Keycloak replaces smtpServer whole, and it is sent whole.
    expect((updated?.['smtpServer'] as Json | undefined)?.['replyTo']).toBeUndefined();

    expect(await roleOf(realm, 'viewer')).toMatchObject({ role: { description: 'reads everything', attributes: { level: ['2'] } } });
    expect((await roleOf(realm, 'admin')).composites).toEqual(['viewer']);
    // We made "editor" and the spec no longer lists it.
    expect((await roleOf(realm, 'editor')).role).toBeUndefined();
    const updatedScopes = await scopesOf(realm);
    expect(updatedScopes.get('shop-api')).toMatchObject({ description: 'the shop, v2', attributes: { 'include.in.token.scope': 'false' }, mappers: [{ name: 'audience', config: expect.objectContaining({ 'included.custom.audience': 'shop-v2' }) as unknown }] });
    expect(updatedScopes.has('shop-more')).toBe(true);
    expect(updatedScopes.has('shop-extra')).toBe(false);
    const updatedLists = await scopeLists(realm);
    expect(updatedLists.default).toEqual(expect.arrayContaining(['shop-api', 'shop-more']));
    expect(updatedLists.optional).not.toContain('shop-extra');

    // Converged: one more reconcile plans nothing and writes nothing to Keycloak.
    const before = operator.requests.length;
    const again = await operator.reconcileRealm(namespace, 'full');
    expect(again.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    await env.kube.delete(ref);
    await waitForGone(env.kube, ref);
    expect(await realmOf(realm)).toBeUndefined();
  });

  it('creates a realm with OTP and WebAuthn policies and browser headers, applies an update of each, and then writes nothing', async () => {
    const realm = newRealmName('kcr-policies');
    const ref = realmRef(namespace, 'policies');
    await createRealm(env.kube, namespace, 'policies', {
      realmName: realm,
      // Only part of the OTP policy: Keycloak would leave the rest unset, so the create completes it.
      otpPolicy: { type: 'hotp', digits: 8, codeReusable: true },
      webAuthnPolicy: {
        rpEntityName: 'shop', signatureAlgorithms: ['ES512', 'RS256'], rpId: 'example.com', attestationConveyancePreference: 'direct', authenticatorAttachment: 'cross-platform',
        requireResidentKey: 'Yes', userVerificationRequirement: 'discouraged', createTimeout: 30, avoidSameAuthenticatorRegister: true,
        acceptableAaguids: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'], extraOrigins: ['https://b.example.com', 'https://a.example.com'],
      },
      webAuthnPasswordlessPolicy: { requireResidentKey: 'No', userVerificationRequirement: 'preferred' },
      browserSecurityHeaders: { xFrameOptions: 'DENY', contentSecurityPolicyReportOnly: "default-src 'self'" },
      attributes: { tier: 'gold' },
    });
    await waitForReady(env.kube, ref);
    const created = await realmOf(realm);
    expect(created).toMatchObject({
      otpPolicyType: 'hotp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyDigits: 8, otpPolicyPeriod: 30, otpPolicyLookAheadWindow: 1, otpPolicyInitialCounter: 0, otpPolicyCodeReusable: true,
      webAuthnPolicyRpEntityName: 'shop', webAuthnPolicyRpId: 'example.com', webAuthnPolicyAttestationConveyancePreference: 'direct', webAuthnPolicyAuthenticatorAttachment: 'cross-platform',
      webAuthnPolicyRequireResidentKey: 'Yes', webAuthnPolicyUserVerificationRequirement: 'discouraged', webAuthnPolicyCreateTimeout: 30, webAuthnPolicyAvoidSameAuthenticatorRegister: true,
      webAuthnPolicyAcceptableAaguids: ['cb69481e-8ff7-4039-93ec-0a2729a154a8'],
      webAuthnPolicyPasswordlessRpEntityName: 'keycloak', webAuthnPolicyPasswordlessRequireResidentKey: 'No', webAuthnPolicyPasswordlessUserVerificationRequirement: 'preferred',
      browserSecurityHeaders: { xFrameOptions: 'DENY', contentSecurityPolicyReportOnly: "default-src 'self'", xContentTypeOptions: 'nosniff' },
    });
    expect(sorted(created?.['webAuthnPolicySignatureAlgorithms'])).toEqual(['ES512', 'RS256']);
    expect(sorted(created?.['webAuthnPolicyExtraOrigins'])).toEqual(['https://a.example.com', 'https://b.example.com']);

    // One field of each group, and an attribute in the same PUT (Keycloak mirrors codeReusable and extraOrigins in attributes).
    await patchSpec(env.kube, ref, {
      otpPolicy: { type: 'hotp', digits: 8, codeReusable: false },
      webAuthnPolicy: { extraOrigins: ['https://c.example.com'] },
      webAuthnPasswordlessPolicy: { userVerificationRequirement: 'required' },
      browserSecurityHeaders: { xFrameOptions: 'SAMEORIGIN' },
      attributes: { tier: 'silver' },
    });
    await waitForReady(env.kube, ref);
    const updated = await realmOf(realm);
    expect(updated).toMatchObject({
      // The fields of each policy the spec no longer states keep their values: the policy is sent whole.
      otpPolicyType: 'hotp', otpPolicyAlgorithm: 'HmacSHA1', otpPolicyDigits: 8, otpPolicyPeriod: 30, otpPolicyLookAheadWindow: 1, otpPolicyCodeReusable: false,
      webAuthnPolicyRpEntityName: 'shop', webAuthnPolicyRpId: 'example.com', webAuthnPolicyRequireResidentKey: 'Yes', webAuthnPolicyCreateTimeout: 30, webAuthnPolicyExtraOrigins: ['https://c.example.com'],
      webAuthnPolicyPasswordlessRequireResidentKey: 'No', webAuthnPolicyPasswordlessUserVerificationRequirement: 'required',
      browserSecurityHeaders: { xFrameOptions: 'SAMEORIGIN', contentSecurityPolicyReportOnly: "default-src 'self'" },
      attributes: expect.objectContaining({ tier: 'silver' }) as unknown,
    });
    expect(sorted(updated?.['webAuthnPolicySignatureAlgorithms'])).toEqual(['ES512', 'RS256']);

    const before = operator.requests.length;
    const again = await operator.reconcileRealm(namespace, 'policies');
    expect(again.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
  });

  it('keeps its client profiles and policies in Keycloak beside ones set by hand, repairs them, refuses a bad executor with Keycloak\'s reason, and removes only its own', async () => {
    const realm = newRealmName('kcr-cp');
    const ref = realmRef(namespace, 'client-policies');
    const list = async (kind: 'profiles' | 'policies'): Promise<Json[]> => (await env.admin.get<Record<string, Json[]>>(`/realms/${realm}/client-policies/${kind}`))?.[kind] ?? [];
    const pkce = (autoConfigure: boolean) => ({ name: 'pkce', description: 'PKCE for all', executors: [{ executor: 'pkce-enforcer', configuration: { 'auto-configure': autoConfigure } }] });
    const policy = { name: 'confidential-pkce', conditions: [{ condition: 'client-access-type', configuration: { type: ['confidential'] } }], profiles: ['pkce'] };
    await createRealm(env.kube, namespace, 'client-policies', { realmName: realm, clientProfiles: [pkce(true)], clientPolicies: [policy] });
    await waitForReady(env.kube, ref);
    expect(await list('profiles')).toEqual([pkce(true)]);
    expect(await list('policies')).toEqual([{ ...policy, enabled: true }]);

    // Set by hand: a profile, and a policy using it. Ours is then changed out of band.
    const byHand = { name: 'by-hand', executors: [{ executor: 'full-scope-disabled', configuration: {} }] };
    const handPolicy = { name: 'hand-policy', enabled: false, conditions: [], profiles: ['by-hand'] };
    expect(await env.admin.send('PUT', `/realms/${realm}/client-policies/profiles`, { profiles: [pkce(false), byHand] })).toBe(204);
    expect(await env.admin.send('PUT', `/realms/${realm}/client-policies/policies`, { policies: [{ ...policy, enabled: true }, handPolicy] })).toBe(204);
    const repair = await operator.reconcileRealm(namespace, 'client-policies');
    expect(repair.plan?.steps.filter((step) => step.action.kind === 'keycloak.update').map((step) => step.action.kind === 'keycloak.update' ? step.action.changed : [])).toEqual([['pkce (changed)']]);
    expect(await list('profiles')).toEqual([pkce(true), byHand]);
    // The repair reported Reconciling; the reconcile its status write wakes reads the realm back and reports Ready.
    await waitForReady(env.kube, ref);
    const before = operator.requests.length;
    const again = await operator.reconcileRealm(namespace, 'client-policies');
    expect(again.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`)).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    // An executor Keycloak does not know: its 400 stalls the realm, and our profiles are as they were.
    await patchSpec(env.kube, ref, { clientProfiles: [pkce(true), { name: 'bad', executors: [{ executor: 'no-such-executor' }] }] });
    const stalled = await waitForObject(env.kube, ref, 'the bad executor to stall the realm', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')?.message).toContain('executor');
    expect((await list('profiles')).map((entry) => entry['name'])).toEqual(['pkce', 'by-hand']);

    // Listing none manages none: ours stay. Told to prune them, it removes ours; what was set by hand stays.
    await patchSpec(env.kube, ref, { clientProfiles: [], clientPolicies: [] });
    await waitForReady(env.kube, ref);
    expect((await list('profiles')).map((entry) => entry['name'])).toEqual(['pkce', 'by-hand']);
    await patchSpec(env.kube, ref, { pruneUnlisted: ['clientProfiles', 'clientPolicies'] });
    await waitForReady(env.kube, ref);
    expect(await list('profiles')).toEqual([byHand]);
    expect(await list('policies')).toEqual([handPolicy]);
    expect(statusOf(await env.kube.get(ref))['managed']).toBeUndefined();
  });

  it("leaves a realm that another object owns (refused, and kept when that object is deleted), and retains one with deletionPolicy Retain", async () => {
    const realm = newRealmName('kcr-retain');
    const owner = realmRef(namespace, 'retained');
    await createRealm(env.kube, namespace, 'retained', { realmName: realm, displayName: 'Retained', deletionPolicy: 'Retain' });
    await waitForReady(env.kube, owner);

    const intruder = realmRef(namespace, 'intruder');
    await createRealm(env.kube, namespace, 'intruder', { realmName: realm, displayName: 'Taken over' });
    const refused = await waitForObject(env.kube, intruder, 'the second object to be refused', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(refused, 'Ready')).toMatchObject({ status: 'False', reason: 'OwnedByAnother' });
    expect(conditionOf(refused, 'Ready')?.message).toContain(`${namespace}/retained`);
    expect((await realmOf(realm))?.['displayName']).toBe('Retained');

    await env.kube.delete(intruder);
    await waitForGone(env.kube, intruder);
    expect((await realmOf(realm))?.['displayName']).toBe('Retained');

    await env.kube.delete(owner);
    await waitForGone(env.kube, owner);
    expect((await realmOf(realm))?.['displayName']).toBe('Retained');
  });
  it("keeps every built-in client scope and realm role of a fresh realm, as it was, through custom ones and their removal", async () => {
    // What Keycloak gives a fresh realm, read from a scratch realm made by hand.
    const scratch = newRealmName('kcr-scratch');
    expect(await env.admin.send('POST', '/realms', { realm: scratch, enabled: true })).toBe(201);
    const builtIn = await scopesOf(scratch);
    const builtInLists = await scopeLists(scratch);
    expect(builtIn.size).toBeGreaterThan(5);
    const shape = (scopes: Map<string, ScopeView>) => [...builtIn.keys()].sort().map((name) => ({ name, mappers: scopes.get(name)?.mappers.map((m) => m.name).sort() }));
    // The built-in roles with their composites; the default role is named after its realm.
    const roleShape = async (of: string): Promise<Json[]> => {
      const roles = (await env.admin.get<Json[]>(`/realms/${of}/roles`)) ?? [];
      const builtInNames = roles.map((role) => String(role['name'])).filter((name) => !['clerk', 'auditor'].includes(name)).sort();
      return Promise.all(builtInNames.map(async (name) => ({ name: name.replace(of, '<realm>'), composites: (await roleOf(of, name)).composites })));
    };
    const builtInRoles = await roleShape(scratch);
    expect(builtInRoles.map((role) => role['name'])).toEqual(['default-roles-<realm>', 'offline_access', 'uma_authorization']);

    const realm = newRealmName('kcr-scopes');
    const ref = realmRef(namespace, 'scopes');
    await createRealm(env.kube, namespace, 'scopes', {
      realmName: realm,
      clientScopes: [{ name: 'orders', protocolMappers: [{ name: 'orders-audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.custom.audience': 'orders' } }] }, { name: 'billing' }],
      defaultClientScopes: ['orders'],
      optionalClientScopes: ['billing'],
      realmRoles: [{ name: 'clerk' }, { name: 'auditor', composites: { realm: ['clerk'] } }],
    });
    await waitForReady(env.kube, ref);
    expect(await roleShape(realm)).toEqual(builtInRoles);
    expect((await roleOf(realm, 'auditor')).composites).toEqual(['clerk']);
    const check = async (custom: { default: string[]; optional: string[] }): Promise<void> => {
      const scopes = await scopesOf(realm);
      expect(shape(scopes)).toEqual(shape(builtIn));
      const lists = await scopeLists(realm);
      expect(lists).toEqual({ default: [...builtInLists.default, ...custom.default].sort(), optional: [...builtInLists.optional, ...custom.optional].sort() });
    };
    await check({ default: ['orders'], optional: ['billing'] });

    // The spec drops "billing" and "auditor" and moves "orders": what we made is pruned, Keycloak's own stay.
    await patchSpec(env.kube, ref, { clientScopes: [{ name: 'orders' }], defaultClientScopes: [], optionalClientScopes: ['orders'], realmRoles: [{ name: 'clerk' }] });
    await waitForReady(env.kube, ref);
    expect((await scopesOf(realm)).has('billing')).toBe(false);
    expect((await roleOf(realm, 'auditor')).role).toBeUndefined();
    await check({ default: [], optional: ['orders'] });
    expect(await roleShape(realm)).toEqual(builtInRoles);

    // A spec that stops listing roles and scopes removes none of them; told to prune them, ours go and Keycloak's stay.
    await patchSpec(env.kube, ref, { clientScopes: null, optionalClientScopes: [], realmRoles: null });
    await waitForReady(env.kube, ref);
    expect((await roleOf(realm, 'clerk')).role).toBeDefined();
    expect((await scopesOf(realm)).has('orders')).toBe(true);
    await patchSpec(env.kube, ref, { pruneUnlisted: ['realmRoles', 'clientScopes'] });
    await waitForReady(env.kube, ref);
    expect((await roleOf(realm, 'clerk')).role).toBeUndefined();
    expect((await scopesOf(realm)).has('orders')).toBe(false);
    await check({ default: [], optional: [] });
    expect(await roleShape(realm)).toEqual(builtInRoles);
  });

  it('reads the SMTP password only from a Secret with the opt-in label, and keeps it through changes of other fields and of other SMTP settings', async () => {
    const mailer = await mailerAdmin();
    const realm = newRealmName('kcr-smtp');
    const password = rememberSecret(unique('smtp-pass'));
    await writeSecret(env.kube, namespace, 'smtp-keep', { password });
    const ref = realmRef(namespace, 'smtp');
    const smtpServer = { host: '127.0.0.1', port: smtp.port, from: 'keyward@example.com', auth: true, user: 'mailer', passwordSecret: { name: 'smtp-keep', key: 'password' } };
    await createRealm(env.kube, namespace, 'smtp', { realmName: realm, displayName: 'Mail', smtpServer });

    // Without the label the realm waits, Stalled, and nothing reaches Keycloak.
    const stalled = await waitForObject(env.kube, ref, 'the realm to stall on the unlabelled Secret', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({ status: 'False', reason: 'SmtpPasswordSecretNotOptedIn', message: expect.stringContaining(`Secret smtp-keep (the SMTP password) in namespace ${namespace} lacks the label ${REALM_SECRET_LABEL}=true`) as unknown });
    expect(await realmOf(realm)).toBeUndefined();
    const before = operator.requests.length;
    const waiting = await operator.reconcileRealm(namespace, 'smtp');
    expect(waiting.plan?.steps).toEqual([]);
    expect(writesIn(operator.requests.slice(before))).toEqual([]);

    // Labelling the Secret (watched by name) is all it takes.
    await writeSecret(env.kube, namespace, 'smtp-keep', { password }, REALM_SECRET_LABELS);
    await waitForReady(env.kube, ref);
    expect(await storedSmtpPassword(realm, mailer)).toBe(password);

    await patchSpec(env.kube, ref, { displayName: 'Mail, renamed' });
    await waitForReady(env.kube, ref);
    expect((await realmOf(realm))?.['displayName']).toBe('Mail, renamed');
    expect(await storedSmtpPassword(realm, mailer)).toBe(password);

    await patchSpec(env.kube, ref, { smtpServer: { ...smtpServer, from: 'other@example.com', fromDisplayName: 'Other' } });
    await waitForReady(env.kube, ref);
    expect((await realmOf(realm))?.['smtpServer']).toMatchObject({ from: 'other@example.com', fromDisplayName: 'Other' });
    expect(await storedSmtpPassword(realm, mailer)).toBe(password);

    // A new password in the Secret is sent (the Secret is watched by name).
    const next = rememberSecret(unique('smtp-pass'));
    await writeSecret(env.kube, namespace, 'smtp-keep', { password: next }, REALM_SECRET_LABELS);
    await waitForObject(env.kube, ref, 'the new SMTP password to be sent', (object) => conditionOf(object, 'Ready')?.status === 'True' && statusOf(object)['smtpPasswordVersion'] !== undefined);
    await waitFor(async () => ((await storedSmtpPassword(realm, mailer)) === next ? true : undefined), { what: 'Keycloak to hold the new SMTP password', timeoutMs: WAIT_MS });
  });
});

/**
 * An admin of the master realm with an e-mail address, in a Secret of its own: Keycloak's "test SMTP
 * connection" mails the caller, so only such an admin can call it.
 */
async function mailerAdmin(): Promise<KeycloakAdmin> {
  const clientId = unique('kcr-mailer');
  const secret = rememberSecret(unique('mailer-secret'));
  expect(await env.admin.send('POST', '/realms/master/clients', { clientId, publicClient: false, serviceAccountsEnabled: true, secret })).toBe(201);
  const client = await env.admin.client('master', clientId);
  const id = String(client?.['id']);
  mailers.push(id);
  const user = await env.admin.get<Json>(`/realms/master/clients/${id}/service-account-user`);
  const userId = String(user?.['id']);
  const adminRole = await env.admin.get<Json>('/realms/master/roles/admin');
  expect(await env.admin.send('POST', `/realms/master/users/${userId}/role-mappings/realm`, [adminRole])).toBe(204);
  expect(await env.admin.send('PUT', `/realms/master/users/${userId}`, { email: `${clientId}@example.com`, emailVerified: true })).toBe(204);
  await writeSecret(env.kube, env.operatorNamespace, 'mailer', { 'client-id': clientId, 'client-secret': secret });
  return env.adminWith('mailer');
}

/** The SMTP password Keycloak holds for `realm`: "test SMTP connection" with the mask logs in with the stored one. */
async function storedSmtpPassword(realm: string, mailer: KeycloakAdmin): Promise<string | undefined> {
  const smtpServer = (await realmOf(realm))?.['smtpServer'] as Json | undefined;
  expect(smtpServer?.['password']).toBe(MASK);
  const before = smtp.passwords.length;
  await mailer.send('POST', `/realms/${realm}/testSMTPConnection`, { ...smtpServer, password: MASK });
  return smtp.passwords.length > before ? smtp.passwords[smtp.passwords.length - 1] : undefined;
}
