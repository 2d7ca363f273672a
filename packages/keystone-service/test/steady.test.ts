// A reconcile that finds nothing changed writes nothing, in every state a Keystone can wait in: the status it
// states must be exactly what the API server keeps of it (a field the schema does not know is pruned, so
// stating one would send the same patch on every reconcile).
import { describe, expect, it } from '@jest/globals';
import { reconcileOnce, type ObjectRef } from '@keyward/kernel';
import { FakeClock, actionKinds, fixedEntropy, pruneToSchema, type StructuralSchema } from '@keyward/kernel/testing';
import { defaultKeystoneServiceConfig, keystoneCrd, keystoneServiceController, keystoneType } from '../src/index.js';
import { finishJob, jobRef, keystoneWorld, namespace, putKeystone, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };
const job = jobRef;

const statusSchema = (keystoneCrd.spec.versions[0]?.schema.openAPIV3Schema.properties as { status: StructuralSchema }).status;

async function reconcile(world: KeystoneWorld, clock: FakeClock): Promise<string[]> {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(1) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  expect(outcome.result?.ok).toBe(true);
  // Kept as the API server keeps it.
  world.update(ref, (o) => ({ ...o, status: pruneToSchema(o['status'], statusSchema) }));
  return actionKinds(outcome.decision.plan).filter((kind) => kind !== 'control.requeueAfter');
}

/** Reconciles until the state settles (at most a few rounds), then once more: the last one must write nothing. */
async function settledThenAgain(world: KeystoneWorld, clock: FakeClock): Promise<string[]> {
  for (let round = 0; round < 4; round++) {
    if ((await reconcile(world, clock)).length === 0) break;
  }
  return reconcile(world, clock);
}

describe('a Keystone reconciled twice in the same state', () => {
  it('writes nothing while it waits for a Secret', async () => {
    const world = keystoneWorld();
    putKeystone(world);
    expect(await settledThenAgain(world, new FakeClock('2026-01-01T00:00:00Z'))).toEqual([]);
  });

  it('writes nothing while the db_sync Job runs', async () => {
    const { world, clock } = setupWorld();
    expect(await settledThenAgain(world, clock)).toEqual([]);
  });

  it('writes nothing while the db_sync Job has failed', async () => {
    const { world, clock } = setupWorld();
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-sync', 'Failed');
    expect(await settledThenAgain(world, clock)).toEqual([]);
  });

  it('writes nothing while the Deployment rolls out', async () => {
    const { world, clock } = setupWorld();
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-sync', 'Complete');
    expect(await settledThenAgain(world, clock)).toEqual([]);
  });

  it('writes nothing while the bootstrap Job runs', async () => {
    const { world, clock } = setupWorld();
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-sync', 'Complete');
    await reconcile(world, clock);
    rollOut(world);
    expect(await settledThenAgain(world, clock)).toEqual([]);
    expect(world.get(job('keystone-bootstrap'))).toBeDefined();
  });
});
