// Policy overrides checked by oslopolicy-validator in a Job before the pods get them, against the in-memory
// world (the test plays the Job and Deployment controllers). The real validator runs in the pod tests.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, findCondition, reconcileOnce } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import type { FakeClock } from '@keyward/kernel/testing';
import { fixedEntropy } from '@keyward/kernel/testing';
import { keystoneType, podType } from '../src/api.js';
import { defaultKeystoneServiceConfig, keystoneServiceController } from '../src/index.js';
import { baseSpec, convergeKeystone, deploymentRef, finishJob, jobRef, namespace, setupWorld, type KeystoneWorld } from './fixtures.js';

const ref = { type: keystoneType, namespace, name: 'keystone' };
const VALIDATION = 'keystone-policy-validation';
const condition = (world: KeystoneWorld, type: string) => findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown } | undefined)?.conditions), type);
const configOfDeployment = (world: KeystoneWorld): unknown =>
  (world.get(deploymentRef)?.['spec'] as { template: { spec: { volumes: { configMap?: { name: string } }[] } } } | undefined)?.template.spec.volumes[0]?.configMap?.name;

async function reconcile(world: KeystoneWorld, clock: FakeClock): Promise<void> {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(0) });
  expect(outcome.result?.ok).toBe(true);
}

const convergeAll = (world: KeystoneWorld, clock: FakeClock): Promise<number> => convergeKeystone(world, clock, [VALIDATION, 'keystone-db-sync', 'keystone-bootstrap']);

const withRules = (rules: Record<string, string>) => ({ ...baseSpec, policyOverrides: { rules } });

describe('policy overrides', () => {
  it('are validated by a Job before anything runs with them: db_sync waits for it', async () => {
    const { world, clock } = setupWorld(withRules({ 'identity:list_users': 'role:admin' }));
    await reconcile(world, clock);
    const job = world.get(jobRef(VALIDATION));
    expect((job?.['spec'] as { template: { spec: { containers: { command: string[] }[] } } } | undefined)?.template.spec.containers[0]?.command[3]).toBe('exec oslopolicy-validator --namespace keystone --config-dir /etc/keystone/keystone.conf.d/');
    expect(world.get(jobRef('keystone-db-sync'))).toBeUndefined();
    finishJob(world, VALIDATION);
    await reconcile(world, clock);
    expect(world.get(jobRef('keystone-db-sync'))).toBeDefined();
  });

  it('that the validator refuses are reported with what it said, and the pods keep the configuration they run with', async () => {
    const { world, clock } = setupWorld(withRules({ 'identity:list_users': 'role:admin' }));
    await convergeAll(world, clock);
    expect(condition(world, 'Ready')?.status).toBe('True');
    const running = configOfDeployment(world);

    world.update(ref, (o) => ({ ...o, spec: withRules({ 'identity:list_userz': 'role:admin' }) }));
    // The Job of the earlier rules is replaced, then the new one runs, and fails.
    await reconcile(world, clock);
    expect(world.get(jobRef(VALIDATION))).toBeUndefined();
    await reconcile(world, clock);
    finishJob(world, VALIDATION, 'Failed');
    world.put(podType, {
      metadata: { name: `${VALIDATION}-x`, namespace, labels: { 'batch.kubernetes.io/job-name': VALIDATION, 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'keystone', 'app.kubernetes.io/managed-by': 'keyward' } },
      status: { containerStatuses: [{ state: { terminated: { exitCode: 1, message: 'Unknown rule found in policy file: identity:list_userz\n' } } }] },
    });
    await reconcile(world, clock);
    expect(condition(world, 'DeploymentReady')).toMatchObject({ status: 'False', reason: 'PolicyInvalid' });
    expect(condition(world, 'DeploymentReady')?.message).toContain('policy validation Job keystone-policy-validation failed; its log ends with: Unknown rule found in policy file: identity:list_userz');
    expect(condition(world, 'Ready')).toMatchObject({ status: 'False', reason: 'PolicyInvalid' });
    expect(configOfDeployment(world)).toBe(running);

    // Fixed: validated again, and then the pods get it.
    world.update(ref, (o) => ({ ...o, spec: withRules({ 'identity:list_users': 'role:reader' }) }));
    await convergeAll(world, clock);
    expect(condition(world, 'Ready')?.status).toBe('True');
    expect(configOfDeployment(world)).not.toBe(running);
    expect(world.list(coreTypes.job, namespace).map((j) => j.metadata.name)).toContain(VALIDATION);
  });

  it('without overrides, nothing is validated', async () => {
    const { world, clock } = setupWorld();
    await reconcile(world, clock);
    expect(world.get(jobRef(VALIDATION))).toBeUndefined();
  });
});
