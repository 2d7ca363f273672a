import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Plan } from '@keyward/kernel';
import type { FakeClock } from '@keyward/kernel/testing';
import type { AppCredAction } from '../src/vocabulary.js';
import { convergeCr, cr, credentials, days, plan, reconcileCr, recordedName, secretsOf, setup, type AppCredWorld } from './harness.js';

function credentialIdIn(secret: Readonly<Record<string, unknown>>): string {
  return Buffer.from((secret['data'] as Record<string, string> | undefined)?.['AC_ID'] ?? '', 'base64').toString();
}

/**
 * Credentials in Keystone that nothing names: neither a Secret of the service nor the name the CR records.
 * Such a credential is lost to us: no later reconcile can find it to revoke it.
 */
function unaccounted(world: AppCredWorld): string[] {
  const stored = new Set(secretsOf(world).map(credentialIdIn));
  const pending = recordedName(world);
  return credentials(world).filter((c) => !stored.has(c.id) && c.name !== pending).map((c) => c.name);
}

/** The Keystone name of the credential the status points at. */
function currentName(world: AppCredWorld): string | undefined {
  return credentials(world).find((c) => c.id === cr(world).status.acID)?.name;
}

/** Runs the first `steps` steps of a plan and then stops, as a process killed mid-plan does (no compensation). */
async function runUntilCrash(world: AppCredWorld, whole: Plan<AppCredAction>, steps: number): Promise<void> {
  await world.run({ steps: whole.steps.slice(0, steps) });
}

/** Reconciles interrupted at the given step counts, checking after each that every credential is accounted for. */
async function crashRepeatedly(world: AppCredWorld, clock: FakeClock, crashes: readonly number[]): Promise<void> {
  for (const [attempt, steps] of crashes.entries()) {
    await runUntilCrash(world, plan(world, clock, attempt + 1), steps);
    expect(unaccounted(world)).toEqual([]);
  }
}

/** Reconciles until nothing is left to do (five reconciles at most); `seed` keeps the random names of separate phases apart. */
async function converge(world: AppCredWorld, clock: FakeClock, seed: number): Promise<void> {
  await convergeCr(world, clock, seed, 4);
}

const crashPoints = fc.array(fc.nat(12), { minLength: 1, maxLength: 6 });

describe('crashes never lose a credential', () => {
  it('while creating: every credential is named by a Secret or by the CR at every moment, and one remains', async () => {
    await fc.assert(
      fc.asyncProperty(crashPoints, async (crashes) => {
        const { world, clock } = setup();
        await crashRepeatedly(world, clock, crashes);
        await converge(world, clock, 100);
        const status = cr(world).status;
        expect(status.pendingACName).toBeUndefined();
        expect(recordedName(world)).toBe(currentName(world));
        expect(credentials(world).map((c) => c.id)).toEqual([status.acID]);
        expect(secretsOf(world).map((s) => s.metadata.name)).toEqual([status.secretName]);
      }),
      { numRuns: 150 },
    );
  });

  it('while rotating: the old and the new credential are each held by a Secret, and nothing else remains', async () => {
    await fc.assert(
      fc.asyncProperty(crashPoints, async (crashes) => {
        const { world, clock } = setup();
        await converge(world, clock, 100);
        const before = cr(world).status.acID;
        clock.advance(days(184));
        await crashRepeatedly(world, clock, crashes);
        await converge(world, clock, 200);
        const status = cr(world).status;
        expect(status.pendingACName).toBeUndefined();
        expect(status.acID).not.toBe(before);
        expect(credentials(world).map((c) => c.id).sort()).toEqual(secretsOf(world).map(credentialIdIn).sort());
        expect(secretsOf(world)).toHaveLength(2);
      }),
      { numRuns: 150 },
    );
  });

  it('a retry after an interrupted creation writes nothing before it reaches Keystone and reuses the recorded name', async () => {
    const { world, clock } = setup();
    const first = plan(world, clock, 1);
    await runUntilCrash(world, first, first.steps.findIndex((s) => s.action.kind === 'keystone.authenticate'));
    const recorded = recordedName(world);
    expect(recorded).toMatch(/^ac-barbican-/);

    const retry = plan(world, clock, 2);
    const kinds = retry.steps.map((s) => s.action.kind);
    expect(kinds.slice(0, kinds.indexOf('keystone.createApplicationCredential'))).toEqual(['keystone.authenticate', 'k8s.patch', 'keystone.revokeApplicationCredential']);
    expect(retry.steps.find((s) => s.action.kind === 'keystone.createApplicationCredential')?.action).toMatchObject({ name: recorded });
  });

  it('a recorded name that a stored credential also bears is given up, and the stored credential survives', async () => {
    const { world, clock } = setup();
    await converge(world, clock, 7);
    const stored = cr(world).status.acID;
    clock.advance(days(184));
    // The same entropy draws the same name as the stored credential's: Keystone refuses the create.
    const collision = await reconcileCr(world, clock, 7);
    expect(collision.error).toMatchObject({ api: 'keystone', reason: 'Conflict' });
    expect(cr(world).status.pendingACName).toBeUndefined();
    await converge(world, clock, 8);
    const status = cr(world).status;
    expect(status.acID).not.toBe(stored);
    expect(credentials(world).map((c) => c.id).sort()).toEqual([stored, status.acID].sort());
  });
});
