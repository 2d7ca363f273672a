// A reconcile that finds nothing changed writes nothing: a converged KeycloakRealm and KeycloakClient reconciled
// twice more, their status kept as the API server keeps it (fields the CRDs' schemas do not know pruned).
import { describe, expect, it } from '@jest/globals';
import { InMemoryWorld, reconcileOnce, type ObjectRef } from '@keyward/kernel';
import { FakeClock, actionKinds, pruneToSchema, type StructuralSchema } from '@keyward/kernel/testing';
import { keycloakClientController, keycloakClientCrd, keycloakClientType, keycloakRealmController, keycloakRealmCrd, keycloakRealmType } from '../src/index.js';
import { simulateKeycloak } from '../src/testing.js';
import { convergeAt, simulatedConfig, type KeycloakWorld } from './simulated-world.js';

const realmRef: ObjectRef = { type: keycloakRealmType, namespace: 'platform', name: 'shared' };
const clientRef: ObjectRef = { type: keycloakClientType, namespace: 'team-a', name: 'shop' };
const statusSchema = (crd: { spec: { versions: readonly { schema: { openAPIV3Schema: { properties?: unknown } } }[] } }): StructuralSchema =>
  (crd.spec.versions[0]?.schema.openAPIV3Schema.properties as { status: StructuralSchema }).status;

async function writes(w: KeycloakWorld, ref: ObjectRef, clock: FakeClock): Promise<string[]> {
  const schema = statusSchema(ref.type === keycloakRealmType ? keycloakRealmCrd : keycloakClientCrd);
  w.update(ref, (o) => ({ ...o, status: pruneToSchema(o['status'], schema) }));
  const options = { config: simulatedConfig, now: clock.now() };
  const { decision } = ref.type === keycloakRealmType ? await reconcileOnce(keycloakRealmController, w, ref, options) : await reconcileOnce(keycloakClientController, w, ref, options);
  if (decision.kind !== 'planned') throw new Error(decision.kind);
  return actionKinds(decision.plan).filter((kind) => kind !== 'control.requeueAfter');
}

describe('Keycloak objects reconciled twice in the same state', () => {
  it('write nothing once converged', async () => {
    const w = new InMemoryWorld({ keycloak: simulateKeycloak });
    const clock = new FakeClock('2026-03-01T12:00:00Z');
    w.put(keycloakRealmType, { metadata: { name: 'shared', namespace: 'platform' }, spec: { realmName: 'shared', clientAuthorizationGrants: ['team-a'], realmRoles: [{ name: 'viewer' }] } });
    await convergeAt(w, realmRef, clock);
    w.put(keycloakClientType, { metadata: { name: 'shop', namespace: 'team-a' }, spec: { clientId: 'shop-web', realmRef: { name: 'shared', namespace: 'platform' }, redirectUris: ['https://shop.example.com/*'], settings: { serviceAccountsEnabled: true } } });
    await convergeAt(w, clientRef, clock);
    for (const ref of [realmRef, clientRef]) {
      await writes(w, ref, clock);
      expect({ ref: ref.name, writes: await writes(w, ref, clock) }).toEqual({ ref: ref.name, writes: [] });
    }
  });
});
