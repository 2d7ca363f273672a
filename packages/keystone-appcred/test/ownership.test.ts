import { describe, expect, it } from '@jest/globals';
import { isLeft } from 'fp-ts/lib/Either.js';
import { findCondition, type KubeObject } from '@keyward/core';
import { fixedEntropy, type FakeClock, type InMemoryWorld } from '@keyward/core/testing';
import { appCredType, type KeystoneApplicationCredential } from '../src/api.js';
import { decodeAppCred } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { reconcile } from '../src/reconcile.js';
import { NS, baseSpec, config, crRef, secretRef, secretsOf, setup } from './harness.js';

function decoded(world: InMemoryWorld, name: string): KeystoneApplicationCredential {
  const object = world.get(crRef(name));
  if (object === undefined) throw new Error(`${name} is gone`);
  const result = decodeAppCred(object);
  if (isLeft(result)) throw new Error(result.left.message);
  return result.right;
}

async function reconcileCr(world: InMemoryWorld, clock: FakeClock, name: string, seed: number): Promise<void> {
  const primary = decoded(world, name);
  await world.run(reconcile({ primary, observed: world.query(observe(primary, config)), now: clock.now(), config, entropy: fixedEntropy(seed) }));
}

const idOf = (secret: KubeObject | undefined): string => Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.['AC_ID'] ?? '', 'base64').toString();

describe('who owns a service', () => {
  it('is the CR named ac-<service>: a CR named <service> beside it changes nothing and says why, once', async () => {
    const { world, clock } = setup();
    world.put(appCredType, { metadata: { name: 'barbican', namespace: NS }, spec: baseSpec });
    for (let round = 0; round < 6; round++) {
      await reconcileCr(world, clock, 'ac-barbican', round);
      await reconcileCr(world, clock, 'barbican', 100 + round);
    }
    const owner = decoded(world, 'ac-barbican').status;
    expect(findCondition(owner.conditions, 'Ready')?.status).toBe('True');
    expect(world.credentials('user-barbican').map((c) => c.id)).toEqual([owner.acID]);
    expect(secretsOf(world).map(idOf)).toEqual([owner.acID]);

    const other = decoded(world, 'barbican');
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
      await reconcileCr(world, clock, atLimit, round);
      await reconcileCr(world, clock, beyond, 10 + round);
    }
    expect(findCondition(decoded(world, atLimit).status.conditions, 'Ready')?.status).toBe('True');
    expect(world.credentials('user-barbican').map((c) => c.name)).toEqual([expect.stringMatching(new RegExp(`^${atLimit}-`))]);
    const refused = decoded(world, beyond);
    expect(refused.metadata.finalizers ?? []).toEqual([]);
    expect(findCondition(refused.status.conditions, 'KeystoneApplicationCredentialReady')).toMatchObject({
      status: 'False',
      reason: 'UnsupportedName',
      message: expect.stringContaining('has 64 characters, more than the 63 of the label its credential Secrets carry'),
    });
  });

  it('a CR of another name that is deleted releases only the Secrets it created, never those of ac-<service>', async () => {
    const { world, clock } = setup();
    for (let round = 0; round < 3; round++) await reconcileCr(world, clock, 'ac-barbican', round);
    const ownerSecret = decoded(world, 'ac-barbican').status.secretName ?? '';
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

    await reconcileCr(world, clock, 'barbican', 50);
    expect(world.get(crRef('barbican'))).toBeUndefined();
    expect(world.get(secretRef('ac-barbican-legac-secret'))?.metadata.finalizers ?? []).toEqual([]);
    expect(world.get(secretRef(ownerSecret))?.metadata.finalizers).toEqual(['openstack.org/ac-secret-protection']);
  });
});
