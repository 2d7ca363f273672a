import { isLeft } from 'fp-ts/lib/Either.js';
import { DAY_MS, coreTypes, type KubeObject, type Plan, type PlanFailure } from '@keyward/core';
import { FakeClock, InMemoryWorld, fixedEntropy, type PlanResult } from '@keyward/core/testing';
import { appCredType, keystoneApiType, type KeystoneApplicationCredential } from '../src/api.js';
import { defaultAppCredConfig, type AppCredConfig } from '../src/config.js';
import { decodeAppCred } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { failed, reconcile } from '../src/reconcile.js';

export const NS = 'openstack';
export const PASSWORD = 'barbican-password-9f8e7d';
export const config: AppCredConfig = { ...defaultAppCredConfig };

export const crRef = (name = 'ac-barbican') => ({ type: appCredType, namespace: NS, name });
export const secretRef = (name: string) => ({ type: coreTypes.secret, namespace: NS, name });

export const baseSpec = {
  secret: 'osp-secret',
  passwordSelector: 'BarbicanPassword',
  userName: 'barbican',
  expirationDays: 365,
  gracePeriodDays: 182,
  roles: ['service'],
  unrestricted: false,
};

/** A world with a ready KeystoneAPI, the password Secret, the Keystone user and one CR. */
export function setup(spec: Record<string, unknown> = baseSpec, status?: Record<string, unknown>): { world: InMemoryWorld; clock: FakeClock } {
  const world = new InMemoryWorld();
  world.put(keystoneApiType, {
    metadata: { name: 'keystone', namespace: NS },
    status: { apiEndpoints: { internal: 'http://keystone-internal.openstack.svc:5000' }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  });
  world.put(coreTypes.secret, { metadata: { name: 'osp-secret', namespace: NS }, data: { BarbicanPassword: Buffer.from(`${PASSWORD}\n`).toString('base64') } });
  world.addKeystoneUser('barbican', PASSWORD);
  world.put(appCredType, { metadata: { name: 'ac-barbican', namespace: NS }, spec, ...(status === undefined ? {} : { status }) });
  return { world, clock: new FakeClock('2026-03-01T12:00:00Z') };
}

export function cr(world: InMemoryWorld, name = 'ac-barbican'): KeystoneApplicationCredential {
  const object = world.get(crRef(name));
  if (object === undefined) throw new Error(`${name} is gone`);
  const decoded = decodeAppCred(object);
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

export function plan(world: InMemoryWorld, clock: FakeClock, seed = 0, cfg: AppCredConfig = config, name = 'ac-barbican'): Plan {
  const primary = cr(world, name);
  return reconcile({ primary, observed: world.query(observe(primary, cfg)), now: clock.now(), config: cfg, entropy: fixedEntropy(seed) });
}

/**
 * One reconcile as the runtime does it: plan, run, and on failure record it in status. A reconcile that only
 * added the finalizer is followed by the one its change triggers.
 */
export async function reconcileOnce(world: InMemoryWorld, clock: FakeClock, seed = 0, cfg: AppCredConfig = config, name = 'ac-barbican'): Promise<PlanResult> {
  const first = plan(world, clock, seed, cfg, name);
  if (first.steps.length === 1 && first.steps[0]?.action.kind === 'k8s.addFinalizer') await world.run(first);
  const primary = cr(world, name);
  const result = await world.run(plan(world, clock, seed, cfg, name));
  if (!result.ok) {
    const step = result.steps.find((s) => s.outcome === 'failed');
    const failure: PlanFailure = { step: step?.summary ?? '', action: step?.kind ?? '', reason: result.error?.reason ?? '', message: result.error?.message ?? '', retryable: true };
    await world.run(failed(primary, failure, clock.now()));
  }
  return result;
}

export function secretsOf(world: InMemoryWorld): KubeObject[] {
  return world.list(coreTypes.secret, NS, { 'application-credential-service': 'barbican' });
}

export const days = (n: number): number => n * DAY_MS;
