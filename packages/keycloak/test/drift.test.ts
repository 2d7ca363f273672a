// Drift: a realm or client Ready at its generation whose reconcile still writes to Keycloak was changed there
// out of band; the plan sets it back and records a DriftRepaired Warning event naming fields, never values.
import { describe, expect, it } from '@jest/globals';
import { DRIFT_REPAIRED, type EventAction } from '@keyward/kernel/plan';
import { type Plan } from '@keyward/kernel';
import { MASKED_SECRET } from '../src/realm/diff.js';
import { realmStatus } from '../src/realm/status.js';
import { baseSpec as realmSpec, NOW as REALM_NOW, URL as REALM_URL, decoded, observedRealm, plan as realmPlan, realmObject, secret } from './realm/fixtures.js';
import { NOW as CLIENT_NOW, NS, REALM, baseSpec as clientSpec, clientObject, keycloakClient, planFor } from './client/harness.js';

const NOW_SECONDS = CLIENT_NOW.getTime() / 1000;

const driftEvents = (p: Plan<{ readonly kind: string }>): EventAction[] => p.steps.map((s) => s.action).filter((a): a is EventAction => a.kind === 'k8s.event' && (a as EventAction).reason === DRIFT_REPAIRED);

/** A realm object Ready at its generation (3), as its controller leaves it. */
function convergedRealmObject(spec: Record<string, unknown>, smtpPasswordVersion?: string) {
  const generation = decoded(realmObject(spec)).metadata.generation;
  const status = realmStatus({}, { state: 'ready', reason: 'Ready', message: 'realm shop matches the spec' }, generation, REALM_NOW, {
    realmId: '4a0e-uuid',
    endpoints: { issuer: `${REALM_URL}/realms/shop`, token: `${REALM_URL}/realms/shop/protocol/openid-connect/token`, userinfo: `${REALM_URL}/realms/shop/protocol/openid-connect/userinfo`, jwks: `${REALM_URL}/realms/shop/protocol/openid-connect/certs` },
    smtpPasswordVersion: smtpPasswordVersion ?? null,
  });
  return realmObject(spec, { status });
}

describe('drift of a realm', () => {
  it('a converged realm whose fields were changed in Keycloak is set back, with a Warning naming the fields after the write', () => {
    const p = realmPlan(convergedRealmObject({ ...realmSpec, attributes: { team: 'shop' } }), {
      realm: observedRealm({ realmFields: { displayName: 'Hijacked', attributes: { ...observedRealm().realm.attributes, team: 'other' } } }),
    });
    const kinds = p.steps.map((s) => s.action.kind);
    expect(kinds.indexOf('keycloak.update')).toBeLessThan(kinds.lastIndexOf('k8s.event'));
    const [event] = driftEvents(p);
    expect(driftEvents(p)).toHaveLength(1);
    expect(event).toMatchObject({ type: 'Warning', reason: 'DriftRepaired', action: 'Repair', regarding: { namespace: 'shop', name: 'shop-realm', uid: 'uid-1' } });
    expect(event?.note).toBe('realm shop was changed in Keycloak out of band; set back realm shop (displayName, attributes.team)');
    // Names only: neither Keycloak's values nor the spec's.
    expect(JSON.stringify(event)).not.toMatch(/Hijacked|other|"Shop"/);
  });

  it('a role or scope removed in Keycloak is recreated and reported', () => {
    const spec = { ...realmSpec, realmRoles: [{ name: 'viewer' }] };
    const p = realmPlan(convergedRealmObject(spec), { realm: observedRealm() });
    expect(driftEvents(p).map((e) => e.note)).toEqual(['realm shop was changed in Keycloak out of band; recreated realm role viewer in realm shop']);
  });

  it('a converged realm that Keycloak still matches plans nothing at all', () => {
    expect(realmPlan(convergedRealmObject(realmSpec), { realm: observedRealm() }).steps).toEqual([]);
  });

  it('a new SMTP password from its Secret is no drift', () => {
    const spec = { ...realmSpec, smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', passwordSecret: { name: 'smtp', key: 'password' } } };
    const p = realmPlan(convergedRealmObject(spec, '7'), {
      realm: observedRealm({ realmFields: { smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', password: MASKED_SECRET } } }),
      smtpPasswordSecret: secret('8'),
    });
    expect(p.steps.some((s) => s.action.kind === 'keycloak.update')).toBe(true);
    expect(driftEvents(p)).toEqual([]);
  });

  it('writes for a changed spec are no drift: the status records an older generation', () => {
    const object = convergedRealmObject(realmSpec);
    const changed = { ...object, metadata: { ...object.metadata, generation: 4 } };
    const p = realmPlan(changed, { realm: observedRealm({ realmFields: { displayName: 'Old' } }) });
    expect(p.steps.some((s) => s.action.kind === 'keycloak.update')).toBe(true);
    expect(driftEvents(p)).toEqual([]);
  });

  it('writes while the realm is not Ready yet are no drift', () => {
    const p = realmPlan(realmObject(realmSpec), { realm: observedRealm({ realmFields: { displayName: 'Old' } }) });
    expect(driftEvents(p)).toEqual([]);
  });
});

/** A client status Ready at generation 3, as its controller leaves it. */
const readyClientStatus = {
  realm: REALM,
  clientUuid: 'uuid-1',
  observedGeneration: 3,
  conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'as specified', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 3 }],
};

describe('drift of a client', () => {
  it('a redirect URI removed in Keycloak is set back and reported by field name', () => {
    const spec = { ...clientSpec, redirectUris: ['https://shop.example/cb', 'https://shop.example/other'] };
    const p = planFor(clientObject(spec, readyClientStatus), { client: keycloakClient({ fields: { redirectUris: ['https://shop.example/cb'] } }) });
    const events = driftEvents(p);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'Warning', regarding: { namespace: NS, name: 'shop', uid: 'uid-shop' } });
    expect(events[0]?.note).toBe(`client shop-web in realm ${REALM} was changed in Keycloak out of band; set back client shop-web in realm ${REALM} (redirectUris)`);
    expect(events[0]?.note).not.toContain('https://');
  });

  it('a client deleted in Keycloak is recreated and reported', () => {
    const p = planFor(clientObject(clientSpec, readyClientStatus), { client: undefined });
    expect(driftEvents(p).map((e) => e.note)).toEqual([`client shop-web in realm ${REALM} was changed in Keycloak out of band; recreated client shop-web in realm ${REALM}`]);
  });

  it('a secret regeneration the spec asks for is no drift', () => {
    const p = planFor(clientObject({ ...clientSpec, regenerateSecret: 'now' }, { ...readyClientStatus, secretRegeneratedFor: 'before' }), { client: keycloakClient() });
    expect(p.steps.some((s) => s.action.kind === 'keycloak.regenerateClientSecret')).toBe(true);
    expect(driftEvents(p)).toEqual([]);
  });

  it('a rotated secret invalidated when its grace period ends is no drift', () => {
    const rotated = keycloakClient({ attributes: { 'client.secret.rotated.creation.time': String(NOW_SECONDS - 7_200) } });
    const p = planFor(clientObject(clientSpec, readyClientStatus), { client: rotated });
    expect(p.steps.some((s) => s.action.kind === 'keycloak.delete')).toBe(true);
    expect(driftEvents(p)).toEqual([]);
  });

  it('a converged client that Keycloak still matches records no event', () => {
    expect(driftEvents(planFor(clientObject(clientSpec, readyClientStatus), { client: keycloakClient() }))).toEqual([]);
  });
});
