// A KeycloakRealm's identity providers with the KeycloakRealm controller and core's runtime, against the real
// kube-apiserver and Keycloak 26: an OIDC provider with its clientId and clientSecret from a labelled Secret
// and a SAML one, created, updated through a diff, the Secret's new values sent once, an out-of-band change
// repaired, mappers, and pruning of ours only; and nothing written once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rememberSecret } from '@keyward/test-env';
import { REALM_SECRET_LABEL } from '../../src/index.js';
import { conditionOf, createRealm, patchSpec, REALM_SECRET_LABELS, realmRef, secretRef, startRealmTestFile, statusOf, unique, waitForObject, waitForReady, writeSecret, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;
const MASK = '**********';
const MARKER = { 'io.kubernetes.managed-by': 'keyward' };

beforeAll(async () => {
  file = await startRealmTestFile('kcidp', 'realm-idp');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

const newRealmName = (prefix: string): string => file.newRealmName(prefix);

type Json = Record<string, unknown>;

const providerOf = (realm: string, alias: string): Promise<Json | undefined> => env.admin.get<Json>(`/realms/${realm}/identity-provider/instances/${alias}`);
const configOf = (provider: Json | undefined): Json => (provider?.['config'] as Json | undefined) ?? {};
async function aliasesOf(realm: string): Promise<string[]> {
  return ((await env.admin.get<Json[]>(`/realms/${realm}/identity-provider/instances`)) ?? []).map((p) => String(p['alias'])).sort();
}
async function mappersOf(realm: string, alias: string): Promise<Map<string, Json>> {
  const mappers = (await env.admin.get<Json[]>(`/realms/${realm}/identity-provider/instances/${alias}/mappers`)) ?? [];
  return new Map(mappers.map((m) => [String(m['name']), m]));
}

/**
 * Whether `writes` are only of `kind`: the controller's own reconciles (woken by status writes) run beside a
 * test's, so a repair may be made by either (before or after the test's count starts), or by both.
 */
const onlyOf = (writes: readonly string[], kind: string): boolean => writes.every((write) => write === kind);

/** A reconcile now: its plan's steps, and the Keycloak writes made meanwhile. */
async function reconcileNow(name: string): Promise<{ steps: string[]; writes: string[]; operations: string[] }> {
  const before = operator.requests.length;
  const result = await operator.reconcileRealm(namespace, name);
  const requests = operator.requests.slice(before);
  return { steps: (result.plan?.steps ?? []).map((step) => `${step.action.kind}: ${step.reason}`), writes: writesIn(requests), operations: requests.map((r) => r.operation) };
}

const oidc = (extra: Json = {}): Json => ({
  alias: 'upstream',
  providerId: 'oidc',
  displayName: 'Upstream',
  trustEmail: true,
  hideOnLogin: false,
  firstBrokerLoginFlowAlias: 'first broker login',
  config: { authorizationUrl: 'https://upstream.example.com/auth', tokenUrl: 'https://upstream.example.com/token', clientAuthMethod: 'client_secret_post', defaultScope: 'openid email', syncMode: 'IMPORT' },
  configSecrets: { clientId: { name: 'upstream-oidc', key: 'client-id' }, clientSecret: { name: 'upstream-oidc', key: 'client-secret' } },
  ...extra,
});
const saml: Json = { alias: 'corp', providerId: 'saml', displayName: 'Corp', config: { singleSignOnServiceUrl: 'https://corp.example.com/sso', nameIDPolicyFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' } };

describe('the identity providers of a KeycloakRealm against the real Keycloak and API server', () => {
  it('creates OIDC and SAML providers with config from a Secret, updates them through a diff, sends the Secret\'s new values once, repairs an out-of-band change, prunes ours only, and then writes nothing', async () => {
    const realm = newRealmName('kcidp');
    const ref = realmRef(namespace, 'brokered');
    await writeSecret(env.kube, namespace, 'upstream-oidc', { 'client-id': 'shop-broker', 'client-secret': rememberSecret(unique('idp-secret')) }, REALM_SECRET_LABELS);
    await createRealm(env.kube, namespace, 'brokered', { realmName: realm, identityProviders: [oidc(), saml] });
    const created = await waitForReady(env.kube, ref);

    const upstream = await providerOf(realm, 'upstream');
    expect(upstream).toMatchObject({ providerId: 'oidc', displayName: 'Upstream', enabled: true, trustEmail: true, firstBrokerLoginFlowAlias: 'first broker login' });
    // The clientId from the Secret shows in clear; Keycloak masks the clientSecret it holds.
    expect(configOf(upstream)).toMatchObject({ ...MARKER, clientId: 'shop-broker', clientSecret: MASK, tokenUrl: 'https://upstream.example.com/token', defaultScope: 'openid email' });
    expect(configOf(await providerOf(realm, 'corp'))).toMatchObject({ ...MARKER, singleSignOnServiceUrl: 'https://corp.example.com/sso' });
    const secret = await env.kube.get(secretRef(namespace, 'upstream-oidc'));
    expect(statusOf(created)['identityProviderSecretVersions']).toEqual({ 'upstream-oidc': secret?.metadata.resourceVersion });
    expect(await reconcileNow('brokered')).toMatchObject({ steps: [], writes: [] });

    // An update of fields and config is sent complete; the mask keeps the stored clientSecret.
    await patchSpec(env.kube, ref, { identityProviders: [oidc({ displayName: 'Upstream SSO', trustEmail: false, config: { ...(oidc()['config'] as Json), defaultScope: 'openid profile', prompt: 'login' } }), saml] });
    await waitForReady(env.kube, ref);
    const updated = await providerOf(realm, 'upstream');
    expect(updated).toMatchObject({ displayName: 'Upstream SSO', trustEmail: false, firstBrokerLoginFlowAlias: 'first broker login' });
    expect(configOf(updated)).toMatchObject({ ...MARKER, clientId: 'shop-broker', clientSecret: MASK, defaultScope: 'openid profile', prompt: 'login', tokenUrl: 'https://upstream.example.com/token' });
    expect(await reconcileNow('brokered')).toMatchObject({ steps: [], writes: [] });

    // New values in the Secret (watched by name) are sent once.
    await writeSecret(env.kube, namespace, 'upstream-oidc', { 'client-id': 'shop-broker-2', 'client-secret': rememberSecret(unique('idp-secret')) }, REALM_SECRET_LABELS);
    const rotated = await env.kube.get(secretRef(namespace, 'upstream-oidc'));
    await waitForObject(env.kube, ref, 'the new Secret values to be sent', (object) => (statusOf(object)['identityProviderSecretVersions'] as Json | undefined)?.['upstream-oidc'] === rotated?.metadata.resourceVersion && conditionOf(object, 'Ready')?.status === 'True');
    expect(configOf(await providerOf(realm, 'upstream'))).toMatchObject({ clientId: 'shop-broker-2', clientSecret: MASK });
    expect(await reconcileNow('brokered')).toMatchObject({ steps: [], writes: [] });

    // Someone replaces the provider by hand (Keycloak drops what a PUT leaves out, the clientSecret too): repaired.
    expect(await env.admin.send('PUT', `/realms/${realm}/identity-provider/instances/upstream`, { alias: 'upstream', providerId: 'oidc', displayName: 'Hacked', config: { tokenUrl: 'https://evil.example.com/token' } })).toBe(204);
    const repair = await reconcileNow('brokered');
    expect(onlyOf(repair.writes, 'update_identityProvider')).toBe(true);
    await waitForReady(env.kube, ref);
    const repaired = await providerOf(realm, 'upstream');
    expect(repaired).toMatchObject({ displayName: 'Upstream SSO', trustEmail: false });
    expect(configOf(repaired)).toMatchObject({ ...MARKER, clientId: 'shop-broker-2', clientSecret: MASK, tokenUrl: 'https://upstream.example.com/token', prompt: 'login' });
    expect(await reconcileNow('brokered')).toMatchObject({ steps: [], writes: [] });

    // One made by hand carries no marker: it stays when ours are pruned.
    expect(await env.admin.send('POST', `/realms/${realm}/identity-provider/instances`, { alias: 'by-hand', providerId: 'oidc', config: { clientId: 'x', tokenUrl: 'https://hand.example.com/token', authorizationUrl: 'https://hand.example.com/auth' } })).toBe(201);
    await patchSpec(env.kube, ref, { identityProviders: [oidc({ displayName: 'Upstream SSO', trustEmail: false })] });
    await waitForReady(env.kube, ref);
    expect(await aliasesOf(realm)).toEqual(['by-hand', 'upstream']);

    // A spec that drops the list manages none: what it made stays, and no identity provider is read at all.
    await patchSpec(env.kube, ref, { identityProviders: null });
    await waitForReady(env.kube, ref);
    const quiet = await reconcileNow('brokered');
    expect(quiet).toMatchObject({ steps: [], writes: [] });
    expect(quiet.operations).not.toContain('list_identity_providers');
    expect(await aliasesOf(realm)).toEqual(['by-hand', 'upstream']);
    // Told to prune them, it removes what it made.
    await patchSpec(env.kube, ref, { pruneUnlisted: ['identityProviders'] });
    await waitForReady(env.kube, ref);
    expect(await aliasesOf(realm)).toEqual(['by-hand']);
  });

  it('manages the mappers an identity provider lists: created, updated, repaired, and only ours pruned', async () => {
    const realm = newRealmName('kcidp-map');
    const ref = realmRef(namespace, 'mapped');
    await writeSecret(env.kube, namespace, 'mapped-oidc', { 'client-id': 'mapped', 'client-secret': rememberSecret(unique('idp-secret')) }, REALM_SECRET_LABELS);
    const secrets = { clientId: { name: 'mapped-oidc', key: 'client-id' }, clientSecret: { name: 'mapped-oidc', key: 'client-secret' } };
    const dept = { name: 'department', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: 'department', 'attribute.value': 'engineering', syncMode: 'INHERIT' } };
    const email = { name: 'email', identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { claim: 'email', 'user.attribute': 'email', syncMode: 'FORCE' } };
    const provider = (mappers: Json[]): Json => ({ ...oidc({ configSecrets: secrets }), mappers });
    await createRealm(env.kube, namespace, 'mapped', { realmName: realm, identityProviders: [provider([dept, email])] });
    await waitForReady(env.kube, ref);
    let mappers = await mappersOf(realm, 'upstream');
    expect(mappers.get('department')).toMatchObject({ identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { ...dept.config, ...MARKER } });
    expect(mappers.get('email')).toMatchObject({ identityProviderMapper: 'oidc-user-attribute-idp-mapper', config: { ...email.config, ...MARKER } });
    expect(await reconcileNow('mapped')).toMatchObject({ steps: [], writes: [] });

    // Updated through a diff; one made by hand stays; one of ours no longer listed goes.
    const handMade = { name: 'by-hand', identityProviderMapper: 'hardcoded-attribute-idp-mapper', identityProviderAlias: 'upstream', config: { attribute: 'x', 'attribute.value': 'y' } };
    expect(await env.admin.send('POST', `/realms/${realm}/identity-provider/instances/upstream/mappers`, handMade)).toBe(201);
    await patchSpec(env.kube, ref, { identityProviders: [provider([{ ...dept, config: { ...dept.config, 'attribute.value': 'sales' } }])] });
    await waitForReady(env.kube, ref);
    mappers = await mappersOf(realm, 'upstream');
    expect([...mappers.keys()].sort()).toEqual(['by-hand', 'department']);
    expect((mappers.get('department')?.['config'] as Json | undefined)?.['attribute.value']).toBe('sales');

    // Changed by hand: repaired.
    const department = mappers.get('department') ?? {};
    expect(await env.admin.send('PUT', `/realms/${realm}/identity-provider/instances/upstream/mappers/${String(department['id'])}`, { ...department, config: { attribute: 'department', 'attribute.value': 'hacked' } })).toBe(204);
    const repair = await reconcileNow('mapped');
    expect(onlyOf(repair.writes, 'update_identityProviderMapper')).toBe(true);
    await waitForReady(env.kube, ref);
    expect(((await mappersOf(realm, 'upstream')).get('department')?.['config'] as Json | undefined)?.['attribute.value']).toBe('sales');
    expect(await reconcileNow('mapped')).toMatchObject({ steps: [], writes: [] });
  });

  it('reads no value from a Secret without the opt-in label, and says which Secret needs which label', async () => {
    const realm = newRealmName('kcidp-label');
    const ref = realmRef(namespace, 'unlabelled');
    await writeSecret(env.kube, namespace, 'unlabelled-oidc', { 'client-id': 'x', 'client-secret': rememberSecret(unique('idp-secret')) });
    await createRealm(env.kube, namespace, 'unlabelled', { realmName: realm, identityProviders: [oidc({ configSecrets: { clientSecret: { name: 'unlabelled-oidc', key: 'client-secret' } }, config: { clientId: 'x', authorizationUrl: 'https://u.example.com/auth', tokenUrl: 'https://u.example.com/token' } })] });
    const stalled = await waitForObject(env.kube, ref, 'the realm to stall on the unlabelled Secret', (object) => conditionOf(object, 'Stalled')?.status === 'True');
    expect(conditionOf(stalled, 'Ready')).toMatchObject({
      reason: 'IdentityProviderSecretNotOptedIn',
      message: `the Secret unlabelled-oidc (config clientSecret of identity provider upstream) in namespace ${namespace} lacks the label ${REALM_SECRET_LABEL}=true; realm ${realm} reads no Secret without it`,
    });
    expect(await env.admin.get(`/realms/${realm}`)).toBeUndefined();
    expect((await reconcileNow('unlabelled')).writes).toEqual([]);

    await writeSecret(env.kube, namespace, 'unlabelled-oidc', { 'client-id': 'x', 'client-secret': rememberSecret(unique('idp-secret')) }, REALM_SECRET_LABELS);
    await waitForReady(env.kube, ref);
    expect(configOf(await providerOf(realm, 'upstream'))).toMatchObject({ clientId: 'x', clientSecret: MASK });
  });

  it('makes a new realm\'s provider that names a flow of the spec once that flow exists (Keycloak answers 500 to an unknown flow), with no failed request', async () => {
    const realm = newRealmName('kcidp-flow');
    const before = operator.requests.length;
    await createRealm(env.kube, namespace, 'broker-flow', {
      realmName: realm,
      authenticationFlows: [{ alias: 'kw broker', copyFrom: 'first broker login' }],
      identityProviders: [{ ...saml, alias: 'partner', firstBrokerLoginFlowAlias: 'kw broker', postBrokerLoginFlowAlias: 'kw broker' }],
    });
    await waitForReady(env.kube, realmRef(namespace, 'broker-flow'));
    expect(await providerOf(realm, 'partner')).toMatchObject({ firstBrokerLoginFlowAlias: 'kw broker', postBrokerLoginFlowAlias: 'kw broker' });
    const failed = operator.requests.slice(before).filter((r) => r.operation === 'create_identityProvider' && r.status !== 201);
    expect(failed).toEqual([]);
  });
});
