import { describe, expect, it } from '@jest/globals';
import { findCondition, type KubeObject, reconcileOnce } from '@keyward/kernel';
import { fixedEntropy, type FakeClock } from '@keyward/kernel/testing';
import { appCredType } from '../src/api.js';
import { appCredController } from '../src/controller.js';
import { NS, baseSpec, config, cr, credentials, crRef, secretRef, secretsOf, setup, type AppCredWorld } from './harness.js';

/** One reconcile of the CR `name`, exactly one (no follow-up after adding the finalizer): rounds are counted. */
async function reconcileExactlyOnce(world: AppCredWorld, clock: FakeClock, name: string, seed: number): Promise<void> {
  await reconcileOnce(appCredController, world, crRef(name), { config, now: clock.now(), entropy: fixedEntropy(seed) });
}

const idOf = (secret: KubeObject | undefined): string => Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.['AC_ID'] ?? '', 'base64').toString();

describe('who owns a service', () => {
  it('is the CR named ac-<service>: a CR named <service> beside it changes nothing and says why, once', async () => {
    const { world, clock } = setup();
    world.put(appCredType, { metadata: { name: 'barbican', namespace: NS }, spec: baseSpec });
    for (let round = 0; round < 6; round++) {
      await reconcileExactlyOnce(world, clock, 'ac-barbican', round);
      await reconcileExactlyOnce(world, clock, 'barbican', 100 + round);
    }
    const owner = cr(world, 'ac-barbican').status;
    expect(findCondition(owner.conditions, 'Ready')?.status).toBe('True');
    expect(credentials(world).map((c) => c.id)).toEqual([owner.acID]);
    expect(secretsOf(world).map(idOf)).toEqual([owner.acID]);

    const other = cr(world, 'barbican');
    expect(other.metadata.finalizers ?? []).toEqual([]);
    expect(findCondition(other.status.conditions, 'KeystoneApplicationCredentialReady')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedName',
      message: expect.stringContaining('only the KeystoneApplicationCredential named ac-barbican manages the credentials of service barbican'),
    });
    expect(findCondition(other.status.conditions, 'Ready')?.status).toBe('False');
    expect(world.events.filter((e) => e.reason === 'UnsupportedName')).toEqual([expect.objectContaining({ type: 'Warning', regarding: `${NS}/barbican` })]);
  });

  it('is none for a service name longer than a label value: no credential is created and revoked on every retry', async () => {
    const { world, clock } = setup();
    const atLimit = `ac-${'s'.repeat(63)}`;
    const beyond = `ac-${'s'.repeat(64)}`;
    for (const name of [atLimit, beyond]) world.put(appCredType, { metadata: { name, namespace: NS }, spec: baseSpec });
    for (let round = 0; round < 4; round++) {
      await reconcileExactlyOnce(world, clock, atLimit, round);
      await reconcileExactlyOnce(world, clock, beyond, 10 + round);
    }
    expect(findCondition(cr(world, atLimit).status.conditions, 'Ready')?.status).toBe('True');
    expect(credentials(world).map((c) => c.name)).toEqual([expect.stringMatching(new RegExp(`^${atLimit}-`))]);
    const refused = cr(world, beyond);
    expect(refused.metadata.finalizers ?? []).toEqual([]);
    expect(findCondition(refused.status.conditions, 'KeystoneApplicationCredentialReady')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedName',
      message: expect.stringContaining('has 64 characters, more than the 63 of the label its credential Secrets carry'),
    });
  });

  it('a CR of another name that is deleted releases only the Secrets it created, never those of ac-<service>', async () => {
    const { world, clock } = setup();
    for (let round = 0; round < 3; round++) await reconcileExactlyOnce(world, clock, 'ac-barbican', round);
    const ownerSecret = cr(world, 'ac-barbican').status.secretName ?? '';
    // A legacy CR named after the service, with the finalizer and a Secret it created before the rule.
    const legacy = world.put(appCredType, { metadata: { name: 'barbican', namespace: NS, finalizers: ['openstack.org/applicationcredential'] }, spec: baseSpec });
    world.put(secretRef('ac-barbican-legac-secret').type, {
      metadata: {
        name: 'ac-barbican-legac-secret', namespace: NS,
        labels: { 'application-credentials': 'true', 'application-credential-service': 'barbican' },
        finalizers: ['openstack.org/ac-secret-protection'],
        ownerReferences: [{ apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', name: 'barbican', uid: legacy.metadata.uid ?? '', controller: true }],
      },
      data: { AC_ID: Buffer.from('legacy-id').toString('base64') },
    });
    world.put(appCredType, { ...legacy, metadata: { ...legacy.metadata, deletionTimestamp: '2026-03-01T12:00:00Z' } });

    await reconcileExactlyOnce(world, clock, 'barbican', 50);
    expect(world.get(crRef('barbican'))).toBeUndefined();
    expect(world.get(secretRef('ac-barbican-legac-secret'))?.metadata.finalizers ?? []).toEqual([]);
    expect(world.get(secretRef(ownerSecret))?.metadata.finalizers).toEqual(['openstack.org/ac-secret-protection']);
  });
});
