// A reconcile that finds nothing changed writes nothing: a converged credential reconciled twice, its status
// kept as the API server keeps it (fields the CRD's schema does not know pruned).
import { describe, expect, it } from '@jest/globals';
import { actionKinds, pruneToSchema, type StructuralSchema } from '@keyward/kernel/testing';
import { appCredCrd } from '../src/crd.js';
import { convergeCr, crRef, reconcileCr, setup, type AppCredWorld } from './harness.js';

const statusSchema = (appCredCrd.spec.versions[0].schema.openAPIV3Schema.properties as { status: StructuralSchema }).status;

function keepAsStored(world: AppCredWorld): void {
  world.update(crRef(), (o) => ({ ...o, status: pruneToSchema(o['status'], statusSchema) }));
}

async function writesOfNextReconcile(world: AppCredWorld, clock: Parameters<typeof reconcileCr>[1]): Promise<string[]> {
  keepAsStored(world);
  const outcome = await reconcileCr(world, clock, 99);
  const plan = outcome.decision.kind === 'planned' || outcome.decision.kind === 'invalid' ? outcome.decision.plan : undefined;
  return plan === undefined ? [outcome.decision.kind] : actionKinds(plan).filter((kind) => kind !== 'control.requeueAfter');
}

describe('a KeystoneApplicationCredential reconciled twice in the same state', () => {
  it('writes nothing once converged', async () => {
    const { world, clock } = setup();
    await convergeCr(world, clock, 1, 8);
    await writesOfNextReconcile(world, clock);
    expect(await writesOfNextReconcile(world, clock)).toEqual([]);
  });

});
