// The drop-in promise, proved from outside: every manifest of corpus/ (the Kopf operator's documentation's
// examples word for word, and manifests stating its CRDs' fields in its spellings) is applied unchanged with
// strict field validation, as `kubectl apply --server-side --validate=strict` does, against the real
// kube-apiserver; every realm and client goes Ready; and the real Keycloak 26 holds what each field says.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { CoreV1Api } from '@kubernetes/client-node';
import { ContentType } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import type { KubeObject } from '@keyward/kernel';
import { adminKubeConfig, httpCall, rememberSecret } from '@keyward/test-env';
import { clientRef, controllerEnv, patchSpec, realmRef, secretData, secretRef, startOperator, statusOf, conditionOf, waitForReady, waitForGone, waitForRefusal, writesIn, type ControllerEnv, type Operator } from './controllers/harness.js';

const CORPUS = new URL('./corpus/', import.meta.url);
/** The operator namespace the corpus names (operatorRef.namespace, instanceRef.namespace). */
const OPERATOR_NAMESPACE = 'keycloak-system';
/** Where kubectl puts an object whose manifest names no namespace. */
const DEFAULT_NAMESPACE = 'default';
const REALMS = ['shared', 'my-realm', 'company', 'company-roles', 'company-directory', 'company-flows', 'company-defaults', 'CompanyDefaultRole', 'company-minimal'];
/** The Docker registry client: the test Keycloak runs without the docker feature, which docker-v2 needs. */
const DOCKER_CLIENT = 'registry';

/** Each manifest of the corpus, by file, as a user's kubectl reads it. */
const manifests: readonly (readonly [string, KubeObject])[] = readdirSync(CORPUS).filter((name) => name.endsWith('.yaml')).sort().flatMap((file) =>
  parseAllDocuments(readFileSync(new URL(file, CORPUS), 'utf8')).map((document) => [file, document.toJS() as KubeObject] as const));

const namespaceOf = (object: KubeObject): string => object.metadata.namespace ?? DEFAULT_NAMESPACE;
const ofKind = (kind: string): KubeObject[] => manifests.map(([, object]) => object).filter((object) => object.kind === kind);

/** The URL path of a namespaced object, by its apiVersion and kind. */
function pathOf(object: KubeObject): string {
  const plural: Readonly<Record<string, string>> = { Secret: 'secrets', Role: 'roles', KeycloakRealm: 'keycloakrealms', KeycloakClient: 'keycloakclients' };
  const kind = plural[object.kind];
  if (kind === undefined) throw new Error(`the corpus has a ${object.kind}, which this test does not know how to apply`);
  const group = object.apiVersion === 'v1' ? '/api/v1' : `/apis/${object.apiVersion}`;
  return `${group}/namespaces/${namespaceOf(object)}/${kind}/${object.metadata.name}`;
}

let env: ControllerEnv;
let operator: Operator;

/** Server-side apply with strict field validation: an unknown or duplicate field is an error, not a warning. */
async function applyStrict(object: KubeObject, dryRun: boolean): Promise<string | undefined> {
  const query = { fieldManager: 'kubectl', fieldValidation: 'Strict', force: 'true', ...(dryRun ? { dryRun: 'All' } : {}) };
  return env.kube.raw({ method: 'PATCH', path: pathOf(object), query, body: object, contentType: ContentType.apply, what: `apply ${object.kind} ${object.metadata.name}`, verb: 'patch', resource: object.kind }).then(
    () => undefined,
    (error: unknown) => (error instanceof KeywardError ? error.message : String(error)),
  );
}

async function ensureNamespace(name: string): Promise<void> {
  await adminKubeConfig().makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } }).catch((error: unknown) => {
    if ((error as { code?: number }).code !== 409) throw error;
  });
}

beforeAll(async () => {
  env = await controllerEnv('corpus');
  // The bind password of upstream-realm-user-federation.yaml: the environment checks that no log holds it.
  rememberSecret('directory-corpus-password');
  rememberSecret('minimal-corpus-password');
  const namespaces = [...new Set([OPERATOR_NAMESPACE, 'app-team-b', ...manifests.map(([, object]) => namespaceOf(object))])];
  for (const namespace of namespaces) await ensureNamespace(namespace);
  const watched = [...new Set([...ofKind('KeycloakRealm'), ...ofKind('KeycloakClient')].map(namespaceOf))];
  operator = await startOperator(env.kube, { name: 'corpus', namespaces: watched, config: { ...env.config(), keycloakOperatorNamespace: OPERATOR_NAMESPACE } });
}, 120_000);

afterAll(async () => {
  const owned = [...ofKind('KeycloakClient').map((o) => clientRef(namespaceOf(o), o.metadata.name)), ...ofKind('KeycloakRealm').map((o) => realmRef(namespaceOf(o), o.metadata.name))];
  for (const ref of owned) await env.kube.delete(ref);
  for (const ref of owned) await waitForGone(env.kube, ref);
  await operator.stop();
  for (const realm of REALMS) await env.admin.deleteRealm(realm);
  env.close();
}, 180_000);

/** Keycloak's realm, as its admin API shows it. */
const realm = async (name: string): Promise<Record<string, unknown>> => (await env.admin.get(`/realms/${name}`)) ?? {};
/** A Keycloak component, as its admin API shows it. */
interface Component { readonly id: string; readonly name: string; readonly providerId: string; readonly subType?: string; readonly config: Record<string, string[]> }
const pick = (object: Record<string, unknown> | undefined, fields: readonly string[]): Record<string, unknown> => Object.fromEntries(fields.map((field) => [field, object?.[field]]));
/** A realm's components of a type (or under a parent), as its admin API lists them. */
const components = async (realmName: string, query: Record<string, string>): Promise<Component[]> => (await env.admin.get<Component[]>(`/realms/${realmName}/components`, query)) ?? [];
/** The values of `keys` in a component's config, absent ones as undefined. */
const stated = (config: Record<string, string[]> | undefined, keys: readonly string[]): Record<string, string[] | undefined> => Object.fromEntries(keys.map((key) => [key, config?.[key]]));
/** A client's authorization policies and permissions by name, as its resource server lists them. */
async function policiesOf(realmName: string, clientId: string): Promise<Map<string, Record<string, unknown>>> {
  const client = await env.admin.client(realmName, clientId);
  const listed = (await env.admin.get<Record<string, unknown>[]>(`/realms/${realmName}/clients/${String(client?.['id'])}/authz/resource-server/policy`)) ?? [];
  return new Map(listed.map((policy) => [String(policy['name']), policy]));
}
/** A policy's config, as Keycloak keeps it (text). */
const configOf = (policy: Record<string, unknown> | undefined): Record<string, string> => (policy?.['config'] ?? {}) as Record<string, string>;

describe('the corpus of the Kopf operator\'s manifests', () => {
  it('applies unchanged with strict field validation', async () => {
    const refusals: string[] = [];
    for (const [file, object] of manifests) {
      const refused = await applyStrict(object, true);
      if (refused !== undefined) refusals.push(`${file}: ${refused}`);
    }
    expect(refusals).toEqual([]);
    for (const [, object] of manifests) expect(await applyStrict(object, false)).toBeUndefined();
  });

  it('converges: every realm and client is Ready, and says which upstream spellings it read', async () => {
    const refs = [...ofKind('KeycloakRealm').map((o) => realmRef(namespaceOf(o), o.metadata.name)), ...ofKind('KeycloakClient').filter((o) => o.metadata.name !== DOCKER_CLIENT).map((o) => clientRef(namespaceOf(o), o.metadata.name))];
    // Each waited for in turn (they converge side by side): one that is not Ready is named with its message.
    const notReady: string[] = [];
    for (const ref of refs) await waitForReady(env.kube, ref).catch((error: unknown) => { notReady.push(`${ref.type.kind} ${String(ref.namespace)}/${ref.name}: ${String(error)}`); });
    expect(notReady).toEqual([]);
    const company = await env.kube.get(realmRef('identity', 'company'));
    expect(conditionOf(company, 'Ready')?.message).toContain('security.maxFailureWait is read as security.maxFailureWaitSeconds');
    expect(conditionOf(company, 'Ready')?.message).toContain('browserSecurityHeaders.xXSSProtection has no effect');
    expect(conditionOf(await env.kube.get(realmRef('platform', 'shared-realm')), 'Ready')?.message).toContain('instanceRef has no effect');
    const portal = await env.kube.get(clientRef('identity', 'portal'));
    expect(conditionOf(portal, 'Ready')?.message).toContain('authenticationFlows.browserFlow is read as authenticationFlowOverrides.browser');
    expect(conditionOf(portal, 'Ready')?.message).toContain('settings.refreshTokenLifespan has no effect');
  }, 600_000);

  it('makes the documentation\'s realms and client in Keycloak', async () => {
    expect(pick(await realm('shared'), ['realm', 'enabled'])).toEqual({ realm: 'shared', enabled: true });
    expect(pick(await realm('my-realm'), ['realm', 'enabled'])).toEqual({ realm: 'my-realm', enabled: true });
    const client = await env.admin.client('shared', 'my-app');
    expect(pick(client, ['publicClient', 'enabled'])).toEqual({ publicClient: false, enabled: true });
    const secret = await env.kube.get(secretRef('app-team-a', 'my-client-credentials'));
    expect(secretData(secret, 'client-secret')).toBe(await env.admin.clientSecret('shared', 'my-app'));
  });

  it('gives the realm every field it states, in the Kopf operator\'s spellings', async () => {
    const company = await realm('company');
    expect(pick(company, ['displayName', 'displayNameHtml', 'registrationAllowed', 'registrationEmailAsUsername', 'editUsernameAllowed', 'resetPasswordAllowed', 'rememberMe', 'verifyEmail', 'loginWithEmailAllowed', 'duplicateEmailsAllowed', 'sslRequired', 'revokeRefreshToken', 'refreshTokenMaxReuse'])).toEqual({
      displayName: 'Company', displayNameHtml: '<b>Company</b> login', registrationAllowed: true, registrationEmailAsUsername: false, editUsernameAllowed: true, resetPasswordAllowed: true,
      rememberMe: true, verifyEmail: true, loginWithEmailAllowed: true, duplicateEmailsAllowed: false, sslRequired: 'external', revokeRefreshToken: true, refreshTokenMaxReuse: 1,
    });
    expect(pick(company, ['bruteForceProtected', 'permanentLockout', 'maxFailureWaitSeconds', 'minimumQuickLoginWaitSeconds', 'waitIncrementSeconds', 'quickLoginCheckMilliSeconds', 'maxDeltaTimeSeconds', 'failureFactor'])).toEqual({
      bruteForceProtected: true, permanentLockout: false, maxFailureWaitSeconds: 900, minimumQuickLoginWaitSeconds: 60, waitIncrementSeconds: 120, quickLoginCheckMilliSeconds: 1000, maxDeltaTimeSeconds: 43_200, failureFactor: 5,
    });
    expect(company['browserSecurityHeaders']).toEqual({
      contentSecurityPolicy: 'frame-src \'self\'; frame-ancestors \'self\'; object-src \'none\';', contentSecurityPolicyReportOnly: '', xContentTypeOptions: 'nosniff', xFrameOptions: 'SAMEORIGIN',
      xRobotsTag: 'none', strictTransportSecurity: 'max-age=31536000; includeSubDomains', referrerPolicy: 'no-referrer',
    });
    expect(pick(company, ['accessTokenLifespan', 'accessTokenLifespanForImplicitFlow', 'ssoSessionIdleTimeout', 'ssoSessionMaxLifespan', 'offlineSessionIdleTimeout', 'offlineSessionMaxLifespanEnabled', 'offlineSessionMaxLifespan', 'clientSessionIdleTimeout', 'clientSessionMaxLifespan', 'clientOfflineSessionIdleTimeout', 'clientOfflineSessionMaxLifespan'])).toEqual({
      accessTokenLifespan: 600, accessTokenLifespanForImplicitFlow: 1200, ssoSessionIdleTimeout: 3600, ssoSessionMaxLifespan: 36_000, offlineSessionIdleTimeout: 2_592_000, offlineSessionMaxLifespanEnabled: true,
      offlineSessionMaxLifespan: 5_184_000, clientSessionIdleTimeout: 1800, clientSessionMaxLifespan: 7200, clientOfflineSessionIdleTimeout: 86_400, clientOfflineSessionMaxLifespan: 172_800,
    });
    expect(pick(company, ['loginTheme', 'accountTheme', 'adminTheme', 'emailTheme'])).toEqual({ loginTheme: 'keycloak', accountTheme: 'keycloak.v3', adminTheme: 'keycloak.v2', emailTheme: 'keycloak' });
    // The password came from a Secret with the Kopf operator's label, under the key it defaults to; Keycloak shows it masked.
    expect(company['smtpServer']).toEqual({
      host: 'smtp.example.com', port: '587', from: 'noreply@example.com', fromDisplayName: 'Company', replyTo: 'support@example.com', envelopeFrom: 'bounces@example.com',
      ssl: 'false', starttls: 'true', auth: 'true', user: 'mailer', password: '**********',
    });
    expect(pick(company, ['internationalizationEnabled', 'supportedLocales', 'defaultLocale'])).toEqual({ internationalizationEnabled: true, supportedLocales: expect.arrayContaining(['en', 'de', 'nl']), defaultLocale: 'en' });
    expect(pick(company, ['browserFlow', 'directGrantFlow', 'resetCredentialsFlow', 'clientAuthenticationFlow', 'firstBrokerLoginFlow'])).toEqual({
      browserFlow: 'company-browser', directGrantFlow: 'direct grant', resetCredentialsFlow: 'reset credentials', clientAuthenticationFlow: 'clients', firstBrokerLoginFlow: 'first broker login',
    });
    expect(company['attributes']).toMatchObject({ 'company.tier': 'gold', description: 'Single sign-on for company applications' });
    expect(pick(company, ['eventsEnabled', 'eventsExpiration', 'adminEventsEnabled', 'adminEventsDetailsEnabled', 'organizationsEnabled'])).toEqual({ eventsEnabled: true, eventsExpiration: 604_800, adminEventsEnabled: true, adminEventsDetailsEnabled: false, organizationsEnabled: true });
  });

  it('gives the realm the roles, groups, scopes, flows and identity provider it lists', async () => {
    const roles = await env.admin.get<{ name: string; description?: string }[]>('/realms/company/roles');
    expect(roles?.filter((r) => ['employee', 'manager'].includes(r.name)).map((r) => [r.name, r.description]).sort()).toEqual([['employee', 'Every employee'], ['manager', 'Managers']]);
    const staff = await env.admin.get<{ id: string; realmRoles?: string[] }>('/realms/company/group-by-path/staff');
    expect(staff?.realmRoles).toEqual(['employee']);
    expect((await env.admin.get<{ path: string }[]>('/realms/company/default-groups'))?.map((g) => g.path)).toEqual(['/staff']);
    const scopes = await env.admin.get<{ name: string; description?: string; protocolMappers?: { name: string; config: Record<string, string> }[] }[]>('/realms/company/client-scopes');
    const profile = scopes?.find((s) => s.name === 'company-profile');
    expect([profile?.description, profile?.protocolMappers?.map((m) => [m.name, m.config['claim.name']])]).toEqual(['Company claims', [['department', 'department']]]);
    expect((await env.admin.get<{ name: string }[]>('/realms/company/default-default-client-scopes'))?.map((s) => s.name)).toContain('company-profile');
    const flows = await env.admin.get<{ alias: string; description: string }[]>('/realms/company/authentication/flows');
    expect(flows?.find((f) => f.alias === 'company-browser')?.description).toContain('The browser flow of company applications');
    const github = await env.admin.get('/realms/company/identity-provider/instances/github');
    expect(pick(github, ['providerId', 'displayName', 'enabled', 'trustEmail', 'storeToken', 'firstBrokerLoginFlowAlias'])).toEqual({ providerId: 'github', displayName: 'GitHub', enabled: true, trustEmail: true, storeToken: false, firstBrokerLoginFlowAlias: 'first broker login' });
    expect(pick(github?.['config'] as Record<string, unknown>, ['clientId', 'clientSecret'])).toEqual({ clientId: 'company-sso', clientSecret: '**********' });
  });

  it('gives the clients every field they state, in the Kopf operator\'s spellings', async () => {
    const portal = await env.admin.client('company', 'company-portal');
    expect(pick(portal, ['name', 'description', 'publicClient', 'bearerOnly', 'protocol', 'rootUrl', 'baseUrl', 'adminUrl', 'redirectUris', 'webOrigins', 'alwaysDisplayInConsole', 'clientAuthenticatorType'])).toEqual({
      name: 'Company portal', description: 'The intranet portal', publicClient: false, bearerOnly: false, protocol: 'openid-connect', rootUrl: 'https://portal.example.com', baseUrl: '/home',
      adminUrl: 'https://portal.example.com/admin', redirectUris: ['https://portal.example.com/*'], webOrigins: ['https://portal.example.com'], alwaysDisplayInConsole: true, clientAuthenticatorType: 'client-secret',
    });
    expect(pick(portal, ['standardFlowEnabled', 'implicitFlowEnabled', 'directAccessGrantsEnabled', 'serviceAccountsEnabled', 'consentRequired', 'frontchannelLogout', 'fullScopeAllowed', 'authorizationServicesEnabled'])).toEqual({
      standardFlowEnabled: true, implicitFlowEnabled: false, directAccessGrantsEnabled: false, serviceAccountsEnabled: true, consentRequired: false, frontchannelLogout: true, fullScopeAllowed: false,
      authorizationServicesEnabled: true,
    });
    expect(portal?.['attributes']).toMatchObject({
      'pkce.code.challenge.method': 'S256', 'access.token.lifespan': '300', 'client.session.idle.timeout': '1800', 'client.session.max.lifespan': '36000',
      'post.logout.redirect.uris': 'https://portal.example.com/bye', 'portal.owner': 'intranet-team', 'display.on.consent.screen': 'true', 'include.in.token.scope': 'false',
    });
    // refreshTokenLifespan has no effect: Keycloak keeps no such setting of a client, and nothing is sent for it.
    expect(Object.keys(portal?.['attributes'] as Record<string, string>).filter((key) => key.startsWith('refresh.token'))).toEqual([]);
    // The Kopf operator's authenticationFlows never reached Keycloak; here they are the client's overrides, by flow id.
    const flows = await env.admin.get<{ id: string; alias: string }[]>('/realms/company/authentication/flows');
    const idOf = (alias: string): string | undefined => flows?.find((f) => f.alias === alias)?.id;
    expect(portal?.['authenticationFlowBindingOverrides']).toEqual({ browser: idOf('company-browser'), direct_grant: idOf('direct grant') });
    const id = String(portal?.['id']);
    expect((await env.admin.get<{ name: string }[]>(`/realms/company/clients/${id}/default-client-scopes`))?.map((s) => s.name)).toContain('company-profile');
    expect((await env.admin.get<{ name: string }[]>(`/realms/company/clients/${id}/optional-client-scopes`))?.map((s) => s.name)).toContain('offline_access');
    expect(portal?.['protocolMappers']).toEqual([expect.objectContaining({ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: expect.objectContaining({ 'included.client.audience': 'company-portal' }) })]);
    // The Kopf operator's clientRoles are role names (Keycloak adds uma_protection to a client with authorization services).
    expect((await env.admin.get<{ name: string }[]>(`/realms/company/clients/${id}/roles`))?.map((r) => r.name).sort()).toEqual(['portal-editor', 'portal-viewer', 'uma_protection']);
    // authorizationServicesEnabled with no authorizationSettings: Keycloak's resource server, with the defaults it makes.
    expect(await env.admin.get(`/realms/company/clients/${id}/authz/resource-server`)).toMatchObject({ clientId: id });
    const account = await env.admin.get<{ id: string }>(`/realms/company/clients/${id}/service-account-user`);
    expect((await env.admin.get<{ name: string }[]>(`/realms/company/users/${String(account?.id)}/role-mappings/realm`))?.map((r) => r.name)).toContain('employee');
  });

  it('makes a role with compositeRoles a composite of those roles, and says how it read them', async () => {
    const roles = await env.admin.get<{ name: string; composite: boolean }[]>('/realms/company-roles/roles');
    // The list shows roles briefly; the role itself has its attributes.
    const editor = await env.admin.get<{ description?: string; composite: boolean; attributes?: Record<string, string[]> }>('/realms/company-roles/roles/editor');
    expect(pick(editor, ['description', 'composite'])).toEqual({ description: 'Reads and writes documents', composite: true });
    expect(editor?.attributes?.['team']).toEqual(['docs']);
    expect(roles?.filter((role) => ['reader', 'writer'].includes(role.name)).map((role) => [role.name, role.composite])).toEqual(expect.arrayContaining([['reader', false], ['writer', false]]));
    const composites = await env.admin.get<{ name: string }[]>('/realms/company-roles/roles/editor/composites');
    expect(composites?.map((role) => role.name).sort()).toEqual(['reader', 'writer']);
    const message = conditionOf(await env.kube.get(realmRef('identity', 'company-roles')), 'Ready')?.message;
    expect(message).toContain('realmRoles[].compositeRoles is read as realmRoles[].composites.realm');
    expect(message).toContain('realmRoles[].composite has no effect');
  });

  it('gives the realm the policy string the typed password policy renders, as Keycloak reads it back', async () => {
    expect((await realm('company-roles'))['passwordPolicy']).toBe('length(12) and upperCase(1) and lowerCase(1) and digits(1) and specialChars(1) and notUsername and notEmail and hashIterations(210000) and passwordHistory(3) and forceExpiredPasswordChange(90) and maxLength(64) and regexPattern(^[^ ]+$)');
  });

  it('gives the realm the flows, sub-flows and configs of the Kopf operator\'s shape, steps in priority order', async () => {
    // Keycloak lists the top-level flows only: the flows with topLevel false are sub-flows of the steps that run them.
    const flows = await env.admin.get<{ alias: string; topLevel: boolean; builtIn: boolean; providerId: string; description: string }[]>('/realms/company-flows/authentication/flows');
    expect(flows?.filter((flow) => flow.alias.startsWith('company-login')).map((flow) => pick(flow, ['alias', 'topLevel', 'builtIn', 'providerId']))).toEqual([{ alias: 'company-login', topLevel: true, builtIn: false, providerId: 'basic-flow' }]);
    interface Step { level: number; index: number; priority: number; requirement: string; providerId?: string; displayName: string; authenticationFlow?: boolean; authenticationConfig?: string; description?: string }
    const steps = await env.admin.get<Step[]>('/realms/company-flows/authentication/flows/company-login/executions') ?? [];
    // The manifest's priorities (100, 200, 300) give the order; Keycloak holds Keyward's numbering of it.
    expect(steps.map((step) => [step.level, step.index, step.authenticationFlow === true ? `flow ${step.displayName}` : step.providerId, step.requirement, step.priority])).toEqual([
      [0, 0, 'auth-cookie', 'ALTERNATIVE', 10],
      [0, 1, 'identity-provider-redirector', 'ALTERNATIVE', 20],
      [0, 2, 'flow company-login forms', 'ALTERNATIVE', 30],
      [1, 0, 'auth-username-password-form', 'REQUIRED', 10],
      [1, 1, 'flow company-login otp', 'CONDITIONAL', 20],
      [2, 0, 'conditional-user-configured', 'REQUIRED', 10],
      [2, 1, 'auth-otp-form', 'REQUIRED', 20],
    ]);
    // userSetupAllowed has no effect: Keycloak's steps have no such field to set.
    expect(steps.filter((step) => 'userSetupAllowed' in step)).toEqual([]);
    expect(steps.find((step) => step.displayName === 'company-login forms')?.description).toBe('Username and password, then OTP when the user has one');
    const redirector = steps.find((step) => step.providerId === 'identity-provider-redirector');
    const config = await env.admin.get(`/realms/company-flows/authentication/config/${String(redirector?.authenticationConfig)}`);
    expect(pick(config, ['alias', 'config'])).toEqual({ alias: 'company-idp-redirect', config: { defaultProvider: 'github' } });
    expect((await realm('company-flows'))['browserFlow']).toBe('company-login');
    expect(conditionOf(await env.kube.get(realmRef('identity', 'company-flows')), 'Ready')?.message).toContain('authenticationFlows[].authenticationExecutions is read as authenticationFlows[].executions');
  });

  it('maps the realm roles of scopeMappings and the client roles of clientScopeMappings to their client scope and client', async () => {
    interface Mappings { realmMappings?: { name: string }[]; clientMappings?: Record<string, { mappings: { name: string }[] }> }
    const names = (mappings: Mappings | undefined): Record<string, string[]> => ({
      realm: (mappings?.realmMappings ?? []).map((role) => role.name),
      ...Object.fromEntries(Object.entries(mappings?.clientMappings ?? {}).map(([clientId, { mappings: roles }]) => [clientId, roles.map((role) => role.name).sort()])),
    });
    const scopes = await env.admin.get<{ id: string; name: string }[]>('/realms/company-flows/client-scopes');
    const reports = scopes?.find((scope) => scope.name === 'reports');
    expect(names(await env.admin.get<Mappings>(`/realms/company-flows/client-scopes/${String(reports?.id)}/scope-mappings`))).toEqual({ realm: ['reader'], account: ['view-profile'], broker: ['read-token'] });
    // Keycloak maps two roles of account to its account console in every realm; the third is the manifest's.
    const client = await env.admin.client('company-flows', 'account-console');
    expect(names(await env.admin.get<Mappings>(`/realms/company-flows/clients/${String(client?.['id'])}/scope-mappings`))).toEqual({ realm: ['auditor'], account: ['manage-account', 'view-groups', 'view-profile'] });
    const message = conditionOf(await env.kube.get(realmRef('identity', 'company-flows')), 'Ready')?.message;
    expect(message).toContain('scopeMappings[].roles is read as scopeMappings[].realmRoles');
    expect(message).toContain('clientScopeMappings is read as scopeMappings[].clientRoles');
  });

  it('writes the credentials Secret under secretName, and none where manageSecret is false', async () => {
    const portal = await env.kube.get(secretRef('identity', 'portal-oidc'));
    expect(secretData(portal, 'client-secret')).toBe(await env.admin.clientSecret('company', 'company-portal'));
    expect([portal?.metadata.labels?.['app'], portal?.metadata.annotations?.['team']]).toEqual(['portal', 'intranet']);
    expect(await env.kube.get(secretRef('identity', 'portal-credentials'))).toBeUndefined();
    expect(statusOf(await env.kube.get(clientRef('identity', 'portal')))['secretName']).toBe('portal-oidc');
    const batch = await env.admin.client('company', 'company-batch');
    expect(pick(batch, ['clientAuthenticatorType', 'standardFlowEnabled', 'serviceAccountsEnabled'])).toEqual({ clientAuthenticatorType: 'client-jwt', standardFlowEnabled: false, serviceAccountsEnabled: true });
    expect(await env.kube.get(secretRef('identity', 'batch-credentials'))).toBeUndefined();
  });

  it('gives the user federation providers every field they state in the Kopf operator\'s flat shape, the Secrets\' values sent and shown nowhere', async () => {
    const providers = await components('company-directory', { type: 'org.keycloak.storage.UserStorageProvider' });
    const ldap = providers.find((p) => p.name === 'corporate-ldap');
    expect([ldap?.providerId, ldap?.subType]).toEqual(['ldap', 'keyward']);
    expect(stated(ldap?.config, [
      'priority', 'enabled', 'connectionUrl', 'startTls', 'useTruststoreSpi', 'connectionPooling', 'connectionTimeout', 'readTimeout', 'authType', 'bindDn', 'vendor', 'usersDn',
      'usernameLDAPAttribute', 'rdnLDAPAttribute', 'uuidLDAPAttribute', 'userObjectClasses', 'customUserSearchFilter', 'searchScope', 'pagination', 'batchSizeForSync', 'editMode', 'trustEmail',
      'validatePasswordPolicy', 'allowKerberosAuthentication', 'kerberosRealm', 'serverPrincipal', 'useKerberosForPasswordAuthentication', 'debug', 'fullSyncPeriod', 'changedSyncPeriod',
      'importEnabled', 'syncRegistrations', 'cachePolicy',
    ])).toEqual({
      priority: ['1'], enabled: ['true'], connectionUrl: ['ldap://127.0.0.1:10389'], startTls: ['true'], useTruststoreSpi: ['ldapsOnly'], connectionPooling: ['false'], connectionTimeout: ['5000'],
      readTimeout: ['10000'], authType: ['simple'], bindDn: ['cn=admin,dc=example,dc=org'], vendor: ['other'], usersDn: ['ou=people,dc=example,dc=org'], usernameLDAPAttribute: ['uid'],
      rdnLDAPAttribute: ['uid'], uuidLDAPAttribute: ['entryUUID'], userObjectClasses: ['inetOrgPerson, organizationalPerson'], customUserSearchFilter: ['(mail=*)'], searchScope: ['1'],
      pagination: ['false'], batchSizeForSync: ['500'], editMode: ['WRITABLE'], trustEmail: ['true'], validatePasswordPolicy: ['true'], allowKerberosAuthentication: ['true'],
      kerberosRealm: ['EXAMPLE.ORG'], serverPrincipal: ['HTTP/sso.example.org@EXAMPLE.ORG'], useKerberosForPasswordAuthentication: ['false'], debug: ['true'], fullSyncPeriod: ['86400'],
      changedSyncPeriod: ['3600'], importEnabled: ['true'], syncRegistrations: ['true'], cachePolicy: ['NO_CACHE'],
    });
    // From the Secrets: Keycloak shows the bind password masked, and the keytab path as it is.
    expect(stated(ldap?.config, ['bindCredential', 'keyTab'])).toEqual({ bindCredential: ['**********'], keyTab: ['/etc/keycloak/ldap-http.keytab'] });
    const phone = (await components('company-directory', { parent: String(ldap?.id), type: 'org.keycloak.storage.ldap.mappers.LDAPStorageMapper' })).find((m) => m.name === 'phone');
    expect([phone?.providerId, stated(phone?.config, ['ldap.attribute', 'user.model.attribute', 'read.only'])]).toEqual(['user-attribute-ldap-mapper', { 'ldap.attribute': ['mobile'], 'user.model.attribute': ['phone'], 'read.only': ['false'] }]);
    const kerberos = providers.find((p) => p.name === 'corporate-kerberos');
    expect([kerberos?.providerId, stated(kerberos?.config, ['priority', 'enabled', 'editMode', 'kerberosRealm', 'serverPrincipal', 'keyTab', 'debug'])]).toEqual(['kerberos', {
      priority: ['2'], enabled: ['false'], editMode: ['UNSYNCED'], kerberosRealm: ['EXAMPLE.ORG'], serverPrincipal: ['HTTP/sso.example.org@EXAMPLE.ORG'], keyTab: ['/etc/keycloak/http.keytab'], debug: ['false'],
    }]);
    // LDAP's keys are not sent to a Kerberos provider, which drops them: the reconcile below writes nothing for them.
    expect(stated(kerberos?.config, ['trustEmail', 'allowKerberosAuthentication', 'useKerberosForPasswordAuthentication'])).toEqual({ trustEmail: undefined, allowKerberosAuthentication: undefined, useKerberosForPasswordAuthentication: undefined });
    const ref = realmRef('identity', 'company-directory');
    const message = conditionOf(await env.kube.get(ref), 'Ready')?.message;
    expect(message).toContain('userFederation[].connectionUrl is read as userFederation[].connection.url');
    expect(message).toContain('userFederation[].syncSettings.changedUsersSyncPeriod is read as userFederation[].sync.changedSyncPeriod');
    expect(message).toContain('userFederation[].keytabSecret is read as userFederation[].kerberos.keyTabSecret');
    // Converged: a reconcile writes nothing, and neither its plan nor the status holds a Secret's value.
    const before = operator.requests.length;
    const again = await operator.reconcileRealm('identity', 'company-directory');
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
    const shown = JSON.stringify([again.plan, statusOf(await env.kube.get(ref))]);
    for (const value of ['directory-corpus-password', 'ldap-http.keytab', '/etc/keycloak/http.keytab']) expect(shown).not.toContain(value);
  });

  it('gives the client\'s authorization services every policy and permission the Kopf operator\'s lists per type state', async () => {
    type Json = Record<string, unknown>;
    const base = '/realms/company';
    const client = await env.admin.client('company', 'company-documents');
    const uuid = String(client?.['id']);
    const server = `${base}/clients/${uuid}/authz/resource-server`;
    const id = async (path: string): Promise<string> => String((await env.admin.get(path))?.['id']);
    const names = async (path: string): Promise<string[]> => ((await env.admin.get<Json[]>(path)) ?? []).map((item) => String(item['name'])).sort();
    const made = await policiesOf('company', 'company-documents');
    const config = (name: string): Record<string, string> => configOf(made.get(name));
    const marked = (description: string): string => `${description} [io.kubernetes.managed-by=keyward]`.trim();
    // The JavaScript policy is skipped: allowJavaScriptPolicies is false.
    expect([...made.keys()].sort()).toEqual(['company-mail', 'employees', 'employees-in-hours', 'every-report', 'every-report-read', 'from-clients', 'not-staff', 'office-hours', 'own-service-account', 'report-access', 'report-write']);
    expect(Object.fromEntries([...made].map(([name, policy]) => [name, pick(policy, ['type', 'logic', 'decisionStrategy', 'description'])]))).toEqual({
      'employees': { type: 'role', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('Employees who may view their profile') },
      'own-service-account': { type: 'user', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('The client\'s own service account') },
      'not-staff': { type: 'group', logic: 'NEGATIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'from-clients': { type: 'client', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'office-hours': { type: 'time', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'company-mail': { type: 'regex', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'employees-in-hours': { type: 'aggregate', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('Employees, in office hours') },
      'report-access': { type: 'resource', logic: 'POSITIVE', decisionStrategy: 'AFFIRMATIVE', description: marked('Reports for employees in office hours') },
      'every-report': { type: 'resource', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'every-report-read': { type: 'scope', logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS', description: marked('') },
      'report-write': { type: 'scope', logic: 'POSITIVE', decisionStrategy: 'CONSENSUS', description: marked('') },
    });
    // Keycloak keeps each policy's members as ids.
    const account = await env.admin.client('company', 'account');
    const viewProfile = await id(`${base}/clients/${String(account?.['id'])}/roles/view-profile`);
    expect((JSON.parse(config('employees')['roles'] ?? '[]') as Json[]).sort((a, b) => Number(b['required']) - Number(a['required']))).toEqual([{ id: await id(`${base}/roles/employee`), required: true }, { id: viewProfile, required: false }]);
    expect(config('employees')['fetchRoles']).toBe('true');
    expect(JSON.parse(config('own-service-account')['users'] ?? '[]')).toEqual([await id(`${base}/clients/${uuid}/service-account-user`)]);
    const groups = (JSON.parse(config('not-staff')['groups'] ?? '[]') as Json[]).map((group) => pick(group, ['id', 'extendChildren']));
    expect([groups, config('not-staff')['groupsClaim']]).toEqual([[{ id: await id(`${base}/group-by-path/staff`), extendChildren: false }], 'groups']);
    expect((JSON.parse(config('from-clients')['clients'] ?? '[]') as string[]).sort()).toEqual([uuid, String(account?.['id'])].sort());
    expect(config('office-hours')).toEqual({
      nbf: '2026-01-01 00:00:00', noa: '2030-12-31 23:59:59', dayMonth: '1', dayMonthEnd: '28', month: '1', monthEnd: '12', year: '2026', yearEnd: '2030', hour: '8', hourEnd: '18', minute: '0', minuteEnd: '59',
    });
    expect(pick(config('company-mail'), ['targetClaim', 'pattern'])).toEqual({ targetClaim: 'email', pattern: '.*@company\\.example$' });
    const at = (name: string, part: string): Promise<string[]> => names(`${server}/policy/${String(made.get(name)?.['id'])}/${part}`);
    expect(await at('employees-in-hours', 'associatedPolicies')).toEqual(['employees', 'office-hours']);
    expect([await at('report-access', 'resources'), await at('report-access', 'scopes'), await at('report-access', 'associatedPolicies')]).toEqual([['report'], [], ['employees-in-hours', 'own-service-account']]);
    expect([await at('every-report', 'resources'), await at('every-report', 'associatedPolicies'), config('every-report')['defaultResourceType']]).toEqual([[], ['employees'], 'urn:company-documents:resources:report']);
    expect([await at('report-write', 'resources'), await at('report-write', 'scopes'), await at('report-write', 'associatedPolicies')]).toEqual([['report'], ['write'], ['company-mail', 'employees', 'from-clients', 'not-staff']]);
    // A scope permission keeps its type of resources as a resource permission does.
    expect([await at('every-report-read', 'resources'), await at('every-report-read', 'scopes'), config('every-report-read')['defaultResourceType']]).toEqual([[], ['read'], 'urn:company-documents:resources:report']);
    // A resource's attributes given as lists, as Keycloak keeps them (with the operator's marker).
    const report = ((await env.admin.get<Json[]>(`${server}/resource`, { name: 'report', exactName: 'true' })) ?? [])[0];
    expect(report?.['attributes']).toEqual({ classification: ['internal', 'confidential'], owner: ['reports-team'], 'io.kubernetes.managed-by': ['keyward'] });
    const message = conditionOf(await env.kube.get(clientRef('identity', 'documents')), 'Ready')?.message;
    expect(message).toContain('authorizationSettings.policies.javascriptPolicies has no effect without allowJavaScriptPolicies: true');
    expect(message).toContain('authorizationSettings.policies{} is read as authorizationSettings.policies[], each item of the type of its list');
    expect(message).toContain('authorizationSettings.permissions{} is read as authorizationSettings.permissions[], each item of the type of its list');
    // Converged: a reconcile writes nothing.
    const before = operator.requests.length;
    await operator.reconcileClient('identity', 'documents');
    expect(writesIn(operator.requests.slice(before))).toEqual([]);
    // A resource permission that stops stating resourceType loses it: the whole update leaves it out.
    const permissions = (manifests.map(([, object]) => object).find((object) => object.metadata.name === 'documents')?.['spec'] as { authorizationSettings: { permissions: { resourcePermissions: Json[] } } }).authorizationSettings.permissions;
    const untyped = permissions.resourcePermissions.map((permission) => (permission['name'] === 'every-report' ? { ...permission, resourceType: undefined, resources: ['report'] } : permission));
    await patchSpec(env.kube, clientRef('identity', 'documents'), { authorizationSettings: { permissions: { resourcePermissions: untyped } } });
    await waitForReady(env.kube, clientRef('identity', 'documents'));
    const everyReport = ((await env.admin.get<Json[]>(`${server}/policy`)) ?? []).find((policy) => policy['name'] === 'every-report');
    expect([(everyReport?.['config'] as Record<string, string> | undefined)?.['defaultResourceType'], await at('every-report', 'resources')]).toEqual([undefined, ['report']]);
  });

  it('gives what a minimal manifest leaves out the Kopf operator\'s defaults, where Keycloak\'s differ', async () => {
    // The realm: "forgot password", and its localization completed.
    expect(pick(await realm('company-minimal'), ['resetPasswordAllowed', 'internationalizationEnabled', 'defaultLocale'])).toEqual({ resetPasswordAllowed: true, internationalizationEnabled: true, defaultLocale: 'en' });
    expect((await realm('company-minimal'))['supportedLocales']).toEqual(expect.arrayContaining(['en', 'de']));
    // The providers: read-only, and the directory's searches paged over pooled connections.
    const providers = await components('company-minimal', { type: 'org.keycloak.storage.UserStorageProvider' });
    const provider = (name: string, keys: readonly string[]): Record<string, string[] | undefined> => stated(providers.find((each) => each.name === name)?.config, keys);
    expect(provider('minimal-ldap', ['editMode', 'pagination', 'connectionPooling', 'connectionUrl', 'bindDn', 'bindCredential', 'usersDn'])).toEqual({
      editMode: ['READ_ONLY'], pagination: ['true'], connectionPooling: ['true'], connectionUrl: ['ldap://127.0.0.1:10389'], bindDn: ['cn=admin,dc=example,dc=org'], bindCredential: ['**********'], usersDn: ['ou=people,dc=example,dc=org'],
    });
    expect(provider('minimal-kerberos', ['editMode', 'kerberosRealm', 'keyTab'])).toEqual({ editMode: ['READ_ONLY'], kerberosRealm: ['EXAMPLE.ORG'], keyTab: ['/etc/keycloak/minimal.keytab'] });
    // A client profile and policy of only their names: no executors, no conditions, no profiles, enabled.
    type Listed = Record<string, unknown[] | boolean | string | undefined>;
    const profiles = (await env.admin.get<{ profiles?: Listed[] }>('/realms/company-minimal/client-policies/profiles'))?.profiles ?? [];
    const policy = ((await env.admin.get<{ policies?: Listed[] }>('/realms/company-minimal/client-policies/policies'))?.policies ?? []).find((each) => each['name'] === 'minimal-policy');
    // Keycloak may leave an empty list out of its answer: absent and empty mean the same.
    const profile = profiles.find((each) => each['name'] === 'minimal-profile');
    expect([profile?.['name'], profile?.['executors'] ?? [], policy?.['name'], { enabled: policy?.['enabled'], conditions: policy?.['conditions'] ?? [], profiles: policy?.['profiles'] ?? [] }])
      .toEqual(['minimal-profile', [], 'minimal-policy', { enabled: true, conditions: [], profiles: [] }]);
    // The client, without clientName, is named after its clientId.
    expect((await env.admin.client('company-minimal', 'minimal-documents'))?.['name']).toBe('minimal-documents');
    // The policies: the role policy reads the user's roles from Keycloak, the group policy the token's groups claim first.
    const policies = await policiesOf('company-minimal', 'minimal-documents');
    expect([configOf(policies.get('members'))['fetchRoles'], configOf(policies.get('staff'))['groupsClaim']]).toEqual(['true', 'groups']);
  });

  it('sends a Docker registry client to Keycloak, which takes docker-v2 only with its docker feature on', async () => {
    // Measured on Keycloak 26.7 without the feature: 400 "Invalid protocol: docker-v2"; the client is refused once.
    const refused = await waitForRefusal(env.kube, clientRef('identity', DOCKER_CLIENT), 'BadRequest');
    expect(conditionOf(refused, 'Ready')?.message).toContain('Invalid protocol: docker-v2');
    expect(await env.admin.client('company', 'company-registry')).toBeUndefined();
  });

  it('gives every new user the default roles and places the groups its paths name, as the Kopf operator states them', async () => {
    const composites = async (realmName: string, role: string): Promise<{ realm: string[]; account: string[] }> => {
      const held = await env.admin.get<{ name: string; clientRole: boolean; containerId: string }[]>(`/realms/${realmName}/roles/${role}/composites`) ?? [];
      const account = await env.admin.client(realmName, 'account');
      return {
        realm: held.filter((r) => !r.clientRole).map((r) => r.name).sort(),
        account: held.filter((r) => r.clientRole && r.containerId === account?.['id']).map((r) => r.name).sort(),
      };
    };
    // The list names realm roles; Keycloak's own default roles stay.
    expect((await composites('company-defaults', 'default-roles-company-defaults')).realm).toEqual(['member', 'offline_access', 'reader', 'uma_authorization']);
    // defaultRole's composites are its realm and client roles; Keycloak names the role after the realm in lower case.
    expect(await composites('CompanyDefaultRole', 'default-roles-companydefaultrole')).toEqual({ realm: ['member', 'offline_access', 'uma_authorization'], account: ['manage-account', 'view-applications', 'view-profile'] });
    const platform = await env.admin.get<{ path: string }>('/realms/company-defaults/group-by-path/staff/engineering/platform');
    expect(platform?.path).toBe('/staff/engineering/platform');
    const message = conditionOf(await env.kube.get(realmRef('identity', 'company-default-role')), 'Ready')?.message;
    expect(message).toContain('defaultRole.composites.realm is read as defaultRoles.realmRoles');
    expect(message).toContain('defaultRole.composites.client is read as defaultRoles.clientRoles');
    expect(message).toContain('defaultRole.description has no effect');
    for (const field of ['id', 'clientRole', 'containerId', 'attributes']) expect(message).toContain(`defaultRole.${field} has no effect`);
  });

  it('registers a required action under its provider\'s id, which is the only alias Keycloak gives it', async () => {
    expect(pick(await env.admin.get('/realms/company-defaults/authentication/required-actions/CONFIGURE_TOTP'), ['alias', 'providerId', 'name', 'enabled', 'defaultAction', 'priority'])).toEqual({
      alias: 'CONFIGURE_TOTP', providerId: 'CONFIGURE_TOTP', name: 'Configure OTP', enabled: true, defaultAction: true, priority: 10,
    });
    // Keycloak's own rule, which makes a providerId other than the alias unsatisfiable: registering takes a
    // provider and makes it the alias, and an update keeps the provider whatever it is sent. A new realm has
    // every action registered, so one the spec does not list is unregistered first.
    const base = '/realms/company-defaults/authentication';
    const other = (await env.admin.get<{ alias: string; providerId: string; name: string }[]>(`${base}/required-actions`))?.find((action) => action.alias !== 'CONFIGURE_TOTP');
    if (other === undefined) throw new Error('Keycloak 26.7 registers several required actions in a new realm; it showed one');
    expect(await env.admin.send('DELETE', `${base}/required-actions/${other.alias}`)).toBe(204);
    expect((await env.admin.get<{ providerId: string }[]>(`${base}/unregistered-required-actions`))?.map((action) => action.providerId)).toContain(other.providerId);
    expect(await env.admin.send('POST', `${base}/register-required-action`, { providerId: other.providerId, name: other.name, alias: 'another-alias' })).toBe(204);
    const registered = await env.admin.get(`${base}/required-actions/${other.providerId}`);
    expect(pick(registered, ['alias', 'providerId'])).toEqual({ alias: other.providerId, providerId: other.providerId });
    expect(await env.admin.send('PUT', `${base}/required-actions/${other.providerId}`, { ...registered, providerId: 'CONFIGURE_TOTP' })).toBe(204);
    expect((await env.admin.get(`${base}/required-actions/${other.providerId}`))?.['providerId']).toBe(other.providerId);
  });

  it('accepts authenticateByDefault, which Keycloak 26.7 stores and its login never acts on, and says so', async () => {
    const path = '/realms/company-defaults/identity-provider/instances/github';
    const github = await env.admin.get(path);
    // Keyward sends nothing for it.
    expect(pick(github, ['providerId', 'enabled', 'authenticateByDefault'])).toEqual({ providerId: 'github', enabled: true, authenticateByDefault: undefined });
    // Set by hand, Keycloak stores it...
    expect(await env.admin.send('PUT', path, { ...github, authenticateByDefault: true })).toBe(204);
    expect((await env.admin.get(path))?.['authenticateByDefault']).toBe(true);
    // ...and a browser login still shows the realm's own form, the provider one link on it, rather than sending the user there.
    const query = new URLSearchParams({ client_id: 'account', response_type: 'code', scope: 'openid', redirect_uri: `${env.url}/realms/company-defaults/account/` });
    const login = await httpCall(`${env.url}/realms/company-defaults/protocol/openid-connect/auth?${query.toString()}`, { timeoutMs: 30_000 });
    expect([login.status, login.headers['location']]).toEqual([200, undefined]);
    expect(login.body).toContain('kc-form-login');
    expect(login.body).toContain('/broker/github/login');
    expect(conditionOf(await env.kube.get(realmRef('identity', 'company-defaults')), 'Ready')?.message).toContain('identityProviders[].authenticateByDefault has no effect');
  });

  it('refuses, naming the field, what these fields cannot mean: another providerId, a path elsewhere, another default role', async () => {
    const defaults = manifests.map(([, object]) => object).find((object) => object.metadata.name === 'company-defaults');
    if (defaults === undefined) throw new Error('the corpus has no company-defaults realm');
    const spec = defaults['spec'] as Record<string, unknown>;
    const variant = (changed: Record<string, unknown>): KubeObject => ({ ...defaults, spec: { ...spec, ...changed } });
    expect(await applyStrict(variant({ requiredActions: [{ alias: 'CONFIGURE_TOTP', providerId: 'VERIFY_EMAIL' }] }), true)).toContain('providerId must equal alias');
    expect(await applyStrict(variant({ groups: [{ name: 'staff', path: '/team' }] }), true)).toContain('path is where the group is listed');
    expect(await applyStrict(variant({ groups: [{ name: 'staff', subGroups: [{ name: 'engineering', path: '/engineering' }] }] }), true)).toContain('spec.groups[0].subGroups[0].path');
    expect(await applyStrict(variant({ defaultRole: { name: 'default-roles-company' } }), true)).toContain('defaultRole.name is the realm\'s default role');
  });
});
