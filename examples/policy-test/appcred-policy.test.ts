// Testing a policy as a pure function: no cluster, no Keystone. The reconciler gets data and returns a plan;
// the in-memory world runs plans through the real interpreter, so a whole lifecycle is a few function calls.
import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { coreTypes } from '@keyward/core';
import { FakeClock, InMemoryWorld, actionKinds, fixedEntropy, isQuiet } from '@keyward/core/testing';
import { appCredType, decodeAppCred, defaultAppCredConfig, observe, reconcile, type KeystoneApplicationCredential } from '@keyward/keystone-appcred';

const config = { ...defaultAppCredConfig, keystoneUrl: 'http://keystone.example/v3' };

function world(): InMemoryWorld {
  const w = new InMemoryWorld();
  w.addKeystoneUser('nova', 'secret-password');
  w.put(coreTypes.secret, { metadata: { name: 'osp-secret', namespace: 'openstack' }, data: { NovaPassword: Buffer.from('secret-password').toString('base64') } });
  w.put(appCredType, {
    metadata: { name: 'ac-nova', namespace: 'openstack', finalizers: ['openstack.org/applicationcredential'] },
    spec: { secret: 'osp-secret', passwordSelector: 'NovaPassword', userName: 'nova', roles: ['service'], expirationDays: 30, gracePeriodDays: 10 },
  });
  return w;
}

function current(w: InMemoryWorld): KeystoneApplicationCredential {
  const decoded = decodeAppCred(w.get({ type: appCredType, namespace: 'openstack', name: 'ac-nova' }) ?? { apiVersion: '', kind: '', metadata: { name: '' } });
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

function planAt(w: InMemoryWorld, clock: FakeClock) {
  const cr = current(w);
  return reconcile({ primary: cr, observed: w.query(observe(cr, config)), now: clock.now(), config, entropy: fixedEntropy() });
}

describe('my rotation policy', () => {
  it('rotates a 30-day credential 20 days after it was created, not a second earlier', async () => {
    const w = world();
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    await w.run(planAt(w, clock));
    expect(current(w).status.rotationEligibleAt).toBe('2026-01-21T00:00:00Z');

    clock.set('2026-01-21T00:00:00Z');
    expect(isQuiet(planAt(w, clock))).toBe(true);
    clock.advance(1_000);
    expect(actionKinds(planAt(w, clock))).toContain('keystone.createApplicationCredential');
  });
});
