import { describe, expect, it } from '@jest/globals';
import { PlanBuilder } from '@keyward/kernel';
import { decode } from '@keyward/kernel/model';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ObservedAuthorization } from '../../src/apis/keycloak/authorization.js';
import { reconcileAuthorization } from '../../src/client/authorization.js';
import { observeClient } from '../../src/client/observe.js';
import { ClientSpecCodec } from '../../src/client/spec.js';
import { REALM, baseSpec, call, clientObject, config } from './harness.js';

const MARKER = { 'io.kubernetes.managed-by': ['keyward'] };

const target = () => {
  const plan = new PlanBuilder<KeycloakAction>();
  return { plan, target: { plan, call, client: { realm: 'shared', clientId: 'shop-web', id: 'uuid-1' } } };
};

const server = (extra: Partial<ObservedAuthorization> = {}): ObservedAuthorization => ({
  settings: { policyEnforcementMode: 'ENFORCING', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: true },
  scopes: [],
  resources: [],
  ...extra,
});

const deleted = (plan: PlanBuilder<KeycloakAction>): string[] => actionsOf(plan.build(), 'keycloak.delete').map((action) => `${action.resource.type} ${'name' in action.resource ? action.resource.name : ''}`);

describe('authorization settings, scopes and resources', () => {
  it('creates everything on a new resource server, writing settings only where they differ from a new one', () => {
    const { plan, target: t } = target();
    const managed = reconcileAuthorization(t, {
      policyEnforcementMode: 'ENFORCING',
      allowRemoteResourceManagement: false,
      scopes: [{ name: 'read' }],
      resources: [{ name: 'doc', scopes: ['read'], attributes: { team: 'a' } }],
    }, undefined, undefined);
    expect(actionKinds(plan.build())).toEqual(['keycloak.update', 'keycloak.create', 'keycloak.create']);
    expect(actionsOf(plan.build(), 'keycloak.update')[0]).toMatchObject({ changed: ['allowRemoteResourceManagement'], body: { policyEnforcementMode: 'ENFORCING', decisionStrategy: 'UNANIMOUS', allowRemoteResourceManagement: false } });
    expect(actionsOf(plan.build(), 'keycloak.create')[1]?.body).toEqual({ name: 'doc', scopes: [{ name: 'read' }], attributes: { team: ['a'], ...MARKER } });
    expect(managed).toEqual({ authorizationScopes: ['read'], authorizationResources: ['doc'] });
  });

  it('plans nothing for a converged resource server', () => {
    const { plan, target: t } = target();
    reconcileAuthorization(t, { decisionStrategy: 'UNANIMOUS', scopes: [{ name: 'read', displayName: 'Read' }], resources: [{ name: 'doc', uris: ['/b', '/a'], scopes: ['read'] }] }, server({
      scopes: [{ id: 's1', name: 'read', displayName: 'Read' }],
      resources: [{ _id: 'r1', name: 'doc', uris: ['/a', '/b'], scopes: [{ id: 's1', name: 'read' }], attributes: { ...MARKER, other: ['kept'] }, ownerManagedAccess: false }],
    }), { authorizationScopes: ['read'], authorizationResources: ['doc'] });
    expect(plan.build().steps).toEqual([]);
  });

  it('sends attributes given as lists (the Kopf operator\'s shape) or strings as Keycloak\'s lists, and compares their values in any order', () => {
    const resources = [{ name: 'doc', attributes: { tags: ['b', 'a', 'b'], owner: 'team', none: [] } }];
    const created = target();
    reconcileAuthorization(created.target, { resources }, undefined, undefined);
    expect(actionsOf(created.plan.build(), 'keycloak.create')[0]?.body).toEqual({ name: 'doc', scopes: [], attributes: { tags: ['b', 'a', 'b'], owner: ['team'], none: [], ...MARKER } });
    // Keycloak drops a key without values; a read in another order is no change.
    const converged = target();
    reconcileAuthorization(converged.target, { resources }, server({ resources: [{ _id: 'r1', name: 'doc', scopes: [], attributes: { tags: ['a', 'b', 'b'], owner: ['team'], ...MARKER } }] }), undefined);
    expect(converged.plan.build().steps).toEqual([]);
    const changed = target();
    reconcileAuthorization(changed.target, { resources }, server({ resources: [{ _id: 'r1', name: 'doc', scopes: [], attributes: { tags: ['a', 'b'], owner: ['team'], ...MARKER } }] }), undefined);
    expect(actionsOf(changed.plan.build(), 'keycloak.update')[0]?.changed).toEqual(['attributes.tags']);
  });

  it('replaces a differing resource whole, keeping what the spec does not state', () => {
    const { plan, target: t } = target();
    reconcileAuthorization(t, { scopes: [{ name: 'read' }], resources: [{ name: 'doc', scopes: ['read'] }] }, server({
      scopes: [{ id: 's1', name: 'read' }],
      resources: [{ _id: 'r1', name: 'doc', type: 'urn:doc', uris: ['/a'], scopes: [], attributes: { other: ['kept'] }, ownerManagedAccess: true }],
    }), undefined);
    const update = actionsOf(plan.build(), 'keycloak.update')[0];
    expect(update?.resource).toMatchObject({ type: 'authorizationResource', id: 'r1' });
    expect(update?.changed).toEqual(['scopes', `attributes.io.kubernetes.managed-by`]);
    expect(update?.body).toEqual({ displayName: undefined, type: 'urn:doc', uris: ['/a'], scopes: [{ name: 'read' }], attributes: { other: ['kept'], ...MARKER }, ownerManagedAccess: true });
  });

  it('removes unlisted resources that carry the marker and scopes status records, not those made by hand, resources first', () => {
    const { plan, target: t } = target();
    const managed = reconcileAuthorization(t, { scopes: [{ name: 'read' }], resources: [{ name: 'doc', scopes: ['read'] }] }, server({
      scopes: [{ id: 's1', name: 'read' }, { id: 's2', name: 'old' }, { id: 's3', name: 'by-hand' }, { id: 's4', name: 'shared' }],
      resources: [
        { _id: 'r1', name: 'doc', scopes: [{ name: 'read' }], attributes: MARKER },
        { _id: 'r2', name: 'gone', scopes: [{ name: 'old' }], attributes: MARKER },
        { _id: 'r3', name: 'Default Resource', scopes: [{ name: 'shared' }] },
      ],
    }), { authorizationScopes: ['read', 'old', 'shared'], authorizationResources: ['doc', 'gone'] });
    // "shared" is still used by a resource the spec does not manage: Keycloak would refuse, so it stays ours.
    expect(deleted(plan)).toEqual(['authorizationResource gone', 'authorizationScope old']);
    expect(managed).toEqual({ authorizationScopes: ['read', 'shared'], authorizationResources: ['doc'] });
  });

  it('removes nothing for an empty or absent list unless told to prune it', () => {
    const observed = server({ scopes: [{ id: 's1', name: 'old' }], resources: [{ _id: 'r1', name: 'gone', attributes: MARKER }] });
    const recorded = { authorizationScopes: ['old'], authorizationResources: ['gone'] };
    const keep = target();
    expect(reconcileAuthorization(keep.target, { scopes: [], resources: [] }, observed, recorded)).toEqual(recorded);
    expect(keep.plan.build().steps).toEqual([]);
    const absent = target();
    expect(reconcileAuthorization(absent.target, undefined, observed, recorded)).toEqual(recorded);
    expect(absent.plan.build().steps).toEqual([]);
    const pruned = target();
    expect(reconcileAuthorization(pruned.target, undefined, observed, recorded, { scopes: true, resources: true })).toEqual({});
    expect(deleted(pruned.plan)).toEqual(['authorizationResource gone', 'authorizationScope old']);
  });

  it('keeps the record when the resource server was not read', () => {
    const { plan, target: t } = target();
    expect(reconcileAuthorization(t, undefined, undefined, { authorizationScopes: ['a'] })).toEqual({ authorizationScopes: ['a'] });
    expect(plan.build().steps).toEqual([]);
  });
});

describe('the authorizationSettings codec', () => {
  const spec = (authorizationSettings: unknown, extra: Record<string, unknown> = { settings: { serviceAccountsEnabled: true } }) => decode(ClientSpecCodec, { ...baseSpec, ...extra, authorizationSettings });

  it('accepts a confidential client with a service account', () => {
    expect(spec({ scopes: [{ name: 'read' }], resources: [{ name: 'doc', scopes: ['read'] }] })._tag).toBe('Right');
  });

  it('accepts a resource\'s attributes as strings or lists of strings, as the Kopf operator\'s CRD types them', () => {
    expect(spec({ resources: [{ name: 'doc', attributes: { tags: ['a', 'b'], owner: 'team', none: [] } }] })).toMatchObject({ right: { authorizationSettings: { resources: [{ attributes: { tags: ['a', 'b'], owner: 'team', none: [] } }] } } });
  });

  it.each([
    ['a client without a service account', {}, {}, 'authorizationSettings'],
    ['a public client', {}, { publicClient: true, settings: { serviceAccountsEnabled: true } }, 'authorizationSettings'],
    ['a resource naming an unlisted scope', { resources: [{ name: 'doc', scopes: ['nope'] }] }, undefined, 'authorizationSettings.resources: resources[0]'],
    ['an unknown enforcement mode', { policyEnforcementMode: 'LAX' }, undefined, 'authorizationSettings.policyEnforcementMode'],
    ['a scope listed twice', { scopes: [{ name: 'a' }, { name: 'a' }] }, undefined, 'authorizationSettings.scopes'],
    ['a resource stating the marker', { resources: [{ name: 'doc', attributes: { 'io.kubernetes.managed-by': 'x' } }] }, undefined, 'authorizationSettings.resources[0].attributes'],
    ['a resource stating the marker as a list', { resources: [{ name: 'doc', attributes: { 'io.kubernetes.managed-by': ['x'] } }] }, undefined, 'authorizationSettings.resources[0].attributes'],
    ['a resource attribute that is no string or list of strings', { resources: [{ name: 'doc', attributes: { tags: [1] } }] }, undefined, 'authorizationSettings.resources[0].attributes.tags'],
  ] as const)('rejects %s, naming the field', (_what, settings, extra, field) => {
    const decoded = spec(settings, extra);
    expect(decoded._tag).toBe('Left');
    expect(JSON.stringify(decoded)).toContain(field);
  });
});

describe('what a reconcile reads of authorization services', () => {
  const reads = (spec: Record<string, unknown>, status: Record<string, unknown> = { realm: REALM }) => observeClient(clientObject(spec, status), config).client?.authorization;

  it('reads them only while the spec states them or prunes what it made there', () => {
    expect(reads(baseSpec)).toBe(false);
    expect(reads({ ...baseSpec, settings: { serviceAccountsEnabled: true }, authorizationSettings: {} })).toBe(true);
    expect(reads(baseSpec, { realm: REALM, managed: { authorizationScopes: ['read'] } })).toBe(false);
    expect(reads({ ...baseSpec, pruneUnlisted: ['authorizationSettings.scopes'] }, { realm: REALM, managed: { authorizationScopes: ['read'] } })).toBe(true);
    expect(reads({ ...baseSpec, pruneUnlisted: ['authorizationSettings.resources'] }, { realm: REALM })).toBe(true);
  });
});
