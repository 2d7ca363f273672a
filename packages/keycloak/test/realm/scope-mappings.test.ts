// Realm scope mappings: which targets are read, the roles mapped and unmapped (only those the spec listed
// before), the codec's verdicts, and convergence against the in-memory Keycloak.
import { describe, expect, it } from '@jest/globals';
import type { Plan } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { InMemoryWorld } from '@keyward/kernel';
import { convergeRealm } from '../simulated-world.js';
import type { KeycloakAction } from '../../src/apis/keycloak/actions.js';
import type { ObservedScopeMapping } from '../../src/apis/keycloak/scope-mappings.js';
import { keycloakRealmType } from '../../src/index.js';
import { observe } from '../../src/realm/observe.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { simulateKeycloak, type SimulatedKeycloak } from '../../src/testing.js';
import { baseSpec, config, decoded, observedRealm, plan, realmObject } from './fixtures.js';

function describeStep(action: KeycloakAction): string {
  if (action.kind !== 'keycloak.grantRoles' && action.kind !== 'keycloak.revokeRoles') return action.kind;
  const holder = action.holder.type === 'scopeMappings' ? JSON.stringify(action.holder.target) : action.holder.type;
  const clients = Object.entries(action.roles.clients).map(([client, names]) => `${client}=${names.join(',')}`);
  return `${action.kind} ${holder} realm:${action.roles.realm.join(',')} clients:${clients.join(';')}`;
}
const keycloakSteps = (p: Plan<KeycloakRealmAction>): string[] =>
  p.steps.map((s) => s.action).filter((a): a is KeycloakAction => a.kind.startsWith('keycloak.')).map(describeStep);
const managedOf = (p: Plan<KeycloakRealmAction>): unknown => {
  const step = p.steps.find((s) => s.action.kind === 'k8s.status');
  return step?.action.kind === 'k8s.status' ? (step.action.status as Record<string, unknown>)['managed'] : undefined;
};

const mapped = (scopeMappings: ObservedScopeMapping[]) => observedRealm({ scopeMappings });

describe('scope mappings', () => {
  it('read the targets the spec states and those status says it mapped roles to, none otherwise', () => {
    expect(observe(decoded(realmObject(baseSpec)), config).realm?.scopeMappings).toBeUndefined();
    const spec = { ...baseSpec, scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer'] }] };
    const status = { managed: { scopeMappings: [{ client: 'shop', realmRoles: ['viewer'] }, { clientScope: 'api', realmRoles: [] }] } };
    expect(observe(decoded(realmObject(spec, { status })), config).realm?.scopeMappings).toEqual([{ client: 'shop' }, { clientScope: 'api' }]);
  });

  it('map what the spec lists, and record it', () => {
    const spec = { ...baseSpec, scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer'], clientRoles: { shop: ['buyer'] } }, { client: 'web', realmRoles: ['viewer'] }] };
    const p = plan(realmObject(spec), { realm: mapped([{ target: { clientScope: 'api' }, roles: { realm: ['by-hand'], clients: {} } }, { target: { client: 'web' }, roles: undefined }]) });
    expect(keycloakSteps(p)).toEqual([
      'keycloak.grantRoles {"clientScope":"api"} realm:viewer clients:shop=buyer',
      // A client another object makes later: the grant fails and is retried until it exists.
      'keycloak.grantRoles {"client":"web"} realm:viewer clients:',
    ]);
    expect(managedOf(p)).toEqual({ scopeMappings: spec.scopeMappings });
  });

  it('unmap only what they listed before, all of it when the entry is gone, and nothing once converged', () => {
    const status = { managed: { scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer', 'auditor'] }, { client: 'web', clientRoles: { shop: ['buyer'] } }] } };
    const spec = { ...baseSpec, scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer'] }] };
    const observed = mapped([
      { target: { clientScope: 'api' }, roles: { realm: ['viewer', 'auditor', 'by-hand'], clients: {} } },
      { target: { client: 'web' }, roles: { realm: ['viewer'], clients: { shop: ['buyer', 'seller'] } } },
    ]);
    const p = plan(realmObject(spec, { status }), { realm: observed });
    expect(keycloakSteps(p)).toEqual([
      'keycloak.revokeRoles {"clientScope":"api"} realm:auditor clients:',
      'keycloak.revokeRoles {"client":"web"} realm: clients:shop=buyer',
    ]);
    expect(managedOf(p)).toEqual({ scopeMappings: spec.scopeMappings });
    const converged = mapped([{ target: { clientScope: 'api' }, roles: { realm: ['viewer', 'by-hand'], clients: {} } }]);
    expect(keycloakSteps(plan(realmObject(spec, { status: { managed: { scopeMappings: spec.scopeMappings } } }), { realm: converged }))).toEqual([]);
  });

  it.each([
    ['both targets', [{ clientScope: 'api', client: 'web' }], 'spec.scopeMappings[0]: give either clientScope or client'],
    ['no target', [{ realmRoles: ['viewer'] }], 'spec.scopeMappings[0]: give either clientScope or client'],
    ['a built-in client scope', [{ clientScope: 'offline_access' }], 'spec.scopeMappings[0].clientScope: is a client scope Keycloak makes in every realm'],
    ['a client listed twice', [{ client: 'web' }, { client: 'web' }], 'spec.scopeMappings[1]: duplicate of spec.scopeMappings[0] ("client web")'],
  ])('refuse %s, naming the field', (_what, scopeMappings, message) => {
    expect(() => decoded(realmObject({ ...baseSpec, scopeMappings }))).toThrow(message);
  });

  it('converge against the in-memory Keycloak, then make no writes', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    const ref = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
    const clock = new FakeClock(new Date('2026-03-01T12:00:00Z'));
    w.put(keycloakRealmType, {
      metadata: { name: 'shared', namespace: 'platform' },
      spec: { realmName: 'shared', realmRoles: [{ name: 'viewer' }], clientScopes: [{ name: 'api' }], scopeMappings: [{ clientScope: 'api', realmRoles: ['viewer'] }] },
    });
    const keycloak: SimulatedKeycloak = w.apis.keycloak;
    await convergeRealm(w, ref, clock, config);
    const writes = keycloak.writes;
    expect((await convergeRealm(w, ref, clock, config)).map((quiet) => quiet.steps.length)).toEqual([0]);
    expect(keycloak.writes).toBe(writes);
  });
});
