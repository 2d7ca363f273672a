// What of a realm's spec names a client, and what waits while Keycloak has no such client: the rest is applied,
// status records the realm's id (which the realm's KeycloakClients wait for), the Ready condition names what
// waits, and the realm looks again (and watches its clients' objects) until the client exists.
import { describe, expect, it } from '@jest/globals';
import type { Plan } from '@keyward/kernel';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import { keycloakClientType } from '../../src/index.js';
import { observe } from '../../src/realm/observe.js';
import { clientsWhileWaiting, namedClients } from '../../src/realm/client-waits.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { baseSpec, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

const spec = {
  ...baseSpec,
  clientAuthorizationGrants: ['team-a'],
  realmRoles: [{ name: 'viewer' }, { name: 'buyer-plus', composites: { realm: ['viewer'], clients: { shop: ['buyer'] } } }],
  groups: [{ name: 'staff', realmRoles: ['viewer'], subGroups: [{ name: 'leads', clientRoles: { shop: ['buyer'], web: ['admin'] } }] }],
  defaultRoles: { realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } },
  scopeMappings: [{ client: 'web', realmRoles: ['viewer'] }, { clientScope: 'api', realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } }],
};

function describeStep(action: KeycloakAction): string {
  if (action.kind !== 'keycloak.grantRoles') return `${action.kind} ${action.kind === 'keycloak.create' || action.kind === 'keycloak.update' ? action.resource.type : ''}`;
  const holder = action.holder.type === 'scopeMappings' ? JSON.stringify(action.holder.target) : action.holder.type === 'group' ? action.holder.path : action.holder.type === 'role' ? `role ${action.holder.name}` : action.holder.type;
  const clients = Object.entries(action.roles.clients).map(([client, names]) => `${client}=${names.join(',')}`);
  return `grant ${holder} realm:${action.roles.realm.join(',')} clients:${clients.join(';')}`;
}
const grants = (p: Plan<KeycloakRealmAction>): string[] =>
  p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind === 'keycloak.grantRoles').map(describeStep);
const statusOf = (p: Plan<KeycloakRealmAction>): Record<string, unknown> => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  return step?.action.kind === 'k8s.status' ? (step.action.status) : {};
};
const ready = (p: Plan<KeycloakRealmAction>) => (statusOf(p)['conditions'] as { type: string; status: string; reason: string; message: string }[]).find((c) => c.type === 'Ready');
const requeues = (p: Plan<KeycloakRealmAction>) => p.steps.filter((s) => s.action.kind === 'control.requeueAfter').length;

/** The realm read back with the groups and scope mappings the spec names, and those of `clients` it has. */
const observedWith = (clients: string[]) => observedRealm({
  clients,
  groups: [{ id: 'g1', name: 'staff', path: '/staff', attributes: { 'io.kubernetes.managed-by': ['keyward'] }, roles: { realm: [], clients: {} }, subGroups: [{ id: 'g2', name: 'leads', path: '/staff/leads', attributes: { 'io.kubernetes.managed-by': ['keyward'] }, roles: { realm: [], clients: {} } }] }],
  scopeMappings: [{ target: { client: 'web' }, roles: clients.includes('web') ? { realm: [], clients: {} } : undefined }, { target: { clientScope: 'api' }, roles: { realm: [], clients: {} } }],
});

describe('a realm whose spec names clients', () => {
  it('reads which of the clients its spec names Keycloak has, and none when it names none', () => {
    expect(namedClients(decoded(realmObject(spec)).spec)).toEqual(['shop', 'web']);
    expect(observe(decoded(realmObject(spec)), config).realm?.clients).toEqual(['shop', 'web']);
    expect(observe(decoded(realmObject(baseSpec)), config).realm?.clients).toBeUndefined();
  });

  it('applies what names no missing client, records its id, and says what waits for which client', () => {
    const p = plan(realmObject(spec), { realm: observedWith(['shop']) });
    expect(grants(p).join('\n')).not.toContain('web');
    expect(grants(p)).toContain('grant {"clientScope":"api"} realm:viewer clients:shop=buyer');
    expect(grants(p)).toContain('grant /staff/leads realm: clients:shop=buyer');
    expect(statusOf(p)['realmId']).toBe('4a0e-uuid');
    expect(ready(p)).toMatchObject({ status: 'False', reason: 'WaitingForClient', message: 'realm shop: waiting for client web (scopeMappings client web, groups /staff/leads clientRoles) to exist in Keycloak; the rest of the spec is applied' });
    expect(requeues(p)).toBe(1);
  });

  it('in a realm it creates, waits for every client but Keycloak\'s own, until the reconcile that reads the realm back', () => {
    const p = plan(realmObject(spec));
    expect(p.steps.some((s) => s.action.kind === 'keycloak.create' && s.action.resource.type === 'realm')).toBe(true);
    expect(grants(p).join('\n')).not.toMatch(/shop=|web/);
    expect(ready(p)?.reason).toBe('WaitingForClient');
    expect(requeues(p)).toBe(0);
    const builtIn = { ...baseSpec, groups: [{ name: 'staff', clientRoles: { broker: ['read-token'] } }] };
    const created = plan(realmObject(builtIn));
    expect(grants(created)).toEqual(['grant /staff realm: clients:broker=read-token']);
    expect(ready(created)?.reason).not.toBe('WaitingForClient');
  });

  it('grants everything, and waits for nothing, once every named client exists', () => {
    const p = plan(realmObject(spec), { realm: observedWith(['shop', 'web']) });
    expect(grants(p)).toContain('grant {"client":"web"} realm:viewer clients:');
    expect(grants(p)).toContain('grant /staff/leads realm: clients:shop=buyer;web=admin');
    expect(ready(p)?.reason).not.toBe('WaitingForClient');
    expect(requeues(p)).toBe(0);
  });

  it('watches the KeycloakClients of its namespace and granted ones only while it waits, woken when one gets its client', () => {
    const waiting = decoded(realmObject(spec, { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'WaitingForClient', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }));
    expect(clientsWhileWaiting.type).toEqual(keycloakClientType);
    expect(clientsWhileWaiting.of(waiting)).toEqual([{ namespace: waiting.metadata.namespace }, { namespace: 'team-a' }]);
    expect(clientsWhileWaiting.of(decoded(realmObject(spec)))).toEqual([]);
    const client = (status: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'KeycloakClient', metadata: { name: 'web', namespace: 'team-a' }, status });
    expect(clientsWhileWaiting.wakesOn(client({}), client({ clientUuid: 'c1' }))).toBe(true);
    expect(clientsWhileWaiting.wakesOn(client({ clientUuid: 'c1' }), client({ clientUuid: 'c1', message: 'other' }))).toBe(false);
  });
});
