// Required actions of a KeycloakRealm against the in-memory Keycloak: listed ones set to the spec (sent whole,
// as Keycloak's PUT replaces them), unregistered ones registered and recorded; under the prune rule only those
// this object registered are unregistered again.
import { describe, expect, it } from '@jest/globals';
import type { ObjectRef } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld } from '@keyward/kernel';
import { keycloakRealmType } from '../../src/index.js';
import { simulateKeycloak } from '../../src/testing.js';
import { readsRequiredActions } from '../../src/realm/required-actions/plan.js';
import { convergeRealm, simulatedConfig, type KeycloakWorld } from '../simulated-world.js';

const config = simulatedConfig;
const ref: ObjectRef = { type: keycloakRealmType, namespace: 'platform', name: 'shop' };

function world(spec: Record<string, unknown>): KeycloakWorld {
  const w = new InMemoryWorld({ keycloak: simulateKeycloak });
  w.put(keycloakRealmType, { metadata: { name: 'shop', namespace: 'platform' }, spec: { realmName: 'shop', ...spec } });
  return w;
}

function setSpec(w: KeycloakWorld, spec: Record<string, unknown>): void {
  w.update(ref, (object) => ({ ...object, spec: { ...(object['spec'] as object), ...spec } }));
}

/** Reconciles until a reconcile plans nothing; the Keycloak writes planned on the way. */
async function converge(w: KeycloakWorld, clock: FakeClock): Promise<string[]> {
  const plans = await convergeRealm(w, ref, clock, config, 6);
  return plans.flatMap(({ steps }) => steps.flatMap(({ action }) => ('resource' in action && action.resource.type === 'requiredAction' ? [`${action.kind} ${action.resource.alias}`] : [])));
}

const actions = (w: KeycloakWorld) => new Map(w.apis.keycloak.flows.requiredActions('shop').map((action) => [action.alias, action]));
const registered = (w: KeycloakWorld): unknown => (w.get(ref)?.['status'] as { registeredRequiredActions?: unknown } | undefined)?.registeredRequiredActions;

describe('required actions of a realm', () => {
  it('are set to the spec, sent whole so the fields it does not state stay, then left alone', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world({ requiredActions: [{ alias: 'CONFIGURE_TOTP', defaultAction: true, priority: 5, config: { max_auth_age: '300' } }, { alias: 'VERIFY_EMAIL' }] });
    expect(await converge(w, clock)).toEqual(['keycloak.update CONFIGURE_TOTP']);
    expect(actions(w).get('CONFIGURE_TOTP')).toEqual({ alias: 'CONFIGURE_TOTP', name: 'CONFIGURE_TOTP', providerId: 'CONFIGURE_TOTP', enabled: true, defaultAction: true, priority: 5, config: { max_auth_age: '300' } });
    expect(registered(w)).toBeUndefined();
    const writes = w.apis.keycloak.writes;
    expect(await converge(w, clock)).toEqual([]);
    expect(w.apis.keycloak.writes).toBe(writes);
  });

  it('registers an unregistered one, sets its fields once read, and unregisters it again when an empty list is told to prune', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world({ requiredActions: [{ alias: 'delete_account', name: 'Delete my account', enabled: false }, { alias: 'TERMS_AND_CONDITIONS', enabled: false }] });
    expect(await converge(w, clock)).toEqual(['keycloak.create delete_account', 'keycloak.update TERMS_AND_CONDITIONS', 'keycloak.update delete_account']);
    expect(actions(w).get('delete_account')).toMatchObject({ name: 'Delete my account', enabled: false });
    expect(registered(w)).toEqual(['delete_account']);

    setSpec(w, { requiredActions: [] });
    expect(await converge(w, clock)).toEqual([]);
    expect(actions(w).has('delete_account')).toBe(true);

    setSpec(w, { pruneUnlisted: ['requiredActions'] });
    expect(await converge(w, clock)).toEqual(['keycloak.delete delete_account']);
    expect(actions(w).has('delete_account')).toBe(false);
    // Listed before but registered by Keycloak, not by this object: never unregistered.
    expect(actions(w).has('TERMS_AND_CONDITIONS')).toBe(true);
    expect(registered(w)).toBeUndefined();
  });

  it('unregisters those it registered once a list that names others no longer lists them', async () => {
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    const w = world({ requiredActions: [{ alias: 'delete_account' }, { alias: 'VERIFY_EMAIL' }] });
    await converge(w, clock);
    expect(registered(w)).toEqual(['delete_account']);
    setSpec(w, { requiredActions: [{ alias: 'VERIFY_EMAIL' }] });
    expect(await converge(w, clock)).toEqual(['keycloak.delete delete_account']);
    expect(actions(w).has('VERIFY_EMAIL')).toBe(true);
  });

  it('are read only when the spec lists some, or prunes some this object registered', () => {
    expect(readsRequiredActions(undefined, false, undefined)).toBe(false);
    expect(readsRequiredActions([], true, [])).toBe(false);
    expect(readsRequiredActions([{ alias: 'x' }], false, undefined)).toBe(true);
    expect(readsRequiredActions(undefined, false, ['x'])).toBe(false);
    expect(readsRequiredActions(undefined, true, ['x'])).toBe(true);
  });
});
