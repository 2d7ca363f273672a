import { describe, expect, it } from '@jest/globals';
import type { Plan } from '@keyward/kernel';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { IdentityProviderRepresentation, ObservedIdentityProvider } from '../../src/apis/keycloak/representations.js';
import { MANAGED_BY } from '../../src/ownership.js';
import { MASKED_SECRET } from '../../src/realm/diff.js';
import { observe } from '../../src/realm/observe.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { baseSpec, config, decoded, observedRealm, plan, realmObject, secret } from './fixtures.js';

const marker = { [MANAGED_BY]: 'keyward' };
const keycloakSteps = (p: Plan<KeycloakRealmAction>): KeycloakAction[] => p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.'));
const statusOf = (p: Plan<KeycloakRealmAction>): Record<string, unknown> | undefined => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  return step?.action.kind === 'k8s.status' ? step.action.status : undefined;
};

const upstream = {
  alias: 'upstream',
  providerId: 'oidc',
  displayName: 'Upstream',
  trustEmail: true,
  hideOnLogin: false,
  config: { tokenUrl: 'https://up.example.com/token', defaultScope: 'openid', prompt: '' },
  configSecrets: { clientId: { name: 'oidc', key: 'id' }, clientSecret: { name: 'oidc', key: 'secret' }, extra: { name: 'other', key: 'x' } },
};
const spec = { ...baseSpec, identityProviders: [upstream] };
const ref = (name: string, key: string) => ({ kind: 'secretKey', namespace: 'shop', name, key, requiredLabels: { 'keycloak.keyward.io/realm-secret': 'true' } });
const secrets = (oidc = '5', other = '6') => [secret(oidc, undefined, 'oidc'), secret(other, undefined, 'other')];
const sentVersions = { identityProviderSecretVersions: { oidc: '5', other: '6' } };

/** Upstream as Keycloak 26 shows it once created: the switch that is off and the empty value left out, the clientSecret masked, keys of its own. */
function keycloakUpstream(change: (provider: Record<string, unknown>) => void = () => undefined): ObservedIdentityProvider {
  const provider: Record<string, unknown> = {
    alias: 'upstream', providerId: 'oidc', displayName: 'Upstream', enabled: true, trustEmail: true, internalId: 'i-1', types: ['USER_AUTHENTICATION'],
    config: { tokenUrl: 'https://up.example.com/token', defaultScope: 'openid', clientId: 'clear-client-id', clientSecret: MASKED_SECRET, extra: MASKED_SECRET, byKeycloak: 'kept', ...marker },
  };
  change(provider);
  return { provider: provider as IdentityProviderRepresentation, mappers: undefined };
}

const realmWith = (...providers: ObservedIdentityProvider[]) => observedRealm({ identityProviders: providers });

describe('the identity providers of a realm', () => {
  it('are created with the fields the spec states, our marker, and each config value from a Secret read when the step runs', () => {
    const steps = keycloakSteps(plan(realmObject(spec), { realm: realmWith(), secrets: secrets() }));
    expect(steps).toEqual([expect.objectContaining({
      kind: 'keycloak.create',
      resource: { type: 'identityProvider', realm: 'shop', alias: 'upstream' },
      body: { alias: 'upstream', providerId: 'oidc', displayName: 'Upstream', trustEmail: true, hideOnLogin: false, config: { tokenUrl: 'https://up.example.com/token', defaultScope: 'openid', prompt: '', ...marker } },
      secretFields: { 'config.clientId': ref('oidc', 'id'), 'config.clientSecret': ref('oidc', 'secret'), 'config.extra': ref('other', 'x') },
    })]);
  });

  it('plan nothing once Keycloak holds them as the spec says, and record the Secret versions sent', () => {
    const p = plan(realmObject(spec, { status: sentVersions }), { realm: realmWith(keycloakUpstream()), secrets: secrets() });
    expect(keycloakSteps(p)).toEqual([]);
    expect(statusOf(p)).toMatchObject(sentVersions);
  });

  it('send a provider that differs complete: Keycloak\'s fields and config under the spec\'s, the masked values kept with the mask', () => {
    const observed = keycloakUpstream((provider) => { provider['displayName'] = 'Old'; });
    const steps = keycloakSteps(plan(realmObject(spec, { status: sentVersions }), { realm: realmWith(observed), secrets: secrets() }));
    expect(steps).toEqual([expect.objectContaining({
      kind: 'keycloak.update',
      changed: ['displayName'],
      body: {
        alias: 'upstream', providerId: 'oidc', displayName: 'Upstream', enabled: true, trustEmail: true, hideOnLogin: false, internalId: 'i-1', types: ['USER_AUTHENTICATION'],
        config: { tokenUrl: 'https://up.example.com/token', defaultScope: 'openid', prompt: '', byKeycloak: 'kept', clientSecret: MASKED_SECRET, extra: MASKED_SECRET, ...marker },
      },
      // The clientId Keycloak shows in clear is sent from its Secret, never copied from what was read.
      secretFields: { 'config.clientId': ref('oidc', 'id') },
    })]);
    expect(JSON.stringify(steps)).not.toContain('clear-client-id');
  });

  it('send the values of a Secret that changed since they were last sent, and those Keycloak lost, and no others', () => {
    const changed = keycloakSteps(plan(realmObject(spec, { status: sentVersions }), { realm: realmWith(keycloakUpstream()), secrets: secrets('5', '7') }));
    expect(changed).toEqual([expect.objectContaining({ changed: ['config.extra'], secretFields: { 'config.extra': ref('other', 'x'), 'config.clientId': ref('oidc', 'id') } })]);
    expect(changed[0]).toMatchObject({ body: { config: { clientSecret: MASKED_SECRET } } });

    const lost = keycloakUpstream((provider) => { provider['config'] = { tokenUrl: 'https://up.example.com/token', defaultScope: 'openid', clientId: 'shop', extra: MASKED_SECRET, ...marker }; });
    expect(keycloakSteps(plan(realmObject(spec, { status: sentVersions }), { realm: realmWith(lost), secrets: secrets() }))).toEqual([
      expect.objectContaining({ changed: ['config.clientSecret'], secretFields: { 'config.clientSecret': ref('oidc', 'secret'), 'config.clientId': ref('oidc', 'id') } }),
    ]);
  });

  it('are deleted when they carry our marker and a list that names others no longer lists them; others are never touched', () => {
    const ours = { provider: { alias: 'old', providerId: 'saml', config: marker }, mappers: undefined };
    const byHand = { provider: { alias: 'by-hand', providerId: 'oidc', config: { clientId: 'x' } }, mappers: undefined };
    const kept = { provider: { alias: 'kept', providerId: 'saml', enabled: true, config: marker }, mappers: undefined };
    const p = plan(realmObject({ ...baseSpec, identityProviders: [{ alias: 'kept', providerId: 'saml' }] }), { realm: realmWith(ours, byHand, kept) });
    expect(keycloakSteps(p)).toEqual([expect.objectContaining({ kind: 'keycloak.delete', resource: { type: 'identityProvider', realm: 'shop', alias: 'old' } })]);
  });

  it('are neither read nor deleted once the list is empty or left out, unless pruneUnlisted names them', () => {
    const ours = { provider: { alias: 'old', providerId: 'saml', config: marker }, mappers: undefined };
    for (const listed of [{}, { identityProviders: [] }]) {
      const cr = realmObject({ ...baseSpec, ...listed });
      expect(observe(decoded(cr), config).realm?.identityProviders).toBeUndefined();
      expect(keycloakSteps(plan(cr, { realm: realmWith(ours) }))).toEqual([]);
    }
    const pruning = realmObject({ ...baseSpec, pruneUnlisted: ['identityProviders'] });
    expect(observe(decoded(pruning), config).realm?.identityProviders).toEqual({ mappersOf: [] });
    expect(keycloakSteps(plan(pruning, { realm: realmWith(ours) }))).toEqual([expect.objectContaining({ kind: 'keycloak.delete', resource: { type: 'identityProvider', realm: 'shop', alias: 'old' } })]);
  });

  it('stall on a Secret without the opt-in label, naming the provider, the key and the label', () => {
    const p = plan(realmObject(spec), { realm: realmWith(), secrets: [secret('5', undefined, 'oidc'), secret('6', {}, 'other')] });
    expect(keycloakSteps(p)).toEqual([]);
    expect(statusOf(p)?.['message']).toBe('the Secret other (config extra of identity provider upstream) in namespace shop lacks the label keycloak.keyward.io/realm-secret=true; realm shop reads no Secret without it');
  });
});

describe('the identity providers of a realm made in the same plan', () => {
  const brokered = { alias: 'brokered', providerId: 'oidc', firstBrokerLoginFlowAlias: 'kw first broker' };
  const plain = { alias: 'plain', providerId: 'saml', firstBrokerLoginFlowAlias: 'first broker login', postBrokerLoginFlowAlias: '' };
  const flowSpec = { ...baseSpec, authenticationFlows: [{ alias: 'kw first broker', copyFrom: 'first broker login' }], identityProviders: [brokered, plain] };
  const created = (p: Plan<KeycloakRealmAction>): string[] =>
    keycloakSteps(p).flatMap((a) => (a.kind === 'keycloak.create' ? [`${a.resource.type} ${'alias' in a.resource ? a.resource.alias : ''}`] : []));

  it('wait for the next reconcile when they name a flow Keycloak does not make (it answers 500 to an unknown flow), and are then made after it', () => {
    const first = plan(realmObject(flowSpec));
    expect(created(first)).toEqual(['realm ', 'identityProvider plain']);
    const builtIn = { flow: { id: 'f-1', alias: 'first broker login', providerId: 'basic-flow', topLevel: true, builtIn: true }, configs: {} };
    const next = created(plan(realmObject(flowSpec), { realm: observedRealm({ identityProviders: [], authenticationFlows: [builtIn] }) }));
    expect(next).toEqual(expect.arrayContaining(['authenticationFlowCopy kw first broker', 'identityProvider brokered', 'identityProvider plain']));
    expect(next.indexOf('authenticationFlowCopy kw first broker')).toBeLessThan(next.indexOf('identityProvider brokered'));
  });
});

describe('the mappers of an identity provider', () => {
  const dept = { name: 'department', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: { attribute: 'department', 'attribute.value': 'engineering' } };
  const withMappers = (mappers: unknown[] | undefined) => ({ ...baseSpec, identityProviders: [{ alias: 'corp', providerId: 'saml', ...(mappers === undefined ? {} : { mappers }) }] });
  const corp = (mappers: ObservedIdentityProvider['mappers']): ObservedIdentityProvider => ({ provider: { alias: 'corp', providerId: 'saml', enabled: true, config: marker }, mappers });
  const status = {};

  it('are created with a new provider, after it', () => {
    const steps = keycloakSteps(plan(realmObject(withMappers([dept])), { realm: realmWith() }));
    expect(steps.map((s) => `${s.kind} ${'resource' in s ? s.resource.type : ''}`)).toEqual(['keycloak.create identityProvider', 'keycloak.create identityProviderMapper']);
    expect(steps[1]).toMatchObject({ body: { name: 'department', identityProviderMapper: 'hardcoded-attribute-idp-mapper', identityProviderAlias: 'corp', config: { ...dept.config, ...marker } } });
  });

  it('are updated whole when they differ, Keycloak\'s config keys kept, and only ours pruned', () => {
    const observed = corp([
      { id: 'm1', name: 'department', identityProviderMapper: 'hardcoded-attribute-idp-mapper', identityProviderAlias: 'corp', config: { attribute: 'department', 'attribute.value': 'sales', syncMode: 'INHERIT', ...marker } },
      { id: 'm2', name: 'old', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: marker },
      { id: 'm3', name: 'by-hand', identityProviderMapper: 'hardcoded-attribute-idp-mapper', config: {} },
    ]);
    const steps = keycloakSteps(plan(realmObject(withMappers([dept]), { status }), { realm: realmWith(observed) }));
    expect(steps).toEqual([
      expect.objectContaining({ kind: 'keycloak.update', changed: ['config.attribute.value'], resource: { type: 'identityProviderMapper', realm: 'shop', alias: 'corp', name: 'department', id: 'm1' }, body: expect.objectContaining({ id: 'm1', config: { attribute: 'department', 'attribute.value': 'engineering', syncMode: 'INHERIT', ...marker } }) as unknown }),
      expect.objectContaining({ kind: 'keycloak.delete', resource: { type: 'identityProviderMapper', realm: 'shop', alias: 'corp', name: 'old', id: 'm2' } }),
    ]);
  });

  it('are left alone when the provider states no mapper list', () => {
    expect(keycloakSteps(plan(realmObject(withMappers(undefined), { status }), { realm: realmWith(corp(undefined)) }))).toEqual([]);
  });
});
