// Testing a policy as a pure function: no cluster, no Keystone. The reconciler gets data and returns a plan;
// the in-memory world runs plans through the real interpreter, so a whole lifecycle is a few function calls.
import { describe, expect, it } from '@jest/globals';
import { coreTypes } from '@keyward/kernel';
import { FakeClock, InMemoryWorld, actionKinds, isQuiet, reconcileOnce, simulateKeystone } from '@keyward/kernel/testing';
import { appCredController, appCredType, defaultAppCredConfig, readStatus } from '@keyward/keystone-appcred';

const config = { ...defaultAppCredConfig, keystoneUrl: 'http://keystone.example/v3' };
const ref = { type: appCredType, namespace: 'openstack', name: 'ac-nova' };

function world() {
  const w = new InMemoryWorld({ keystone: simulateKeystone });
  w.apis.keystone.addUser('nova', 'secret-password');
  w.put(coreTypes.secret, { metadata: { name: 'osp-secret', namespace: 'openstack' }, data: { NovaPassword: Buffer.from('secret-password').toString('base64') } });
  w.put(appCredType, {
    metadata: { name: 'ac-nova', namespace: 'openstack', finalizers: ['openstack.org/applicationcredential'] },
    spec: { secret: 'osp-secret', passwordSelector: 'NovaPassword', userName: 'nova', roles: ['service'], expirationDays: 30, gracePeriodDays: 10 },
  });
  return w;
}

/** What a reconcile at the clock's time would do, without doing it. */
async function planAt(w: ReturnType<typeof world>, clock: FakeClock) {
  const { decision } = await reconcileOnce(appCredController, w, ref, { config, now: clock.now(), dryRun: true });
  if (decision.kind !== 'planned') throw new Error(`no plan: ${decision.kind}`);
  return decision.plan;
}

describe('my rotation policy', () => {
  it('rotates a 30-day credential 20 days after it was created, not a second earlier', async () => {
    const w = world();
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    await reconcileOnce(appCredController, w, ref, { config, now: clock.now() });
    expect(readStatus(w.get(ref)?.['status']).rotationEligibleAt).toBe('2026-01-21T00:00:00Z');

    clock.set('2026-01-21T00:00:00Z');
    expect(isQuiet(await planAt(w, clock))).toBe(true);
    clock.advance(1_000);
    expect(actionKinds(await planAt(w, clock))).toContain('keystone.createApplicationCredential');
  });
});
