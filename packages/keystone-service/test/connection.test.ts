// The database URL reaches the API pods only after a db_sync has succeeded with it, and a new one rolls them.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, converge as convergeKit, type ObjectRef } from '@keyward/kernel';
import type { FakeClock } from '@keyward/kernel/testing';
import { defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';
import { b64, baseSpec, deploymentRef, finishJob, jobRef, namespace, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };
const job = jobRef;
const secret = (name: string): ObjectRef => ({ type: coreTypes.secret, namespace, name });

/** Plays the Job and Deployment controllers: db_sync ends as `dbSync` says, the rest completes and rolls out. */
async function converge(world: KeystoneWorld, clock: FakeClock, dbSync: 'Complete' | 'Failed' = 'Complete'): Promise<void> {
  await convergeKit(keystoneServiceController, world, ref, {
    config: defaultKeystoneServiceConfig,
    now: () => clock.now(),
    maxRounds: 12,
    between: () => {
      finishJob(world, 'keystone-db-sync', dbSync);
      finishJob(world, 'keystone-bootstrap');
      rollOut(world);
      clock.advance(1_000);
    },
  });
}

const urlIn = (world: KeystoneWorld, name: string): string | undefined => {
  const data = world.get(secret(name))?.['data'] as Record<string, string> | undefined;
  return data?.['connection'] === undefined ? undefined : Buffer.from(data['connection'], 'base64').toString();
};
const podTemplate = (world: KeystoneWorld): string => JSON.stringify((world.get(deploymentRef)?.['spec'] as { template: unknown }).template);
const dbSyncEnv = (world: KeystoneWorld): string => JSON.stringify((world.get(job('keystone-db-sync'))?.['spec'] as { template: unknown }).template);

describe('the database URL of the API pods', () => {
  it('stays the one that worked while db_sync fails with a new one', async () => {
    const { world, clock } = setupWorld();
    await converge(world, clock);
    const before = podTemplate(world);
    world.update(ref, (o) => ({ ...o, spec: { ...baseSpec, database: { ...baseSpec.database, database: 'no_such_db' } } }));
    await converge(world, clock, 'Failed');
    expect(urlIn(world, 'keystone-db-connection')).toBe('mysql+pymysql://keystone:db-pass-1@mariadb.db:3306/keystone?charset=utf8mb4');
    expect(urlIn(world, 'keystone-db-sync-connection')).toBe('mysql+pymysql://keystone:db-pass-1@mariadb.db:3306/no_such_db?charset=utf8mb4');
    expect(dbSyncEnv(world)).toContain('keystone-db-sync-connection');
    expect(podTemplate(world)).toBe(before);
  });

  it('changes with a new password once db_sync succeeded with it, and the pods roll', async () => {
    const { world, clock } = setupWorld();
    await converge(world, clock);
    const before = podTemplate(world);
    const dbSyncUid = world.get(job('keystone-db-sync'))?.metadata.uid;
    world.update(secret('keystone-db'), (o) => ({ ...o, data: { username: b64('keystone'), password: b64('db-pass-2') } }));
    await converge(world, clock);
    expect(world.get(job('keystone-db-sync'))?.metadata.uid).not.toBe(dbSyncUid);
    expect(urlIn(world, 'keystone-db-connection')).toBe('mysql+pymysql://keystone:db-pass-2@mariadb.db:3306/keystone?charset=utf8mb4');
    expect(world.get(secret('keystone-db-sync-connection'))).toBeUndefined();
    expect(podTemplate(world)).not.toBe(before);
    expect(podTemplate(world)).not.toContain('db-pass');
  });
});
