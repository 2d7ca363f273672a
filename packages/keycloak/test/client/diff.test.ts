import { describe, expect, it } from '@jest/globals';
import { PlanBuilder } from '@keyward/kernel';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import { clientChanges, desiredClient } from '../../src/client/representation.js';
import { reconcileClientRoles } from '../../src/client/roles.js';
import { reconcileProtocolMappers } from '../../src/client/mappers.js';
import { reconcileScopeLinks } from '../../src/client/scopes.js';
import { reconcileServiceAccountRoles } from '../../src/client/service-account.js';
import { NAME, NS, baseSpec, call, clientObject, keycloakClient } from './harness.js';

const owner = { namespace: NS, name: NAME };
const observed = keycloakClient().client;

describe('the client diff compares only what the spec states', () => {
  it.each([
    ['nothing stated', {}, []],
    ['a field Keycloak has already', { settings: { standardFlowEnabled: true } }, []],
    ['a field that differs', { settings: { standardFlowEnabled: false } }, ['standardFlowEnabled']],
    ['redirect URIs in another order', { redirectUris: ['b', 'a'] }, []],
    ['a redirect URI more', { redirectUris: ['a', 'b', 'c'] }, ['redirectUris']],
    ['a PKCE method', { settings: { pkceCodeChallengeMethod: 'S256' } }, ['attributes.pkce.code.challenge.method']],
    ['a lifespan Keycloak has as text', { settings: { accessTokenLifespan: 300 } }, []],
    ['post-logout URIs in another order', { postLogoutRedirectUris: ['y', 'x'] }, []],
    ['an attribute the spec no longer lists', {}, []],
    ['a consent screen setting Keycloak has already', { settings: { displayOnConsentScreen: true } }, []],
    ['a token scope setting Keycloak has not', { settings: { includeInTokenScope: false } }, ['attributes.include.in.token.scope']],
    ['authorization services turned on', { settings: { serviceAccountsEnabled: true, authorizationServicesEnabled: true } }, ['serviceAccountsEnabled', 'authorizationServicesEnabled']],
  ] as const)('%s', (_what, extra, changed) => {
    const have = { ...observed, redirectUris: ['a', 'b'], attributes: { ...observed.attributes, 'access.token.lifespan': '300', 'post.logout.redirect.uris': 'x##y', 'display.on.consent.screen': 'true' } };
    const changes = clientChanges(desiredClient(clientObject({ ...baseSpec, ...extra }).spec, owner), have);
    expect(changes.changed).toEqual(changed);
  });

  it('sends only the attributes that differ, so Keycloak keeps the others', () => {
    const changes = clientChanges(desiredClient(clientObject({ ...baseSpec, attributes: { a: '1', b: '2' } }).spec, owner), { ...observed, attributes: { ...observed.attributes, a: '1' } });
    expect(changes.body).toEqual({ attributes: { b: '2' } });
  });
});

const target = () => {
  const plan = new PlanBuilder<KeycloakAction>();
  return { plan, target: { plan, call, client: { realm: 'shared', clientId: 'shop-web', id: 'uuid-1' } } };
};

describe('client roles and protocol mappers: prune only what carries our marker', () => {
  const marked = { 'io.kubernetes.managed-by': ['keyward'] };
  it('creates, updates and deletes roles', () => {
    const { plan, target: t } = target();
    reconcileClientRoles(t, [{ name: 'buyer', description: 'buys' }, { name: 'new' }], [
      { role: { name: 'buyer', description: 'old', attributes: marked }, composites: { realm: [], clients: {} } },
      { role: { name: 'gone', attributes: marked }, composites: { realm: [], clients: {} } },
      { role: { name: 'by-hand' }, composites: { realm: [], clients: {} } },
    ], false);
    expect(plan.build().steps.map((s) => s.reason)).toEqual(['the client role differs from the spec', 'the spec lists this client role', 'the spec no longer lists this client role, which it created']);
    expect(actionsOf(plan.build(), 'keycloak.update')[0]).toMatchObject({ changed: ['description'], body: { description: 'buys' } });
    expect(actionsOf(plan.build(), 'keycloak.delete')[0]?.resource).toMatchObject({ name: 'gone' });
  });

  it('leaves converged roles and mappers alone, and keeps config keys Keycloak adds', () => {
    const { plan, target: t } = target();
    reconcileClientRoles(t, [{ name: 'buyer' }], [{ role: { name: 'buyer', attributes: marked }, composites: { realm: [], clients: {} } }], false);
    const mapper = { name: 'tenant', protocolMapper: 'oidc-hardcoded-claim-mapper', config: { 'claim.name': 'tenant' } };
    reconcileProtocolMappers(t, { wanted: [mapper], pruneWhenEmpty: false }, [{ ...mapper, id: 'm1', protocol: 'openid-connect', config: { ...mapper.config, 'io.kubernetes.managed-by': 'keyward', 'jsonType.label': 'String' } }], 'openid-connect');
    expect(plan.build().steps).toEqual([]);
  });

  const observedMappers = [
    { id: 'm1', name: 'ours', protocol: 'openid-connect', protocolMapper: 'p', config: { 'io.kubernetes.managed-by': 'keyward' } },
    { id: 'm2', name: 'by-hand', protocol: 'openid-connect', protocolMapper: 'p', config: {} },
    { id: 'm3', name: 'kept', protocol: 'openid-connect', protocolMapper: 'p', config: { 'io.kubernetes.managed-by': 'keyward' } },
  ];
  const keptMapper = { name: 'kept', protocolMapper: 'p' };

  it('deletes a marked mapper a list that names others no longer lists, and not one made by hand', () => {
    const { plan, target: t } = target();
    reconcileProtocolMappers(t, { wanted: [keptMapper], pruneWhenEmpty: false }, observedMappers, 'openid-connect');
    expect(actionKinds(plan.build())).toEqual(['keycloak.delete']);
    expect(actionsOf(plan.build(), 'keycloak.delete')[0]?.resource).toMatchObject({ id: 'm1' });
  });

  it('deletes nothing for an empty or absent list, unless told to prune', () => {
    for (const wanted of [[], undefined]) {
      const { plan, target: t } = target();
      reconcileProtocolMappers(t, { wanted, pruneWhenEmpty: false }, observedMappers, 'openid-connect');
      reconcileClientRoles(t, wanted, [{ role: { name: 'gone', attributes: marked }, composites: { realm: [], clients: {} } }], false);
      expect(plan.build().steps).toEqual([]);
    }
    const { plan, target: t } = target();
    reconcileProtocolMappers(t, { wanted: undefined, pruneWhenEmpty: true }, observedMappers, 'openid-connect');
    reconcileClientRoles(t, [], [{ role: { name: 'gone', attributes: marked }, composites: { realm: [], clients: {} } }, { role: { name: 'by-hand' }, composites: { realm: [], clients: {} } }], true);
    expect(actionsOf(plan.build(), 'keycloak.delete').map((action) => action.resource)).toMatchObject([{ id: 'm1' }, { id: 'm3' }, { name: 'gone' }]);
  });
});

describe('scope links and service-account roles: remove only what the spec listed before', () => {
  it('links what is missing, unlinks what the spec dropped, and never a built-in scope it never listed', () => {
    const { plan, target: t } = target();
    const managed = reconcileScopeLinks(t, { defaultClientScopes: ['orders'] }, { defaultClientScopes: ['profile', 'email', 'legacy'], optionalClientScopes: ['phone'] }, { defaultClientScopes: ['legacy'] });
    expect(plan.build().steps.map((s) => s.action)).toEqual([
      expect.objectContaining({ kind: 'keycloak.delete', resource: expect.objectContaining({ list: 'default', scope: 'legacy' }) }),
      expect.objectContaining({ kind: 'keycloak.create', resource: expect.objectContaining({ list: 'default', scope: 'orders' }) }),
    ]);
    expect(managed).toEqual({ defaultClientScopes: ['orders'] });
  });

  it('does not touch a list the spec leaves out', () => {
    const { plan, target: t } = target();
    expect(reconcileScopeLinks(t, {}, { defaultClientScopes: ['legacy'] }, { defaultClientScopes: ['legacy'] })).toEqual({});
    expect(plan.build().steps).toEqual([]);
  });

  it('grants what is missing and revokes only roles listed before, so roles granted by hand survive', () => {
    const { plan, target: t } = target();
    const held = { realm: ['default-roles-shared', 'by-hand', 'old'], clients: { billing: ['read', 'write'] } };
    const managed = reconcileServiceAccountRoles(t, { realmRoles: ['reader'], clientRoles: { billing: ['read'] } }, held, { serviceAccountRealmRoles: ['old'], serviceAccountClientRoles: { billing: ['read', 'write'] } });
    expect(plan.build().steps.map((s) => s.action)).toEqual([
      expect.objectContaining({ kind: 'keycloak.revokeRoles', holder: expect.objectContaining({ type: 'serviceAccount' }), roles: { realm: ['old'], clients: { billing: ['write'] } } }),
      expect.objectContaining({ kind: 'keycloak.grantRoles', roles: { realm: ['reader'], clients: {} } }),
    ]);
    expect(managed).toEqual({ serviceAccountRealmRoles: ['reader'], serviceAccountClientRoles: { billing: ['read'] } });
  });
});
