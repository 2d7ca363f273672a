// A KeycloakRealm's organizations with the KeycloakRealm controller and core's runtime, against the real
// kube-apiserver and Keycloak 26: made with the realm that enables them in one apply, updated through a diff
// (domains, attributes), repaired after an out-of-band change, ours pruned and one made by hand kept, nothing
// written or read once the list is gone; identity providers linked and unlinked, a link removed by hand
// repaired, Keycloak's organization keys in a provider's config no drift; and a realm listing them with
// organizations disabled stalled until it enables them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { conditionOf, createRealm, patchSpec, realmRef, startRealmTestFile, statusOf, waitForObject, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;
const MARKER = { 'io.kubernetes.managed-by': ['keyward'] };

beforeAll(async () => {
  file = await startRealmTestFile('kcorgs', 'realm-orgs');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

type Json = Record<string, unknown>;

async function organizationsOf(realm: string): Promise<Map<string, Json>> {
  const listed = (await env.admin.get<Json[]>(`/realms/${realm}/organizations`, { briefRepresentation: 'false', first: '0', max: '100' })) ?? [];
  return new Map(listed.map((organization) => [String(organization['alias']), organization]));
}
const domainsOf = (organization: Json | undefined): string[] => ((organization?.['domains'] as Json[] | undefined) ?? []).map((d) => `${String(d['name'])}${d['verified'] === true ? ' (verified)' : ''}`).sort();

/** A reconcile now: its plan's steps, and the Keycloak writes and operations made meanwhile. */
async function reconcileNow(name: string): Promise<{ steps: string[]; writes: string[]; operations: string[] }> {
  const before = operator.requests.length;
  const result = await operator.reconcileRealm(namespace, name);
  const requests = operator.requests.slice(before);
  return { steps: (result.plan?.steps ?? []).map((step) => `${step.action.kind}: ${step.reason}`), writes: writesIn(requests), operations: requests.map((r) => r.operation) };
}

const acme: Json = {
  name: 'Acme Inc', alias: 'acme', description: 'Customers', redirectUrl: 'https://acme.example.com/welcome',
  domains: [{ name: 'acme.example.com', verified: true }, { name: 'acme.example.org' }],
  attributes: { tier: ['gold'], regions: ['eu', 'us'] },
};
const beta: Json = { name: 'beta', domains: [{ name: 'beta.example.com' }] };

describe('the organizations of a KeycloakRealm against the real Keycloak and API server', () => {
  it('are made with the realm that enables them, updated through a diff, repaired, pruned when ours, and then nothing is written', async () => {
    const realm = file.newRealmName('kcorgs');
    const ref = realmRef(namespace, 'orgs');
    await createRealm(env.kube, namespace, 'orgs', { realmName: realm, organizationsEnabled: true, organizations: [acme, beta] });
    await waitForReady(env.kube, ref);
    let held = await organizationsOf(realm);
    expect(held.get('acme')).toMatchObject({ name: 'Acme Inc', enabled: true, description: 'Customers', redirectUrl: 'https://acme.example.com/welcome', attributes: { tier: ['gold'], regions: ['eu', 'us'], ...MARKER } });
    expect(domainsOf(held.get('acme'))).toEqual(['acme.example.com (verified)', 'acme.example.org']);
    // Keycloak takes the name as the alias.
    expect(held.get('beta')).toMatchObject({ name: 'beta', attributes: MARKER });
    expect(await reconcileNow('orgs')).toMatchObject({ steps: [], writes: [] });

    // A domain added and one removed, an attribute changed, the name changed (the alias stays); one made by hand.
    expect(await env.admin.send('POST', `/realms/${realm}/organizations`, { name: 'by-hand', domains: [{ name: 'hand.example.com' }] })).toBe(201);
    const changed = { ...acme, name: 'Acme Corporation', domains: [{ name: 'acme.example.com', verified: true }, { name: 'acme.example.net' }], attributes: { tier: ['platinum'] } };
    await patchSpec(env.kube, ref, { organizations: [changed, beta] });
    await waitForReady(env.kube, ref);
    held = await organizationsOf(realm);
    expect(held.get('acme')).toMatchObject({ name: 'Acme Corporation', description: 'Customers', attributes: { tier: ['platinum'], ...MARKER } });
    expect((held.get('acme')?.['attributes'] as Json | undefined)?.['regions']).toBeUndefined();
    expect(domainsOf(held.get('acme'))).toEqual(['acme.example.com (verified)', 'acme.example.net']);
    expect(await reconcileNow('orgs')).toMatchObject({ steps: [], writes: [] });

    // Changed by hand (a PUT replaces an organization whole: the domains and redirect URL go): repaired, but for
    // enabled, which the spec does not state.
    const id = String(held.get('acme')?.['id']);
    expect(await env.admin.send('PUT', `/realms/${realm}/organizations/${id}`, { name: 'Acme Corporation', alias: 'acme', enabled: false, description: 'hacked' })).toBe(204);
    const repair = await reconcileNow('orgs');
    // The controller's own reconciles run beside the test's: whichever repairs it, only the organization is written.
    expect(repair.writes.every((write) => write === 'update_organization')).toBe(true);
    await waitForReady(env.kube, ref);
    held = await organizationsOf(realm);
    expect(held.get('acme')).toMatchObject({ name: 'Acme Corporation', enabled: false, description: 'Customers', redirectUrl: 'https://acme.example.com/welcome' });
    expect(domainsOf(held.get('acme'))).toEqual(['acme.example.com (verified)', 'acme.example.net']);
    expect(await reconcileNow('orgs')).toMatchObject({ steps: [], writes: [] });

    // beta is ours and no longer listed: deleted; the one made by hand stays.
    await patchSpec(env.kube, ref, { organizations: [changed] });
    await waitForReady(env.kube, ref);
    expect([...(await organizationsOf(realm)).keys()].sort()).toEqual(['acme', 'by-hand']);

    // A spec that drops the list manages none: nothing removed, and the organizations are not read.
    await patchSpec(env.kube, ref, { organizations: null });
    await waitForReady(env.kube, ref);
    const quiet = await reconcileNow('orgs');
    expect(quiet).toMatchObject({ steps: [], writes: [] });
    expect(quiet.operations).not.toContain('list_organizations');
    expect([...(await organizationsOf(realm)).keys()].sort()).toEqual(['acme', 'by-hand']);
  });

  it('link the identity providers they list, unlink those no longer listed, repair a link removed by hand, and leave the providers without drift', async () => {
    const realm = file.newRealmName('kcorgs-idp');
    const ref = realmRef(namespace, 'orgs-idp');
    const provider = (alias: string): Json => ({ alias, providerId: 'oidc', config: { clientId: alias, authorizationUrl: `https://${alias}.example.com/auth`, tokenUrl: `https://${alias}.example.com/token` } });
    const linked = (...aliases: string[]): Json => ({ ...acme, identityProviders: aliases.map((alias) => ({ alias })) });
    const linksOf = async (id: string): Promise<string[]> => ((await env.admin.get<Json[]>(`/realms/${realm}/organizations/${id}/identity-providers`)) ?? []).map((p) => String(p['alias'])).sort();
    // The realm, its providers, its organization and the link, in one apply.
    await createRealm(env.kube, namespace, 'orgs-idp', { realmName: realm, organizationsEnabled: true, identityProviders: [provider('upstream'), provider('corp')], organizations: [linked('upstream')] });
    await waitForReady(env.kube, ref);
    const id = String((await organizationsOf(realm)).get('acme')?.['id']);
    expect(await linksOf(id)).toEqual(['upstream']);
    const upstream = await env.admin.get<Json>(`/realms/${realm}/identity-provider/instances/upstream`);
    expect(upstream?.['organizationId']).toBe(id);
    expect(await reconcileNow('orgs-idp')).toMatchObject({ steps: [], writes: [] });

    // Keycloak's organization keys in a linked provider's config, set by hand, are no drift of the provider.
    expect(await env.admin.send('PUT', `/realms/${realm}/identity-provider/instances/upstream`, { ...upstream, config: { ...(upstream?.['config'] as Json), 'kc.org.domain': 'acme.example.com', 'kc.org.broker.redirect.mode.email-matches': 'true' } })).toBe(204);
    expect(await reconcileNow('orgs-idp')).toMatchObject({ steps: [], writes: [] });

    await patchSpec(env.kube, ref, { organizations: [linked('corp')] });
    await waitForReady(env.kube, ref);
    expect(await linksOf(id)).toEqual(['corp']);
    expect(await reconcileNow('orgs-idp')).toMatchObject({ steps: [], writes: [] });

    // Unlinked by hand: linked again.
    expect(await env.admin.send('DELETE', `/realms/${realm}/organizations/${id}/identity-providers/corp`)).toBe(204);
    const repair = await reconcileNow('orgs-idp');
    expect(repair.writes.every((write) => write === 'create_organizationIdentityProvider')).toBe(true);
    await waitForReady(env.kube, ref);
    expect(await linksOf(id)).toEqual(['corp']);
    expect(await reconcileNow('orgs-idp')).toMatchObject({ steps: [], writes: [] });

    // A linked provider's organization domain and email redirect are its config keys, stated in its spec.
    const routed = { 'kc.org.domain': 'acme.example.org', 'kc.org.broker.redirect.mode.email-matches': 'true' };
    await patchSpec(env.kube, ref, { identityProviders: [provider('upstream'), { ...provider('corp'), config: { ...(provider('corp')['config'] as Json), ...routed } }] });
    await waitForReady(env.kube, ref);
    expect((await env.admin.get<Json>(`/realms/${realm}/identity-provider/instances/corp`))?.['config']).toMatchObject(routed);
    expect(await reconcileNow('orgs-idp')).toMatchObject({ steps: [], writes: [] });
  });

  it('stall a realm that lists them with organizations disabled, naming the field, until it enables them', async () => {
    const realm = file.newRealmName('kcorgs-off');
    const ref = realmRef(namespace, 'orgs-off');
    await createRealm(env.kube, namespace, 'orgs-off', { realmName: realm, organizations: [{ name: 'gamma' }] });
    // The realm itself is made (its id recorded), its organizations are not.
    const stalled = await waitForObject(env.kube, ref, 'the realm to be made and stall on its organizations', (object) => conditionOf(object, 'Ready')?.reason === 'OrganizationsDisabled' && statusOf(object)['realmId'] !== undefined);
    expect(conditionOf(stalled, 'Ready')?.message).toContain('set spec.organizationsEnabled to true');
    const still = await reconcileNow('orgs-off');
    expect(still.writes).toEqual([]);
    expect(still.operations).not.toContain('list_organizations');

    // Enabled in a realm that exists: the organizations follow in the reconcile after.
    await patchSpec(env.kube, ref, { organizationsEnabled: true });
    await waitForReady(env.kube, ref);
    expect([...(await organizationsOf(realm)).keys()]).toEqual(['gamma']);
    expect(await reconcileNow('orgs-off')).toMatchObject({ steps: [], writes: [] });
  });
});
