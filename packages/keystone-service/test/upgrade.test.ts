// Upgrades from one OpenStack release to a newer one, against the in-memory world: the test plays the Job and
// Deployment controllers. The real releases (Debian bookworm's Keystone to trixie's) run in the pod tests.
import { describe, expect, it } from '@jest/globals';
import { findCondition, reconcileOnce, type KubeObject } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { fixedEntropy, type FakeClock } from '@keyward/kernel/testing';
import { defaultKeystoneServiceConfig, keystoneServiceController } from '../src/index.js';
import { compareReleases, releaseOfTag } from '../src/release.js';
import { upgradeState } from '../src/upgrade.js';
import { baseSpec, convergeKeystone, deploymentRef, finishJob, jobRef, namespace, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';
import { keystoneType } from '../src/api.js';

const ref = { type: keystoneType, namespace, name: 'keystone' };

const status = (world: KeystoneWorld): Record<string, unknown> => (world.get(ref)?.['status'] ?? {}) as Record<string, unknown>;
const condition = (world: KeystoneWorld, type: string) => findCondition(readConditions(status(world)['conditions']), type);
const imageOfDeployment = (world: KeystoneWorld): unknown =>
  ((world.get(deploymentRef)?.['spec'] as { template: { spec: { containers: { image: string }[] } } } | undefined)?.template.spec.containers[0]?.image);
const jobImage = (job: KubeObject | undefined): unknown => (job?.['spec'] as { template: { spec: { containers: { image: string; command: string[] }[] } } } | undefined)?.template.spec.containers[0];

async function reconcile(world: KeystoneWorld, clock: FakeClock) {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(0) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  expect(outcome.result?.ok).toBe(true);
  return outcome.decision.plan;
}

/** Converges as the installed release: the Jobs of a first install complete and the Deployment rolls out. */
async function install(tag: string) {
  const { world, clock } = setupWorld({ ...baseSpec, image: { repository: 'keystone', tag } });
  await convergeKeystone(world, clock);
  return { world, clock };
}

const setTag = (world: KeystoneWorld, tag: string) => world.update(ref, (o) => ({ ...o, spec: { ...baseSpec, image: { repository: 'keystone', tag } } }));

describe('an image tag read as an OpenStack release', () => {
  it.each([
    ['2025.1', '2025.1'],
    ['2025.1-trixie', '2025.1'],
    ['2025.1.2', '2025.1'],
    ['2025.1_27.0.0', '2025.1'],
    ['27.0.0', undefined],
    ['latest', undefined],
    ['2025.12', undefined],
    ['v2025.1', undefined],
  ])('%s names %s', (tag, release) => {
    expect(releaseOfTag(tag)).toBe(release);
  });

  it('orders releases by year, then by cycle', () => {
    expect(['2025.1', '2022.2', '2024.2', '2024.1'].sort(compareReleases)).toEqual(['2022.2', '2024.1', '2024.2', '2025.1']);
  });
});

describe('where a Keystone stands against its image', () => {
  it.each([
    ['nothing installed yet', '2025.1-a', {}, 'steady', undefined],
    ['the installed release', '2025.1-b', { installedRelease: '2025.1' }, 'steady', undefined],
    ['a newer release', '2025.1-a', { installedRelease: '2022.2' }, 'upgrading', undefined],
    ['an older release', '2022.2-a', { installedRelease: '2025.1' }, 'held', 'DowngradeRefused'],
    ['a tag of no release', 'latest', { installedRelease: '2025.1' }, 'held', 'ReleaseUnknown'],
    ['the target of an upgrade under way', '2025.1-a', { installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Migrating' }, 'upgrading', undefined],
    ['the installed release again before contracting', '2022.2-a', { installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'RollingUpdate' }, 'steady', undefined],
    ['the installed release again while contracting', '2022.2-a', { installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Contracting' }, 'held', 'UpgradeCannotBeUndone'],
    ['a third release during an upgrade', '2024.2-a', { installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Expanding' }, 'held', 'UpgradeTargetChanged'],
  ] as const)('%s', (_case, tag, recorded, kind, reason) => {
    const state = upgradeState(tag, recorded);
    expect(state.kind).toBe(kind);
    expect(state.kind === 'held' ? state.report.reason : undefined).toBe(reason);
  });
});

describe('a Keystone upgraded to a newer release', () => {
  it('records the release its first db_sync installed', async () => {
    const { world } = await install('2022.2-a');
    expect(status(world)).toMatchObject({ installedRelease: '2022.2' });
    expect(status(world)['targetRelease']).toBeUndefined();
  });

  it('expands, migrates, rolls the pods, then contracts, each step once the one before it is done, and writes nothing after', async () => {
    const { world, clock } = await install('2022.2-a');
    const syncJob = world.get(jobRef('keystone-db-sync'));
    setTag(world, '2025.1-b');

    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Expanding' });
    expect(jobImage(world.get(jobRef('keystone-db-expand')))).toMatchObject({ image: 'keystone:2025.1-b', command: ['/bin/sh', '-eu', '-c', expect.stringContaining('db_sync --expand')] });
    expect(world.get(jobRef('keystone-db-migrate'))).toBeUndefined();
    expect(imageOfDeployment(world)).toBe('keystone:2022.2-a');
    expect(condition(world, 'Ready')).toMatchObject({ status: 'False' });
    expect(condition(world, 'DatabaseReady')?.message).toMatch(/^upgrading from 2022.2 to 2025.1: db_sync --expand Job keystone-db-expand started/);

    finishJob(world, 'keystone-db-expand');
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ upgradePhase: 'Migrating' });
    expect(jobImage(world.get(jobRef('keystone-db-migrate')))).toMatchObject({ image: 'keystone:2025.1-b', command: ['/bin/sh', '-eu', '-c', expect.stringContaining('db_sync --migrate')] });
    expect(imageOfDeployment(world)).toBe('keystone:2022.2-a');

    finishJob(world, 'keystone-db-migrate');
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ upgradePhase: 'RollingUpdate' });
    expect(imageOfDeployment(world)).toBe('keystone:2025.1-b');
    expect(world.get(jobRef('keystone-db-contract'))).toBeUndefined();

    // Not before every pod runs the new release.
    await reconcile(world, clock);
    expect(world.get(jobRef('keystone-db-contract'))).toBeUndefined();
    rollOut(world);
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ upgradePhase: 'Contracting' });
    expect(jobImage(world.get(jobRef('keystone-db-contract')))).toMatchObject({ image: 'keystone:2025.1-b', command: ['/bin/sh', '-eu', '-c', expect.stringContaining('db_sync --contract')] });

    finishJob(world, 'keystone-db-contract');
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ installedRelease: '2025.1' });
    expect(status(world)['targetRelease']).toBeUndefined();
    expect(status(world)['upgradePhase']).toBeUndefined();
    expect(condition(world, 'Ready')).toMatchObject({ status: 'True' });
    // The whole db_sync did not run: it would have contracted the schema under the old pods.
    expect(world.get(jobRef('keystone-db-sync'))?.metadata.uid).toBe(syncJob?.metadata.uid);

    const resync = await reconcile(world, clock);
    expect(resync.steps.filter((s) => s.action.kind !== 'control.requeueAfter')).toEqual([]);
  });

  it('stops at a failed expand with the old pods serving, and goes on when the Job is deleted and runs again', async () => {
    const { world, clock } = await install('2022.2-a');
    setTag(world, '2025.1-b');
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-expand', 'Failed');
    const plan = await reconcile(world, clock);
    expect(plan.steps.filter((s) => s.action.kind !== 'k8s.status' && s.action.kind !== 'control.requeueAfter')).toEqual([]);
    expect(condition(world, 'DatabaseReady')).toMatchObject({ status: 'False', reason: 'JobFailed' });
    expect(condition(world, 'DatabaseReady')?.message).toContain('upgrading from 2022.2 to 2025.1: db_sync --expand Job keystone-db-expand failed');
    expect(imageOfDeployment(world)).toBe('keystone:2022.2-a');
    expect(world.get(jobRef('keystone-db-migrate'))).toBeUndefined();

    world.remove(jobRef('keystone-db-expand'));
    await reconcile(world, clock);
    expect(world.get(jobRef('keystone-db-expand'))).toBeDefined();
    finishJob(world, 'keystone-db-expand');
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ upgradePhase: 'Migrating' });
  });

  it('is called off by setting the tag back before the pods move, and the old release keeps running', async () => {
    const { world, clock } = await install('2022.2-a');
    setTag(world, '2025.1-b');
    await reconcile(world, clock);
    setTag(world, '2022.2-a');
    await reconcile(world, clock);
    expect(status(world)).toMatchObject({ installedRelease: '2022.2' });
    expect(status(world)['targetRelease']).toBeUndefined();
    expect(condition(world, 'Ready')).toMatchObject({ status: 'True' });
    expect(imageOfDeployment(world)).toBe('keystone:2022.2-a');
    // The expand Job that had started is deleted with the upgrade; a finished upgrade's Jobs stay as its record.
    expect(world.get(jobRef('keystone-db-expand'))).toBeUndefined();
  });

  it.each([
    ['an older release', '2025.1-a', '2024.1-b', 'DowngradeRefused'],
    ['a tag without a release', '2022.2-a', 'latest', 'ReleaseUnknown'],
  ])('refuses %s and leaves the pods and the schema alone', async (_case, installed, next, reason) => {
    const { world, clock } = await install(installed);
    const before = imageOfDeployment(world);
    setTag(world, next);
    const plan = await reconcile(world, clock);
    expect(plan.steps.filter((s) => s.action.kind !== 'k8s.status' && s.action.kind !== 'control.requeueAfter')).toEqual([]);
    expect(condition(world, 'DatabaseReady')).toMatchObject({ status: 'False', reason });
    expect(condition(world, 'Ready')).toMatchObject({ status: 'False', reason });
    expect(imageOfDeployment(world)).toBe(before);
  });

  it('holds an upgrade whose tag names a third release, keeping its record', async () => {
    const { world, clock } = await install('2022.2-a');
    setTag(world, '2025.1-b');
    await reconcile(world, clock);
    setTag(world, '2024.2-c');
    await reconcile(world, clock);
    expect(condition(world, 'DatabaseReady')).toMatchObject({ status: 'False', reason: 'UpgradeTargetChanged' });
    expect(status(world)).toMatchObject({ installedRelease: '2022.2', targetRelease: '2025.1', upgradePhase: 'Expanding' });
    expect(jobImage(world.get(jobRef('keystone-db-expand')))).toMatchObject({ image: 'keystone:2025.1-b' });
  });
});
