// A reconcile that finds nothing changed writes nothing: an APIKey in each state its enforcement can settle in,
// reconciled until quiet and then twice more, its status kept as the API server keeps it (fields the CRD's
// schema does not know pruned).
import { describe, expect, it } from '@jest/globals';
import { coreTypes, InMemoryWorld, reconcileOnce } from '@keyward/kernel';
import { FakeClock, actionKinds, pruneToSchema, type StructuralSchema } from '@keyward/kernel/testing';
import { apiKeyType } from '../src/api.js';
import { apiKeyController } from '../src/controller.js';
import { apiKeyCrd } from '../src/crd.js';

const config = { enforcementNamespace: 'kuadrant' };
const clock = new FakeClock('2026-05-01T00:00:00Z');
const apiKeyRef = { type: apiKeyType, namespace: 'team-a', name: 'my-key' };
const statusSchema = (apiKeyCrd.spec.versions[0].schema.openAPIV3Schema.properties as { status: StructuralSchema }).status;

function world(approval: 'Approved' | 'Denied' | undefined): InMemoryWorld {
  const w = new InMemoryWorld();
  w.put(apiKeyType, {
    metadata: { name: 'my-key', namespace: 'team-a' },
    spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'my-key-secret' }, planTier: 'gold', useCase: 'demo', requestedBy: { userId: 'u-1', email: 'a@example.com' } },
    status: { conditions: approval === undefined ? [] : [{ type: approval, status: 'True', reason: approval, message: '', lastTransitionTime: '2026-04-01T00:00:00Z' }] },
  });
  w.put(coreTypes.secret, { metadata: { name: 'my-key-secret', namespace: 'team-a' }, data: { api_key: Buffer.from('sk-live-1').toString('base64') } });
  return w;
}

async function writes(w: InMemoryWorld): Promise<string[]> {
  w.update(apiKeyRef, (o) => ({ ...o, status: pruneToSchema(o['status'], statusSchema) }));
  const { decision } = await reconcileOnce(apiKeyController, w, apiKeyRef, { config, now: clock.now() });
  if (decision.kind !== 'planned') throw new Error(decision.kind);
  return actionKinds(decision.plan).filter((kind) => kind !== 'control.requeueAfter');
}

describe('an APIKey reconciled twice in the same state', () => {
  it.each([['approved', 'Approved'], ['denied', 'Denied'], ['not yet approved', undefined]] as const)('writes nothing once %s', async (_what, approval) => {
    const w = world(approval);
    for (let round = 0; round < 4; round++) if ((await writes(w)).length === 0) break;
    await writes(w);
    expect(await writes(w)).toEqual([]);
  });
});
