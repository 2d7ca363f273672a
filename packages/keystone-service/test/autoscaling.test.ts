// A Keystone with autoscaling, against the in-memory world: the HorizontalPodAutoscaler owns the replicas, and
// applying the Deployment never takes its scale back. The real autoscaler scales real pods in the pod tests.
import { describe, expect, it } from '@jest/globals';
import { reconcileOnce } from '@keyward/kernel';
import { horizontalPodAutoscalerType, keystoneType, podDisruptionBudgetType } from '../src/api.js';
import { defaultKeystoneServiceConfig, keystoneServiceController } from '../src/index.js';
import { baseSpec, convergeKeystone, deploymentRef, namespace, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';
import type { FakeClock } from '@keyward/kernel/testing';
import { fixedEntropy } from '@keyward/kernel/testing';

const ref = { type: keystoneType, namespace, name: 'keystone' };
const hpaRef = { type: horizontalPodAutoscalerType, namespace, name: 'keystone' };
const autoscaled = { ...baseSpec, replicas: 2, resources: { requests: { cpu: '100m' } }, autoscaling: { minReplicas: 2, maxReplicas: 5 } };
const replicasOf = (world: KeystoneWorld): unknown => (world.get(deploymentRef)?.['spec'] as { replicas?: number } | undefined)?.replicas;

async function reconcile(world: KeystoneWorld, clock: FakeClock) {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(0) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  return outcome.decision.plan;
}

describe('a Keystone with autoscaling', () => {
  it('gets a HorizontalPodAutoscaler on CPU use, and a Deployment that starts at the floor', async () => {
    const { world, clock } = setupWorld(autoscaled);
    await convergeKeystone(world, clock);
    expect(world.get(hpaRef)?.['spec']).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'keystone' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    expect(replicasOf(world)).toBe(2);
    expect(world.get({ type: podDisruptionBudgetType, namespace, name: 'keystone' })?.['spec']).toMatchObject({ minAvailable: 1 });
  });

  it('leaves the replicas the autoscaler set: only the status says how many pods are ready, then nothing is written', async () => {
    const { world, clock } = setupWorld(autoscaled);
    await convergeKeystone(world, clock);
    // The autoscaler scales up, as the Deployment's scale subresource would be written.
    world.update(deploymentRef, (o) => ({ ...o, spec: { ...(o['spec'] as Record<string, unknown>), replicas: 4 } }));
    rollOut(world);
    const scaled = await reconcile(world, clock);
    expect(scaled.steps.map((s) => s.action.kind).filter((kind) => kind !== 'control.requeueAfter')).toEqual(['k8s.status']);
    expect(replicasOf(world)).toBe(4);
    const resync = await reconcile(world, clock);
    expect(resync.steps.filter((s) => s.action.kind !== 'control.requeueAfter')).toEqual([]);
  });

  it('hands the replicas back to the spec, and deletes the autoscaler, when autoscaling is taken out', async () => {
    const { world, clock } = setupWorld(autoscaled);
    await convergeKeystone(world, clock);
    world.update(deploymentRef, (o) => ({ ...o, spec: { ...(o['spec'] as Record<string, unknown>), replicas: 4 } }));
    world.update(ref, (o) => ({ ...o, spec: { ...baseSpec, replicas: 2 } }));
    await convergeKeystone(world, clock);
    expect(world.get(hpaRef)).toBeUndefined();
    expect(replicasOf(world)).toBe(2);
  });

  it.each([
    ['a floor above the ceiling', { minReplicas: 6, maxReplicas: 5 }, 'spec.autoscaling'],
    ['no ceiling', { minReplicas: 2 }, 'spec.autoscaling.maxReplicas'],
  ])('refuses %s', async (_case, autoscaling, path) => {
    const { world, clock } = setupWorld({ ...autoscaled, autoscaling });
    const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(0) });
    expect(outcome.decision.kind).toBe('invalid');
    const conditions = (world.get(ref)?.['status'] as { conditions?: { type: string; message: string }[] } | undefined)?.conditions ?? [];
    expect(conditions.find((c) => c.type === 'Ready')?.message).toContain(`${path}:`);
  });
});
