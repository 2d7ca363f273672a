// A KeycloakRealm's organizationsEnabled with the KeycloakRealm controller and core's runtime, against the real
// kube-apiserver and Keycloak 26: set on create, changed, repaired after an out-of-band change, and nothing
// written once converged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRealm, patchSpec, realmRef, startRealmTestFile, waitForReady, writesIn, type ControllerEnv, type Operator, type RealmTestFile } from './harness.js';

let env: ControllerEnv;
let namespace: string;
let operator: Operator;
let file: RealmTestFile;

beforeAll(async () => {
  file = await startRealmTestFile('kcorg', 'realm-org');
  ({ env, namespace, operator } = file);
}, 120_000);

afterAll(() => file.close());

const organizationsEnabled = async (realm: string): Promise<unknown> => (await env.admin.get(`/realms/${realm}`))?.['organizationsEnabled'];

async function writesOfReconcile(name: string): Promise<{ steps: number; writes: string[] }> {
  const before = operator.requests.length;
  const result = await operator.reconcileRealm(namespace, name);
  return { steps: result.plan?.steps.length ?? 0, writes: writesIn(operator.requests.slice(before)) };
}

describe('organizationsEnabled against the real Keycloak and API server', () => {
  it('is set on create, changed through the diff, repaired after a change by hand, and then writes nothing', async () => {
    const realm = file.newRealmName('kcorg');
    const ref = realmRef(namespace, 'orgs');
    await createRealm(env.kube, namespace, 'orgs', { realmName: realm, organizationsEnabled: true });
    await waitForReady(env.kube, ref);
    expect(await organizationsEnabled(realm)).toBe(true);
    expect(await writesOfReconcile('orgs')).toEqual({ steps: 0, writes: [] });

    await patchSpec(env.kube, ref, { organizationsEnabled: false });
    await waitForReady(env.kube, ref);
    expect(await organizationsEnabled(realm)).toBe(false);
    expect(await writesOfReconcile('orgs')).toEqual({ steps: 0, writes: [] });

    expect(await env.admin.send('PUT', `/realms/${realm}`, { realm, organizationsEnabled: true })).toBe(204);
    // The controller's own reconciles run beside the test's: whichever repairs it, only the realm is written.
    expect((await writesOfReconcile('orgs')).writes.every((write) => write === 'update_realm')).toBe(true);
    expect(await organizationsEnabled(realm)).toBe(false);
    await waitForReady(env.kube, ref);
    expect(await writesOfReconcile('orgs')).toEqual({ steps: 0, writes: [] });
  });
});
