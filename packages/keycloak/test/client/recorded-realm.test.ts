// The realm a new KeycloakClient records with its finalizer (one patch, before any client exists in Keycloak)
// stands in for the status's record until a status write makes one: the client is read, made and deleted there.
import { describe, expect, it } from '@jest/globals';
import { actionKinds, actionsOf } from '@keyward/kernel/testing';
import { observeClient } from '../../src/client/observe.js';
import { REALM_ANNOTATION } from '../../src/client/recorded-realm.js';
import { REALM, baseSpec, call, clientObject, config, keycloakClient, planFor, realmObject } from './harness.js';

const recorded = (realm: string) => ({ annotations: { [REALM_ANNOTATION]: realm } });
const deleting = { deletionTimestamp: '2026-03-01T00:00:00Z' };

describe('the realm a new client records with its finalizer', () => {
  it('is the realm its realm object names, in the same write as the finalizer, once the client may be made there', () => {
    const plan = planFor(clientObject(baseSpec, {}, { finalizers: [] }));
    expect(actionKinds(plan)).toEqual(['k8s.addFinalizer']);
    expect(actionsOf(plan, 'k8s.addFinalizer')[0]?.annotations).toEqual({ [REALM_ANNOTATION]: REALM });
  });

  it('is not written while the client waits (no realm object, no grant, no realm in Keycloak yet), nor over one recorded', () => {
    const finalizerOf = (world: Parameters<typeof planFor>[1], metadata: Record<string, unknown> = {}) =>
      actionsOf(planFor(clientObject(baseSpec, {}, { finalizers: [], ...metadata }), world), 'k8s.addFinalizer')[0];
    for (const world of [{ realm: undefined }, { realm: realmObject({ grants: ['team-b'] }) }, { realm: realmObject({ ready: false }) }]) {
      expect(finalizerOf(world)?.annotations).toBeUndefined();
    }
    expect(finalizerOf({ realm: realmObject({ realmName: 'renamed' }) }, recorded(REALM))?.annotations).toBeUndefined();
  });

  it('has the client read, and made, there without a status write first', () => {
    const client = clientObject(baseSpec, {}, recorded(REALM));
    expect(observeClient(client, config).client).toMatchObject({ kind: 'keycloak.client', realm: REALM, clientId: 'shop-web' });
    const plan = planFor(client, { client: undefined });
    expect(actionKinds(plan)).toEqual(['keycloak.create', 'k8s.apply', 'k8s.status']);
    expect(actionsOf(plan, 'keycloak.create')[0]?.resource).toMatchObject({ type: 'client', realm: REALM });
    expect(actionsOf(plan, 'k8s.status')[0]?.status).toMatchObject({ realm: REALM });
  });

  it('finds the client made before a crash kept the status from being written', () => {
    const plan = planFor(clientObject(baseSpec, {}, recorded(REALM)), { client: keycloakClient() });
    expect(actionsOf(plan, 'keycloak.create')).toEqual([]);
    expect(actionKinds(plan)).toEqual(['k8s.apply', 'k8s.status']);
  });

  it('gives way to the status once it records a realm: a realm renamed is recorded in status and read there', () => {
    const moved = planFor(clientObject(baseSpec, {}, recorded(REALM)), { realm: realmObject({ realmName: 'renamed' }), client: keycloakClient() });
    expect(actionKinds(moved)).toEqual(['k8s.status', 'control.requeueAfter']);
    expect(actionsOf(moved, 'k8s.status')[0]?.status).toMatchObject({ realm: 'renamed' });
    const status = actionsOf(moved, 'k8s.status')[0]?.status as Record<string, unknown>;
    expect(observeClient(clientObject(baseSpec, status, recorded(REALM)), config).client).toMatchObject({ realm: 'renamed' });
  });

  it('is where a client deleted before any status write is deleted, even with its realm object gone', () => {
    const plan = planFor(clientObject(baseSpec, {}, { ...recorded(REALM), ...deleting }), { realm: undefined, client: keycloakClient() });
    expect(actionKinds(plan)).toEqual(['keycloak.delete', 'k8s.removeFinalizer']);
    expect(actionsOf(plan, 'keycloak.delete')[0]).toMatchObject({ ...call, resource: { type: 'client', realm: REALM, clientId: 'shop-web', id: 'uuid-1' } });
    expect(observeClient(clientObject(baseSpec, {}, { ...recorded(REALM), ...deleting }), config).client).toMatchObject({ realm: REALM });
  });
});
