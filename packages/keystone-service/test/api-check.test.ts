// KeystoneAPIReady is what the API answered to a fresh token request for the bootstrap admin, asked through the
// Service once bootstrap has made that user: against the simulated Keystone, a refusal is reported with what
// Keystone said, warned about once per transition, and no password reaches the status or an event.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, findCondition, reconcileOnce, sensitive, type ObjectRef, type Plan } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import type { FakeClock} from '@keyward/kernel/testing';
import { actionKinds, actionsOf, fixedEntropy } from '@keyward/kernel/testing';
import { isRight } from 'fp-ts/lib/Either.js';
import { decodeKeystone, defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';
import { FIRST_CHECK_AFTER_MS, apiReport } from '../src/api-check.js';
import type { KeystoneAction } from '../src/vocabulary.js';
import { podType } from '../src/api.js';
import { b64, finishJob, namespace, rollOut, setupWorld, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };
const ENDPOINT = 'http://keystone.identity.svc.cluster.local:5000/v3';

async function reconcile(world: KeystoneWorld, clock: FakeClock): Promise<Plan<KeystoneAction>> {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(1) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  expect(outcome.result?.ok).toBe(true);
  return outcome.decision.plan;
}

const writes = (plan: Plan<KeystoneAction>): string[] => actionKinds(plan).filter((kind) => kind !== 'control.requeueAfter');

function condition(world: KeystoneWorld, type: string) {
  return findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown } | undefined)?.conditions), type);
}

/** Whether the controller's observe asks the API for a token now. */
function asksForToken(world: KeystoneWorld): boolean {
  const object = world.get(ref);
  const decoded = object === undefined ? undefined : decodeKeystone(object);
  if (decoded === undefined || !isRight(decoded)) throw new Error('no Keystone that decodes');
  return keystoneServiceController.observe(decoded.right, defaultKeystoneServiceConfig).apiToken !== undefined;
}

/** Reconciles, playing db_sync and the rollout (not bootstrap), until the bootstrap Job is all that is left. */
async function upToBootstrap(world: KeystoneWorld, clock: FakeClock): Promise<void> {
  for (let round = 0; round < 8 && world.get({ type: coreTypes.job, namespace, name: 'keystone-bootstrap' }) === undefined; round++) {
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-sync');
    rollOut(world);
  }
}

/** A Keystone that has run bootstrap and been checked once. */
async function checked(): Promise<{ world: KeystoneWorld; clock: FakeClock }> {
  const { world, clock } = setupWorld();
  await upToBootstrap(world, clock);
  finishJob(world, 'keystone-bootstrap');
  await reconcile(world, clock);
  await reconcile(world, clock);
  return { world, clock };
}

describe('KeystoneAPIReady', () => {
  it('asks for a token only once bootstrap has made the admin user, then says the API issued one', async () => {
    const { world, clock } = setupWorld();
    await upToBootstrap(world, clock);
    await reconcile(world, clock);
    expect(condition(world, 'DeploymentReady')?.status).toBe('True');
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'Unknown', reason: 'WaitingForBootstrap' });
    expect(asksForToken(world)).toBe(false);

    // Bootstrap completes: recorded first, and the check follows at once.
    finishJob(world, 'keystone-bootstrap');
    const recorded = await reconcile(world, clock);
    expect(actionsOf(recorded, 'control.requeueAfter').map((step) => step.afterMs)).toContain(FIRST_CHECK_AFTER_MS);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'Unknown', reason: 'Checking' });
    expect(condition(world, 'Ready')?.status).toBe('Unknown');
    expect(asksForToken(world)).toBe(true);

    await reconcile(world, clock);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'True', reason: 'TokenIssued', message: `${ENDPOINT} issued a token to admin` });
    expect(condition(world, 'Ready')).toMatchObject({ status: 'True', reason: 'Ready' });
    // Checked again on every resync; nothing to write while the answer stays.
    expect(writes(await reconcile(world, clock))).toEqual([]);
    expect(world.events).toEqual([]);
  });

  it('is False with what Keystone said when it refuses the token, warns once, and is True again when it issues one', async () => {
    const { world, clock } = await checked();
    // Keystone stops taking the admin's password (as one configured without password logins would).
    world.apis.keystone.addUser('admin', 'not-the-secret');
    const refused = await reconcile(world, clock);
    expect(writes(refused)).toEqual(['k8s.event', 'k8s.status']);
    const api = condition(world, 'KeystoneAPIReady');
    expect(api).toMatchObject({ status: 'False', reason: 'TokenRefused', message: `${ENDPOINT} issued no token to admin: Unauthorized: authenticate as admin: HTTP 401` });
    expect(condition(world, 'Ready')).toMatchObject({ status: 'False', reason: 'TokenRefused', message: api?.message });
    expect(world.events).toEqual([{ type: 'Warning', reason: 'TokenRefused', note: api?.message, regarding: 'identity/keystone' }]);

    // Still refused on the next resync: checked again, nothing written, no second Warning.
    expect(writes(await reconcile(world, clock))).toEqual([]);
    expect(world.events).toHaveLength(1);

    world.apis.keystone.addUser('admin', 'admin-pass-1');
    expect(writes(await reconcile(world, clock))).toEqual(['k8s.status']);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'True', reason: 'TokenIssued' });
    expect(world.events).toHaveLength(1);
    expect(JSON.stringify([world.get(ref)?.['status'], world.events])).not.toMatch(/admin-pass-1|not-the-secret/);
  });

  it('does not report a failed check while API pods are stopping, and checks again once they are gone', async () => {
    const { world, clock } = await checked();
    const stopping = { type: podType, namespace, name: 'keystone-old-pod' };
    world.put(podType, {
      metadata: { name: stopping.name, namespace, deletionTimestamp: '2026-01-01T00:00:00Z', labels: { 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'keystone', 'app.kubernetes.io/managed-by': 'keyward', 'app.kubernetes.io/component': 'api' } },
    });
    world.apis.keystone.addUser('admin', 'not-the-secret');
    // The Service may have sent the request to the pod that is stopping: what the condition said stands.
    expect(writes(await reconcile(world, clock))).toEqual([]);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'True', reason: 'TokenIssued' });
    world.remove(stopping);
    await reconcile(world, clock);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'False', reason: 'TokenRefused' });
    expect(world.events).toHaveLength(1);
  });

  it('waits for the bootstrap that a changed admin password runs, and checks with the new password after it', async () => {
    const { world, clock } = await checked();
    world.update({ type: coreTypes.secret, namespace, name: 'keystone-admin' }, (o) => ({ ...o, data: { password: b64('admin-pass-2') } }));
    await reconcile(world, clock);
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'Unknown', reason: 'WaitingForBootstrap' });
    // Ready says what is under way: bootstrap, not the check that waits for it.
    expect(condition(world, 'Ready')).toMatchObject({ status: 'False', reason: condition(world, 'BootstrapReady')?.reason });
    await reconcile(world, clock);
    finishJob(world, 'keystone-bootstrap');
    await reconcile(world, clock);
    expect(condition(world, 'BootstrapReady')?.status).toBe('True');
    expect(condition(world, 'KeystoneAPIReady')).toMatchObject({ status: 'True', reason: 'TokenIssued' });
    expect(world.events).toEqual([]);
  });
});

describe('apiReport', () => {
  const check = { endpoint: ENDPOINT, adminUser: 'admin', bootstrapped: true };

  it('names a Keystone that could not be reached apart from one that refused', () => {
    const report = apiReport({ ...check, check: { issued: false, reason: 'Unavailable', message: 'Keystone is unavailable: connect ECONNREFUSED 10.0.0.1:5000' } }, sensitive('pw'));
    expect(report).toEqual({ status: 'False', reason: 'TokenRequestFailed', message: `${ENDPOINT} issued no token to admin: Unavailable: Keystone is unavailable: connect ECONNREFUSED 10.0.0.1:5000` });
  });

  it('keeps what the condition said for a failure while API pods are stopping, not for a token issued then', () => {
    const refused = { issued: false as const, reason: 'Unavailable', message: 'connection reset' };
    expect(apiReport({ ...check, check: refused }, sensitive('pw'), true)).toBeUndefined();
    expect(apiReport({ ...check, check: { issued: true } }, sensitive('pw'), true)).toMatchObject({ status: 'True' });
  });

  it('masks the password should Keystone ever echo it', () => {
    const report = apiReport({ ...check, check: { issued: false, reason: 'BadRequest', message: 'invalid password s3cret-pw' } }, sensitive('s3cret-pw'));
    expect(report?.message).toBe(`${ENDPOINT} issued no token to admin: BadRequest: invalid password ***`);
  });
});
