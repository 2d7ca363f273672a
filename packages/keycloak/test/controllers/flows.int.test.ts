// Authentication flows of a KeycloakRealm against the real kube-apiserver and Keycloak 26: a flow made with
// steps, requirements, a sub-flow and an authenticator config, a copy of the built-in browser flow, steps
// added, removed and reordered, an out-of-band change repaired, zero writes once converged, pruning of our
// flows only, a hand-made flow of a listed alias refused, and every built-in flow as a fresh realm has it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DRIFT_REPAIRED } from '@keyward/kernel/plan';
import { type Plan } from '@keyward/kernel';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { FLOW_MARKER, BUILT_IN_FLOWS } from '../../src/realm/flows/spec.js';
import { conditionOf, createRealm, patchSpec, realmRef, startRealmTestFile, statusOf, waitForObject, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcf', 'realm');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

const newRealmName = (prefix: string): string => file.newRealmName(prefix);

type Json = Record<string, unknown>;
const segment = encodeURIComponent;

const flowsOf = async (realm: string): Promise<Json[]> => (await env.admin.get<Json[]>(`/realms/${realm}/authentication/flows`)) ?? [];
const executionsOf = async (realm: string, alias: string): Promise<Json[]> => (await env.admin.get<Json[]>(`/realms/${realm}/authentication/flows/${segment(alias)}/executions`)) ?? [];

/** "level name requirement" per step, in Keycloak's order (a sub-flow by its alias, an authenticator by its provider). */
const outline = (executions: readonly Json[]): string[] =>
  executions.map((e) => `${String(e['level'])} ${String(e['authenticationFlow'] === true ? e['displayName'] : e['providerId'])} ${String(e['requirement'])}`);

/** The built-in flows as Keycloak shows them, without ids (which differ between realms). */
async function builtInFlows(realm: string): Promise<Json> {
  const flows = (await flowsOf(realm)).filter((flow) => flow['builtIn'] === true);
  const entries = await Promise.all(flows.map(async (flow) => {
    const alias = String(flow['alias']);
    const steps = (await executionsOf(realm, alias)).map(({ id: _id, flowId: _flow, authenticationConfig: _config, ...rest }) => rest);
    return [alias, { description: flow['description'], providerId: flow['providerId'], steps }] as const;
  }));
  return Object.fromEntries(entries);
}

const loginFlow = {
  alias: 'kw login',
  description: 'cookie, an identity provider, or a form with OTP',
  executions: [
    { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' },
    { authenticator: 'identity-provider-redirector', requirement: 'ALTERNATIVE', config: { alias: 'kw-idp', config: { defaultProvider: 'corp' } } },
    { subFlow: { alias: 'kw login forms', description: 'password and OTP', executions: [{ authenticator: 'auth-username-password-form', requirement: 'REQUIRED' }, { authenticator: 'auth-otp-form', requirement: 'REQUIRED' }] }, requirement: 'ALTERNATIVE' },
  ],
};

/** The admin API operations of one reconcile of realm object `name`. */
async function operationsOf(name: string): Promise<string[]> {
  const before = operator.requests.length;
  await operator.reconcileRealm(namespace, name);
  // A token is fetched when the cached one is near its end, whichever reconcile that falls in.
  return operator.requests.slice(before).map((request) => request.operation).filter((op) => op !== 'token');
}

const FLOW_READS = ['list_authentication_flows', 'list_flow_executions', 'get_authenticator_config', 'list_required_actions'];

async function reconcileWritesNothing(name: string): Promise<void> {
  const before = operator.requests.length;
  const again = await operator.reconcileRealm(namespace, name);
  expect(again.plan?.steps.map((step) => `${step.action.kind}: ${step.reason}`)).toEqual([]);
  expect(writesIn(operator.requests.slice(before))).toEqual([]);
}

/** A converged realm changed by hand: one update sets it back, then Reconciling, and a DriftRepaired event. */
function expectRepair(plan: Plan<KeycloakRealmAction> | undefined): void {
  expect(plan?.steps.map((step) => step.action.kind)).toEqual(['keycloak.update', 'k8s.status', 'k8s.event']);
  expect(plan?.steps.at(-1)?.action).toMatchObject({ type: 'Warning', reason: DRIFT_REPAIRED });
}

describe('authentication flows of a KeycloakRealm against the real Keycloak', () => {
  it('makes, copies, updates, repairs and prunes flows, converging to zero writes, and leaves the built-in flows as a fresh realm has them', async () => {
    const fresh = newRealmName('kcf-fresh');
    await createRealm(env.kube, namespace, 'fresh', { realmName: fresh });
    await waitForReady(env.kube, realmRef(namespace, 'fresh'));
    const builtIns = await builtInFlows(fresh);
    expect(Object.keys(builtIns).sort()).toEqual([...BUILT_IN_FLOWS].sort());

    const realm = newRealmName('kcf-flows');
    const ref = realmRef(namespace, 'flows');
    await createRealm(env.kube, namespace, 'flows', { realmName: realm, authenticationFlows: [loginFlow, { alias: 'kw copy', copyFrom: 'browser' }] });
    await waitForReady(env.kube, ref);
    const flows = await flowsOf(realm);
    expect(flows.find((flow) => flow['alias'] === 'kw login')).toMatchObject({ description: `${loginFlow.description} ${FLOW_MARKER}`, providerId: 'basic-flow', topLevel: true, builtIn: false });
    expect(flows.find((flow) => flow['alias'] === 'kw copy')).toMatchObject({ description: `Browser based authentication ${FLOW_MARKER}`, builtIn: false });
    const login = await executionsOf(realm, 'kw login');
    expect(outline(login)).toEqual(['0 auth-cookie ALTERNATIVE', '0 identity-provider-redirector ALTERNATIVE', '0 kw login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '1 auth-otp-form REQUIRED']);
    const redirector = login.find((e) => e['providerId'] === 'identity-provider-redirector');
    expect(await env.admin.get(`/realms/${realm}/authentication/config/${String(redirector?.['authenticationConfig'])}`)).toMatchObject({ alias: 'kw-idp', config: { defaultProvider: 'corp' } });
    // The copy has the browser flow's steps, its sub-flows renamed after it.
    expect(outline(await executionsOf(realm, 'kw copy'))).toEqual(outline(await executionsOf(realm, 'browser')).map((line) => line.replace(/^(\d) (Organization|forms|Browser - Conditional (Organization|2FA)) /, '$1 kw copy $2 ')));
    await reconcileWritesNothing('flows');
    // Reads grow only for what the spec uses: none for a realm without flows; for this one the flow list,
    // the steps of the one flow whose steps it lists, and that flow's one config.
    const freshReads = await operationsOf('fresh');
    expect(freshReads.filter((op) => FLOW_READS.includes(op))).toEqual([]);
    const flowReads = await operationsOf('flows');
    expect(flowReads.filter((op) => FLOW_READS.includes(op)).sort()).toEqual(['get_authenticator_config', 'list_authentication_flows', 'list_flow_executions']);
    expect(flowReads.length).toBe(freshReads.length + 3);

    // Reorder, remove and add steps, change a requirement and the config; give the copy steps of its own.
    const [, redirectorSpec, formsSpec] = loginFlow.executions;
    await patchSpec(env.kube, ref, {
      authenticationFlows: [
        {
          ...loginFlow,
          executions: [
            { ...formsSpec, subFlow: { ...formsSpec?.subFlow, executions: [{ authenticator: 'auth-username-password-form', requirement: 'REQUIRED' }] } },
            { ...redirectorSpec, requirement: 'DISABLED', config: { alias: 'kw-idp', config: { defaultProvider: 'partner' } } },
            { authenticator: 'auth-spnego', requirement: 'ALTERNATIVE' },
          ],
        },
        { alias: 'kw copy', copyFrom: 'browser', executions: [{ authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' }, { subFlow: { alias: 'kw copy forms' }, requirement: 'ALTERNATIVE' }] },
      ],
    });
    await waitForReady(env.kube, ref);
    const updated = await executionsOf(realm, 'kw login');
    expect(outline(updated)).toEqual(['0 kw login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '0 identity-provider-redirector DISABLED', '0 auth-spnego ALTERNATIVE']);
    const config = updated.find((e) => e['providerId'] === 'identity-provider-redirector')?.['authenticationConfig'];
    expect(await env.admin.get(`/realms/${realm}/authentication/config/${String(config)}`)).toMatchObject({ alias: 'kw-idp', config: { defaultProvider: 'partner' } });
    expect(outline(await executionsOf(realm, 'kw copy'))).toEqual([
      '0 auth-cookie ALTERNATIVE', '0 kw copy forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '1 kw copy Browser - Conditional 2FA CONDITIONAL',
      '2 conditional-user-configured REQUIRED', '2 conditional-credential REQUIRED', '2 auth-otp-form ALTERNATIVE', '2 webauthn-authenticator DISABLED', '2 auth-recovery-authn-code-form DISABLED',
    ]);
    // The copy's Organization sub-flow went with its step.
    expect((await flowsOf(realm)).map((flow) => flow['alias'])).not.toContain('kw copy Organization');
    await reconcileWritesNothing('flows');

    // Out of band: a requirement changed and a step moved first, by hand; the next reconcile puts them back.
    const spnego = updated.find((e) => e['providerId'] === 'auth-spnego');
    expect(await env.admin.send('PUT', `/realms/${realm}/authentication/flows/${segment('kw login')}/executions`, { id: spnego?.['id'], requirement: 'DISABLED', priority: 1 })).toBe(204);
    const repair = await operator.reconcileRealm(namespace, 'flows');
    expectRepair(repair.plan);
    await waitForReady(env.kube, ref);
    expect(outline(await executionsOf(realm, 'kw login'))).toEqual(['0 kw login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '0 identity-provider-redirector DISABLED', '0 auth-spnego ALTERNATIVE']);
    await reconcileWritesNothing('flows');

    // A flow made by hand is left alone; the copy, ours and no longer listed, is deleted.
    expect(await env.admin.send('POST', `/realms/${realm}/authentication/flows`, { alias: 'by hand', description: 'made in the console', providerId: 'basic-flow', topLevel: true, builtIn: false })).toBe(201);
    await patchSpec(env.kube, ref, { authenticationFlows: [loginFlow] });
    await waitForReady(env.kube, ref);
    const aliases = (await flowsOf(realm)).map((flow) => flow['alias']);
    expect(aliases).toContain('by hand');
    expect(aliases).toContain('kw login');
    expect(aliases).not.toContain('kw copy');
    expect(outline(await executionsOf(realm, 'kw login'))).toEqual(['0 auth-cookie ALTERNATIVE', '0 identity-provider-redirector ALTERNATIVE', '0 kw login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '1 auth-otp-form REQUIRED']);
    await reconcileWritesNothing('flows');

    // A listed alias whose flow we did not make is refused, naming it.
    await patchSpec(env.kube, ref, { authenticationFlows: [loginFlow, { alias: 'by hand' }] });
    const refused = await waitForObject(env.kube, ref, 'the realm to refuse the hand-made flow', (object) => conditionOf(object, 'Ready')?.reason === 'AuthenticationFlowRefused');
    expect(conditionOf(refused, 'Ready')?.message).toContain('authentication flow by hand exists');
    expect((await flowsOf(realm)).find((flow) => flow['alias'] === 'by hand')).toMatchObject({ description: 'made in the console' });

    expect(await builtInFlows(realm)).toEqual(builtIns);
  });

  it('binds the realm to a flow it makes, repairs a binding changed by hand, and unbinds before a flow can be pruned', async () => {
    const realm = newRealmName('kcf-bind');
    const ref = realmRef(namespace, 'bind');
    const bindFlow = { alias: 'kw bind', executions: [{ authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' }] };
    await createRealm(env.kube, namespace, 'bind', { realmName: realm, authenticationFlows: [bindFlow], flowBindings: { browserFlow: 'kw bind', directGrantFlow: 'direct grant' } });
    await waitForReady(env.kube, ref);
    const bindings = async (): Promise<Json> => {
      const found = await env.admin.get<Json>(`/realms/${realm}`);
      return { browserFlow: found?.['browserFlow'], directGrantFlow: found?.['directGrantFlow'] };
    };
    expect(await bindings()).toEqual({ browserFlow: 'kw bind', directGrantFlow: 'direct grant' });
    await reconcileWritesNothing('bind');

    expect(await env.admin.send('PUT', `/realms/${realm}`, { realm, browserFlow: 'browser' })).toBe(204);
    const repair = await operator.reconcileRealm(namespace, 'bind');
    expectRepair(repair.plan);
    expect(await bindings()).toEqual({ browserFlow: 'kw bind', directGrantFlow: 'direct grant' });
    await waitForReady(env.kube, ref);

    // No longer listed but still bound: Keycloak cannot delete it (500), so it is kept and reported.
    await patchSpec(env.kube, ref, { authenticationFlows: [{ alias: 'kw other' }], flowBindings: { directGrantFlow: 'direct grant' } });
    const kept = await waitForObject(env.kube, ref, 'the realm to report the bound flow', (object) => conditionOf(object, 'Ready')?.message.includes('still binds it') === true);
    expect(conditionOf(kept, 'Ready')?.reason).toBe('AuthenticationFlowRefused');
    expect((await flowsOf(realm)).map((flow) => flow['alias'])).toContain('kw bind');

    // Bound elsewhere in the same plan, it is deleted.
    await patchSpec(env.kube, ref, { flowBindings: { browserFlow: 'browser' } });
    await waitForReady(env.kube, ref);
    expect(await bindings()).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });
    expect((await flowsOf(realm)).map((flow) => flow['alias'])).not.toContain('kw bind');
    await reconcileWritesNothing('bind');

    // A flow that nobody makes is never sent (Keycloak would answer 500), and the realm says why.
    await patchSpec(env.kube, ref, { flowBindings: { browserFlow: 'nowhere' } });
    const refused = await waitForObject(env.kube, ref, 'the realm to refuse the binding', (object) => conditionOf(object, 'Ready')?.message.includes('flowBindings.browserFlow names flow nowhere') === true);
    expect(conditionOf(refused, 'Ready')?.reason).toBe('AuthenticationFlowRefused');
    expect(await bindings()).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });
  });

  it('sets required actions, registers an unregistered one, repairs a change by hand, and unregisters only what it registered', async () => {
    const realm = newRealmName('kcf-actions');
    const ref = realmRef(namespace, 'actions');
    const base = `/realms/${realm}/authentication`;
    await createRealm(env.kube, namespace, 'actions', { realmName: realm });
    await waitForReady(env.kube, ref);
    const fresh = (await env.admin.get<Json[]>(`${base}/required-actions`)) ?? [];
    // Keycloak 26 has every required action registered in a new realm; one is unregistered by hand to be registered again.
    expect(await env.admin.send('DELETE', `${base}/required-actions/delete_account`)).toBe(204);
    expect(await env.admin.get(`${base}/unregistered-required-actions`)).toEqual([{ providerId: 'delete_account', name: 'Delete Account' }]);

    await patchSpec(env.kube, ref, {
      requiredActions: [
        { alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5, config: { max_auth_age: '300' } },
        { alias: 'delete_account', name: 'Delete my account', enabled: true, priority: 7 },
        { alias: 'TERMS_AND_CONDITIONS', enabled: true },
      ],
    });
    await waitForReady(env.kube, ref);
    const action = (alias: string): Promise<Json | undefined> => env.admin.get<Json>(`${base}/required-actions/${alias}`);
    // Keycloak's PUT replaces an action whole: the fields the spec leaves out keep Keycloak's values because they are sent back.
    expect(await action('CONFIGURE_TOTP')).toEqual({ alias: 'CONFIGURE_TOTP', name: 'Configure OTP', providerId: 'CONFIGURE_TOTP', enabled: true, defaultAction: true, priority: 5, config: { max_auth_age: '300' } });
    expect(await action('delete_account')).toMatchObject({ name: 'Delete my account', enabled: true, defaultAction: false, priority: 7 });
    expect(await action('TERMS_AND_CONDITIONS')).toMatchObject({ enabled: true, name: 'Terms and Conditions' });
    expect(statusOf(await env.kube.get(ref))['registeredRequiredActions']).toEqual(['delete_account']);
    await reconcileWritesNothing('actions');

    const totp = await action('CONFIGURE_TOTP');
    expect(await env.admin.send('PUT', `${base}/required-actions/CONFIGURE_TOTP`, { ...totp, defaultAction: false })).toBe(204);
    const repair = await operator.reconcileRealm(namespace, 'actions');
    expectRepair(repair.plan);
    expect(await action('CONFIGURE_TOTP')).toMatchObject({ defaultAction: true, priority: 5 });
    await waitForReady(env.kube, ref);

    // An empty list manages nothing; a list that names others unregisters only the one this object registered.
    await patchSpec(env.kube, ref, { requiredActions: [] });
    await waitForReady(env.kube, ref);
    expect(await action('delete_account')).toMatchObject({ name: 'Delete my account' });
    await patchSpec(env.kube, ref, { requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5 }] });
    await waitForReady(env.kube, ref);
    expect(await action('delete_account')).toBeUndefined();
    expect(await env.admin.get(`${base}/unregistered-required-actions`)).toEqual([{ providerId: 'delete_account', name: 'Delete Account' }]);
    expect(await action('TERMS_AND_CONDITIONS')).toMatchObject({ enabled: true });
    expect(statusOf(await env.kube.get(ref))['registeredRequiredActions']).toBeUndefined();
    await reconcileWritesNothing('actions');
    const aliases = ((await env.admin.get<Json[]>(`${base}/required-actions`)) ?? []).map((entry) => entry['alias']);
    expect(aliases.sort()).toEqual(fresh.map((entry) => entry['alias']).filter((alias) => alias !== 'delete_account').sort());
  });
});
