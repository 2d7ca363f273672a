// What a Keystone records on itself, so that what is deleted around it is not made again: that bootstrap ran,
// and that its namespace is being deleted.
import { describe, expect, it } from '@jest/globals';
import { findCondition, converge as convergeKit, reconcileOnce, type ObjectRef } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { FakeClock, actionKinds, fixedEntropy } from '@keyward/kernel/testing';
import { decodeKeystone, defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';
import { mariaDbDatabaseType, mariaDbGrantType, mariaDbUserType } from '../src/api.js';
import { keystoneErrorPolicy } from '../src/namespace.js';
import { reportFailure } from '../src/reconcile.js';
import { baseSpec, deploymentRef, finishJob, jobRef, keystoneWorld, namespace, putInputs, putKeystone, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };
const job = jobRef;
const TERMINATING = 'create Deployment identity/keystone: HTTP 403 deployments.apps "keystone" is forbidden: unable to create new content in namespace identity because it is being terminated';

async function converged(): Promise<{ world: KeystoneWorld; clock: FakeClock }> {
  const { world, clock } = setupWorld();
  await convergeKit(keystoneServiceController, world, ref, {
    config: defaultKeystoneServiceConfig, now: () => clock.now(), maxRounds: 12,
    between: () => {
      finishJob(world, 'keystone-db-sync');
      finishJob(world, 'keystone-bootstrap');
      rollOut(world);
    },
  });
  return { world, clock };
}

async function plan(world: KeystoneWorld, clock: FakeClock): Promise<string[]> {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(2) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  return actionKinds(outcome.decision.plan).filter((kind) => kind !== 'control.requeueAfter');
}

describe('a Keystone', () => {
  it('does not run bootstrap again when its completed Job is deleted', async () => {
    const { world, clock } = await converged();
    world.remove(job('keystone-bootstrap'));
    expect(await plan(world, clock)).toEqual([]);
    expect(world.get(job('keystone-bootstrap'))).toBeUndefined();
    expect(findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions), 'BootstrapReady')?.status).toBe('True');
  });

  it('records a create refused in its terminating namespace, and creates nothing more there', async () => {
    const { world, clock } = await converged();
    expect(keystoneErrorPolicy({ api: 'kubernetes', code: 403, reason: 'Forbidden', message: TERMINATING, retryable: false })).toEqual({ next: 'waitForChange', report: true });
    expect(keystoneErrorPolicy({ api: 'kubernetes', code: 403, reason: 'Forbidden', message: 'forbidden: RBAC', retryable: false })).toEqual({ next: 'backoff', report: true });
    const stored = world.get(ref);
    if (stored === undefined) throw new Error('no Keystone');
    const decoded = decodeKeystone(stored);
    if (decoded._tag === 'Left') throw new Error(decoded.left.message);
    const report = reportFailure(decoded.right, { step: 'create Deployment identity/keystone', action: 'k8s.create', reason: 'Forbidden', message: TERMINATING, retryable: false }, clock.now());
    await world.run(report);
    expect(findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions), 'Ready')).toMatchObject({ status: 'False', reason: 'NamespaceTerminating' });
    // The namespace controller removes what the Keystone owns before the Keystone itself.
    world.remove(deploymentRef);
    world.remove(job('keystone-db-sync'));
    expect(await plan(world, clock)).toEqual([]);
  });
});

describe('a failed db_sync', () => {
  const fail = (world: KeystoneWorld) => world.update(job('keystone-db-sync'), (o) => ({ ...o, status: { conditions: [{ type: 'Failed', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }));
  const databaseCondition = (world: KeystoneWorld) => findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions), 'DatabaseReady');

  it('says how to run it again, and runs again once its Job is deleted', async () => {
    const world = keystoneWorld();
    putInputs(world);
    putKeystone(world);
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    await plan(world, clock);
    fail(world);
    expect(await plan(world, clock)).toEqual(['k8s.status']);
    expect(databaseCondition(world)?.message).toBe('db_sync Job keystone-db-sync failed. It runs again when the image, the configuration or the database URL changes; to run it again as it is (after fixing what it needed, such as a missing database), delete Job keystone-db-sync.');
    world.remove(job('keystone-db-sync'));
    expect(await plan(world, clock)).toContain('k8s.create');
    expect(world.get(job('keystone-db-sync'))).toBeDefined();
  });

  it('runs again when the MariaDB Database object it depends on is made again', async () => {
    const world = keystoneWorld();
    putInputs(world);
    putKeystone(world, { ...baseSpec, database: { clusterRef: { name: 'mariadb' }, secretRef: { name: 'keystone-db' } } });
    const clock = new FakeClock('2026-01-01T00:00:00Z');
    const ready = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    const markReady = () => {
      for (const type of [mariaDbDatabaseType, mariaDbUserType, mariaDbGrantType]) {
        const objectRef = { type, namespace, name: 'keystone' };
        if (world.get(objectRef) !== undefined) world.update(objectRef, (o) => ({ ...o, status: ready }));
      }
    };
    for (let round = 0; round < 4; round++) {
      await plan(world, clock);
      markReady();
    }
    expect(world.get(job('keystone-db-sync'))).toBeDefined();
    fail(world);
    expect(await plan(world, clock)).toEqual(['k8s.status']);
    const databaseRef = { type: mariaDbDatabaseType, namespace, name: 'keystone' };
    const database = world.get(databaseRef);
    world.remove(databaseRef);
    world.put(mariaDbDatabaseType, { ...database, metadata: { name: 'keystone', namespace, labels: database?.metadata.labels ?? {} }, status: ready });
    expect(await plan(world, clock)).toContain('k8s.delete');
    expect(world.get(job('keystone-db-sync'))).toBeUndefined();
  });
});
