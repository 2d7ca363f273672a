// What a new KeycloakClient and a new KeycloakRealm cost in writes to the API server, counted as the controllers'
// plans run against the in-memory Keycloak (the same plans they send to the real one); the real API server's
// audit log is read for the same in controllers/writes.int.test.ts.
import { describe, expect, it } from '@jest/globals';
import { converge, coreTypes, type ObjectRef, type Plan, InMemoryWorld } from '@keyward/kernel';
import { FakeClock, type ReconcileTarget, type WorldAction } from '@keyward/kernel/testing';
import { REALM_SECRET_LABEL, keycloakClientController, keycloakClientType, keycloakRealmController, keycloakRealmType } from '../src/index.js';
import { REALM_ANNOTATION } from '../src/client/recorded-realm.js';
import { simulateKeycloak } from '../src/testing.js';
import { simulatedConfig, type KeycloakWorld } from './simulated-world.js';

type Action = WorldAction<{ keycloak: ReturnType<typeof simulateKeycloak> }>;

const realmRef: ObjectRef = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
const clientRef = (name: string): ObjectRef => ({ type: keycloakClientType, namespace: 'team-a', name });

/** One write to the API server, as "kind what": the annotations a finalizer records, a status's Ready reason. */
function describeWrite(action: Action): string {
  if (action.kind === 'k8s.addFinalizer') return `finalizer${action.annotations === undefined ? '' : ` ${JSON.stringify(action.annotations)}`}`;
  if (action.kind === 'k8s.status') {
    const conditions = (action.status['conditions'] ?? []) as readonly { type: string; status: string; reason: string }[];
    const ready = conditions.find((condition) => condition.type === 'Ready');
    return `status Ready=${ready?.status ?? ''} ${ready?.reason ?? ''}`;
  }
  if (action.kind === 'k8s.apply') return `apply ${action.ref.type.kind}`;
  return action.kind;
}

/** The world as a target whose every Kubernetes write that changed something is noted, in order. */
function counted(w: KeycloakWorld): { readonly target: ReconcileTarget<Action>; readonly writes: string[] } {
  const writes: string[] = [];
  const run = async (plan: Plan<Action>) => {
    const result = await w.run(plan);
    result.steps.forEach((step, index) => {
      const action = plan.steps[index]?.action;
      if (action !== undefined && step.outcome === 'applied' && action.kind.startsWith('k8s.')) writes.push(describeWrite(action));
    });
    return result;
  };
  return { target: { get: (ref) => w.get(ref), read: (queries) => w.read(queries), run }, writes };
}

function world(): KeycloakWorld {
  const w = new InMemoryWorld({ keycloak: simulateKeycloak });
  w.put(keycloakRealmType, {
    metadata: { name: 'shared', namespace: 'platform' },
    spec: {
      realmName: 'shared',
      displayName: 'Shared realm',
      clientAuthorizationGrants: ['team-a'],
      realmRoles: [{ name: 'viewer', description: 'reads' }, { name: 'admin', composites: { realm: ['viewer'] } }],
      clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop' } }] }],
      defaultClientScopes: ['shop-api'],
    },
  });
  return w;
}

const settings = (clock: FakeClock) => ({ config: simulatedConfig, now: () => clock.now(), maxRounds: 8, between: () => { clock.advance(3_000); } });

/** A realm's spec, from the bare name to roles, scopes and an SMTP password. */
const realmSpecs: Record<string, Record<string, unknown>> = {
  bare: { realmName: 'bare' },
  roles: { realmName: 'roles', displayName: 'Roles', realmRoles: [{ name: 'viewer' }, { name: 'admin', composites: { realm: ['viewer'] } }], security: { bruteForceProtected: true, failureFactor: 5 } },
  scoped: {
    realmName: 'scoped',
    clientScopes: [{ name: 'shop-api', protocolMappers: [{ name: 'audience', protocolMapper: 'oidc-audience-mapper', config: { 'included.client.audience': 'shop' } }] }],
    defaultClientScopes: ['shop-api'],
    smtpServer: { host: 'smtp.example.com', from: 'noreply@example.com', port: 587, auth: true, user: 'mailer', passwordSecret: { name: 'smtp', key: 'password' } },
  },
};

describe('writes to the API server per new object', () => {
  it('a new KeycloakRealm: its finalizer, then one status write that says Ready once its changes were read back', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    w.put(coreTypes.secret, { metadata: { name: 'smtp', namespace: 'platform', labels: { [REALM_SECRET_LABEL]: 'true' } }, data: { password: Buffer.from('mail-pass').toString('base64') } });
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    for (const [name, spec] of Object.entries(realmSpecs)) {
      w.put(keycloakRealmType, { metadata: { name, namespace: 'platform' }, spec });
      const ref = { ...realmRef, name };
      const { target, writes } = counted(w);
      await converge(keycloakRealmController, target, ref, settings(clock));
      expect(writes).toEqual(['finalizer', 'status Ready=True Ready']);
      expect(w.apis.keycloak.realmSmtpPassword(name)).toBe(name === 'scoped' ? 'mail-pass' : undefined);
    }
  });

  it('an edited KeycloakRealm: one status write, once the edit was read back', async () => {
    const w = world();
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    await converge(keycloakRealmController, w, realmRef, settings(clock));
    w.update(realmRef, (object) => ({ ...object, spec: { ...(object['spec'] as object), displayName: 'Renamed', realmRoles: [{ name: 'viewer', description: 'reads' }, { name: 'editor' }] } }));
    const { target, writes } = counted(w);
    await converge(keycloakRealmController, target, realmRef, settings(clock));
    expect(writes).toEqual(['status Ready=True Ready']);
    let displayName: unknown;
    w.apis.keycloak.editRealm('shared', (rep) => { displayName = rep['displayName']; });
    expect(displayName).toBe('Renamed');
  });

  it('a new confidential KeycloakClient: its finalizer with its realm, its Secret, one status write that says Ready', async () => {
    const w = world();
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    await converge(keycloakRealmController, w, realmRef, settings(clock));
    for (const name of ['shop', 'billing', 'search']) {
      w.put(keycloakClientType, { metadata: { name, namespace: 'team-a' }, spec: { clientId: `${name}-web`, realmRef: { name: 'shared', namespace: 'platform' }, settings: { serviceAccountsEnabled: true } } });
      const { target, writes } = counted(w);
      await converge(keycloakClientController, target, clientRef(name), settings(clock));
      expect(writes).toEqual([`finalizer ${JSON.stringify({ [REALM_ANNOTATION]: 'shared' })}`, 'apply Secret', 'status Ready=True Ready']);
      expect(w.get(clientRef(name))?.['status']).toMatchObject({ realm: 'shared' });
    }
  });
});
