// Authentication flows of a KeycloakRealm against the in-memory Keycloak: made, copied, their steps added,
// removed, reordered and configured, converged to zero writes, pruned only when ours, built-ins untouched.
import { describe, expect, it } from '@jest/globals';
import { findCondition, type KubeObject, type ObjectRef, InMemoryWorld, reconcileOnce } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { FakeClock } from '@keyward/kernel/testing';
import { isLeft } from 'fp-ts/lib/Either.js';
import { keycloakRealmController, keycloakRealmType } from '../../src/index.js';
import { simulateKeycloak } from '../../src/testing.js';
import type { FlowExecutionRepresentation, ObservedFlow } from '../../src/apis/keycloak/flow-representations.js';
import { describeResource } from '../../src/apis/keycloak/api.js';
import { FLOW_MARKER } from '../../src/realm/flows/spec.js';
import { flowsRead } from '../../src/realm/flows/plan.js';
import { RealmSpecCodec } from '../../src/realm/spec.js';
import { convergeRealm, simulatedConfig, type KeycloakWorld } from '../simulated-world.js';

const config = simulatedConfig;
const ref: ObjectRef = { type: keycloakRealmType, namespace: 'platform', name: 'shop' };

const otpFlow = {
  alias: 'shop login',
  description: 'cookie, then a form with OTP',
  executions: [
    { authenticator: 'auth-cookie', requirement: 'ALTERNATIVE' },
    { authenticator: 'identity-provider-redirector', requirement: 'ALTERNATIVE', config: { alias: 'shop-idp', config: { defaultProvider: 'corp' } } },
    { subFlow: { alias: 'shop login forms', description: 'forms', executions: [{ authenticator: 'auth-username-password-form', requirement: 'REQUIRED' }, { authenticator: 'auth-otp-form', requirement: 'REQUIRED' }] }, requirement: 'ALTERNATIVE' },
  ],
};

function world(flows: readonly unknown[]): KeycloakWorld {
  const w = new InMemoryWorld({ keycloak: simulateKeycloak });
  w.put(keycloakRealmType, { metadata: { name: 'shop', namespace: 'platform' }, spec: { realmName: 'shop', authenticationFlows: flows } });
  return w;
}

function setFlows(w: KeycloakWorld, flows: readonly unknown[], flowBindings?: Record<string, string>): void {
  w.update(ref, (object) => ({ ...object, spec: { ...(object['spec'] as object), authenticationFlows: flows, ...(flowBindings === undefined ? {} : { flowBindings }) } }));
}

const ready = (object: KubeObject | undefined) => findCondition(readConditions((object?.['status'] as { conditions?: unknown } | undefined)?.conditions), 'Ready');

/** Reconciles until a reconcile plans nothing; the plans' Keycloak steps, described. */
async function converge(w: KeycloakWorld, clock: FakeClock): Promise<string[]> {
  const plans = await convergeRealm(w, ref, clock, config);
  return plans.flatMap(({ steps }) => steps.flatMap(({ action }) => ('resource' in action ? [`${action.kind.replace('keycloak.', '')} ${describeResource(action.resource)}`] : [])));
}

const observed = (w: KeycloakWorld): ObservedFlow[] => w.apis.keycloak.flows.observe('shop', { executionsOf: ['browser', 'shop login', 'shop copy'].map((alias) => ({ alias, configs: true })) });
const flow = (w: KeycloakWorld, alias: string): ObservedFlow | undefined => observed(w).find((entry) => entry.flow.alias === alias);
/** "level name requirement", in Keycloak's order. */
const outline = (executions: readonly FlowExecutionRepresentation[] | undefined): string[] =>
  (executions ?? []).map((e) => `${String(e.level)} ${e.authenticationFlow === true ? e.displayName ?? '' : e.providerId ?? ''} ${e.requirement ?? ''}`);

describe('authentication flows of a realm', () => {
  it('are made with their steps, requirements and configs, then left alone', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([otpFlow]);
    await converge(w, clock);
    const made = flow(w, 'shop login');
    expect(made?.flow.description).toBe(`cookie, then a form with OTP ${FLOW_MARKER}`);
    expect(outline(made?.executions)).toEqual(['0 auth-cookie ALTERNATIVE', '0 identity-provider-redirector ALTERNATIVE', '0 shop login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '1 auth-otp-form REQUIRED']);
    expect(Object.values(made?.configs ?? {})).toEqual([expect.objectContaining({ alias: 'shop-idp', config: { defaultProvider: 'corp' } })]);
    expect(ready(w.get(ref))).toMatchObject({ status: 'True' });
    const writes = w.apis.keycloak.writes;
    expect(await converge(w, clock)).toEqual([]);
    expect(w.apis.keycloak.writes).toBe(writes);
  });

  it('reorder, remove and add steps, change requirements and configs, and repair an out-of-band change', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([otpFlow]);
    await converge(w, clock);
    const [, redirector, forms] = otpFlow.executions;
    setFlows(w, [{
      ...otpFlow,
      executions: [
        { ...forms, subFlow: { ...forms?.subFlow, executions: [{ authenticator: 'auth-username-password-form', requirement: 'REQUIRED' }] } },
        { ...redirector, config: { alias: 'shop-idp', config: { defaultProvider: 'partner' } } },
        { authenticator: 'auth-spnego', requirement: 'DISABLED' },
      ],
    }]);
    const steps = await converge(w, clock);
    expect(steps.some((line) => line.includes('delete authenticator auth-cookie'))).toBe(true);
    expect(steps.some((line) => line.includes('delete authenticator auth-otp-form'))).toBe(true);
    expect(outline(flow(w, 'shop login')?.executions)).toEqual(['0 shop login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '0 identity-provider-redirector ALTERNATIVE', '0 auth-spnego DISABLED']);
    expect(Object.values(flow(w, 'shop login')?.configs ?? {})).toEqual([expect.objectContaining({ config: { defaultProvider: 'partner' } })]);

    w.apis.keycloak.flows.editStep('shop', 'shop login', 'identity-provider-redirector', (step) => { step.requirement = 'DISABLED'; step.priority = 1; });
    const repair = await converge(w, clock);
    expect(repair.length).toBeGreaterThan(0);
    expect(outline(flow(w, 'shop login')?.executions)).toEqual(['0 shop login forms ALTERNATIVE', '1 auth-username-password-form REQUIRED', '0 identity-provider-redirector ALTERNATIVE', '0 auth-spnego DISABLED']);
  });

  it('copies a built-in flow, marks the copy, and leaves the built-in unchanged', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([]);
    await converge(w, clock);
    const before = flow(w, 'browser');
    setFlows(w, [{ alias: 'shop copy', copyFrom: 'browser' }]);
    await converge(w, clock);
    const copy = flow(w, 'shop copy');
    expect(copy?.flow.description).toBe(`Browser based authentication ${FLOW_MARKER}`);
    expect(outline(copy?.executions)).toEqual(outline(before?.executions).map((line) => line.replace(' forms ', ' shop copy forms ')));
    expect(flow(w, 'browser')).toEqual(before);

    setFlows(w, [{ alias: 'shop copy', copyFrom: 'browser', executions: [{ authenticator: 'auth-cookie' }, { subFlow: { alias: 'shop copy forms' }, requirement: 'REQUIRED' }] }]);
    await converge(w, clock);
    expect(outline(flow(w, 'shop copy')?.executions)).toEqual(['0 auth-cookie ALTERNATIVE', '0 shop copy forms REQUIRED', '1 auth-username-password-form REQUIRED']);
    expect(flow(w, 'browser')).toEqual(before);
  });

  it('prunes only flows it made, and an empty list manages nothing unless pruneUnlisted names the flows', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([otpFlow, { alias: 'second' }]);
    await converge(w, clock);
    setFlows(w, [{ alias: 'second' }]);
    await converge(w, clock);
    expect(flow(w, 'shop login')).toBeUndefined();
    expect(flow(w, 'second')).toBeDefined();
    expect(observed(w).filter((entry) => entry.flow.builtIn === true).map((entry) => entry.flow.alias).sort()).toEqual(['browser', 'clients', 'direct grant', 'docker auth', 'first broker login', 'registration', 'reset credentials']);
    setFlows(w, []);
    expect(await converge(w, clock)).toEqual([]);
    expect(flow(w, 'second')).toBeDefined();
    w.update(ref, (object) => ({ ...object, spec: { ...(object['spec'] as object), pruneUnlisted: ['authenticationFlows'] } }));
    expect(await converge(w, clock)).toEqual(['delete authentication flow second in realm shop']);
    expect(observed(w).map((entry) => entry.flow.alias).sort()).toEqual(['browser', 'clients', 'direct grant', 'docker auth', 'first broker login', 'registration', 'reset credentials']);
  });

  it('refuses a flow of a listed alias that it did not make, unless its namespace may adopt in the realm', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([{ alias: 'second', description: 'mine' }]);
    await converge(w, clock);
    w.apis.keycloak.flows.update('shop', { type: 'authenticationFlow', realm: 'shop', alias: 'second' }, { description: 'made by hand' }, () => '');
    const outcome = await reconcileOnce(keycloakRealmController, w, ref, { config, now: clock.now() });
    expect(outcome.result?.ok).toBe(true);
    expect(ready(w.get(ref))).toMatchObject({ status: 'False', reason: 'AuthenticationFlowRefused' });
    await reconcileOnce(keycloakRealmController, w, ref, { config: { ...config, keycloakAdoptUnownedNamespaces: ['platform/other-realm', 'team-b'] }, now: clock.now() });
    expect(flow(w, 'second')?.flow.description).toBe('made by hand');
    const adopted = await reconcileOnce(keycloakRealmController, w, ref, { config: { ...config, keycloakAdoptUnownedNamespaces: ['platform/shop'] }, now: clock.now() });
    expect(adopted.result?.ok).toBe(true);
    expect(flow(w, 'second')?.flow.description).toBe(`mine ${FLOW_MARKER}`);
  });
});

describe('flow bindings of a realm', () => {
  const bindings = (w: KeycloakWorld): Record<string, unknown> => {
    let bound: Record<string, unknown> = {};
    w.apis.keycloak.editRealm('shop', (rep) => { bound = { browserFlow: rep['browserFlow'], directGrantFlow: rep['directGrantFlow'] }; });
    return bound;
  };

  it('bind a flow made in the same plan, after it is made, then unbind before it is pruned', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([]);
    await converge(w, clock);
    setFlows(w, [otpFlow], { browserFlow: 'shop login', directGrantFlow: 'direct grant' });
    const steps = await converge(w, clock);
    expect(steps.indexOf('update realm shop')).toBeGreaterThan(steps.indexOf('create authentication flow shop login in realm shop'));
    expect(bindings(w)).toEqual({ browserFlow: 'shop login', directGrantFlow: 'direct grant' });
    expect(ready(w.get(ref))).toMatchObject({ status: 'True' });

    // Still bound: not deleted, and said so.
    setFlows(w, [{ alias: 'other' }], { directGrantFlow: 'direct grant' });
    await reconcileOnce(keycloakRealmController, w, ref, { config, now: clock.now() });
    expect(flow(w, 'shop login')).toBeDefined();
    expect(ready(w.get(ref))).toMatchObject({ status: 'False', reason: 'AuthenticationFlowRefused', message: expect.stringContaining('still binds it') as unknown });

    setFlows(w, [{ alias: 'other' }], { browserFlow: 'browser' });
    const unbound = await converge(w, clock);
    expect(unbound.indexOf('delete authentication flow shop login in realm shop')).toBeGreaterThan(unbound.indexOf('update realm shop'));
    expect(flow(w, 'shop login')).toBeUndefined();
    expect(bindings(w)).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });
  });

  it('refuses to bind a flow that neither the realm has nor the spec makes', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world([]);
    await converge(w, clock);
    setFlows(w, [], { browserFlow: 'nowhere' });
    const outcome = await reconcileOnce(keycloakRealmController, w, ref, { config, now: clock.now() });
    expect(outcome.result?.ok).toBe(true);
    expect(ready(w.get(ref))).toMatchObject({ status: 'False', reason: 'AuthenticationFlowRefused', message: expect.stringContaining('flowBindings.browserFlow names flow nowhere') as unknown });
    expect(bindings(w)).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });

    // A copy of a flow there is none of is not made, so it is not bound either.
    setFlows(w, [{ alias: 'copy of nothing', copyFrom: 'nothing' }], { browserFlow: 'copy of nothing' });
    const copy = await reconcileOnce(keycloakRealmController, w, ref, { config, now: clock.now() });
    expect(copy.result?.ok).toBe(true);
    expect(copy.decision.kind === 'planned' ? copy.decision.plan.steps.map((step) => step.action.kind) : []).toEqual(['k8s.status']);
    expect(ready(w.get(ref))?.message).toContain('flowBindings.browserFlow names flow copy of nothing');
    expect(bindings(w)).toEqual({ browserFlow: 'browser', directGrantFlow: 'direct grant' });
  });
});

describe('the flows part of the spec', () => {
  const verdict = (flows: unknown): string => {
    const result = RealmSpecCodec.decode({ realmName: 'shop', authenticationFlows: flows });
    return isLeft(result) ? result.left.map((error) => error.message ?? '').join(' ') : 'valid';
  };

  it('refuses built-in aliases, steps that are neither or both, config on a sub-flow, repeated aliases and too deep nesting', () => {
    expect(verdict([{ alias: 'browser' }])).toContain('copy it under another alias');
    expect(verdict([{ alias: 'a', executions: [{ requirement: 'REQUIRED' }] }])).toContain('exactly one of authenticator and subFlow');
    expect(verdict([{ alias: 'a', executions: [{ authenticator: 'x', subFlow: { alias: 'b' } }] }])).toContain('exactly one of authenticator and subFlow');
    expect(verdict([{ alias: 'a', executions: [{ subFlow: { alias: 'b' }, config: { alias: 'c', config: {} } }] }])).toContain('config belongs to an authenticator');
    expect(verdict([{ alias: 'a', executions: [{ subFlow: { alias: 'a' } }] }])).toContain('unique in the realm');
    expect(verdict([{ alias: 'a', executions: [{ authenticator: 'x', requirement: 'SOMETIMES' }] }])).not.toBe('valid');
    const nest = (depth: number): object => (depth === 0 ? { authenticator: 'x' } : { subFlow: { alias: `s${String(depth)}`, executions: [nest(depth - 1)] } });
    expect(verdict([{ alias: 'a', executions: [nest(3)] }])).toBe('valid');
    expect(verdict([{ alias: 'a', executions: [nest(4)] }])).toContain('nest at most 3 levels');
  });

  it('is read only when it lists flows, and configs only when it configures some', () => {
    expect(flowsRead({})).toBeUndefined();
    expect(flowsRead({ authenticationFlows: [], flowBindings: {} })).toBeUndefined();
    expect(flowsRead({ authenticationFlows: [{ alias: 'a' }, { alias: 'b', executions: [{ authenticator: 'x' }] }, otpFlow as never] })).toEqual({ executionsOf: [{ alias: 'b', configs: false }, { alias: 'shop login', configs: true }] });
    expect(flowsRead({ flowBindings: { browserFlow: 'browser' } })).toEqual({ executionsOf: [] });
    expect(flowsRead({ pruneUnlisted: ['authenticationFlows'] })).toEqual({ executionsOf: [] });
    expect(flowsRead({ pruneUnlisted: ['groups'] })).toBeUndefined();
  });
});
