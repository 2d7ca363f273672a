import { isLeft } from 'fp-ts/lib/Either.js';
import { DAY_MS } from '@keyward/kernel/model';
import { coreTypes, type KubeObject, type Plan, InMemoryWorld, converge, reconcileOnce } from '@keyward/kernel';
import { FakeClock, actionKinds, fixedEntropy, simulateKeystone, type ReconcileOnceResult, type SimulatedKeystone } from '@keyward/kernel/testing';
import { CREDENTIAL_NAME_ANNOTATION, CR_FINALIZER, appCredType, keystoneApiType, type KeystoneApplicationCredential } from '../src/api.js';
import { defaultAppCredConfig, type AppCredConfig } from '../src/config.js';
import { appCredController } from '../src/controller.js';
import { decodeAppCred } from '../src/decode.js';
import { observe } from '../src/observe.js';
import { reconcile } from '../src/reconcile.js';
import type { AppCredAction } from '../src/vocabulary.js';

export const NS = 'openstack';
export const PASSWORD = 'barbican-password-9f8e7d';
export const config: AppCredConfig = { ...defaultAppCredConfig };

/** Kubernetes and Keystone in memory. */
export type AppCredWorld = InMemoryWorld<{ readonly keystone: SimulatedKeystone }>;

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
export function setup(spec: Record<string, unknown> = baseSpec, status?: Record<string, unknown>): { world: AppCredWorld; clock: FakeClock } {
  const world = new InMemoryWorld({ keystone: simulateKeystone });
  world.put(keystoneApiType, {
    metadata: { name: 'keystone', namespace: NS },
    status: { apiEndpoints: { internal: 'http://keystone-internal.openstack.svc:5000' }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  });
  world.put(coreTypes.secret, { metadata: { name: 'osp-secret', namespace: NS }, data: { BarbicanPassword: Buffer.from(`${PASSWORD}\n`).toString('base64') } });
  world.apis.keystone.addUser('barbican', PASSWORD);
  world.put(appCredType, { metadata: { name: 'ac-barbican', namespace: NS }, spec, ...(status === undefined ? {} : { status }) });
  return { world, clock: new FakeClock('2026-03-01T12:00:00Z') };
}

/** The Keystone user of the CRs (as the simulator identifies it), and its credentials. */
export const credentials = (world: AppCredWorld) => world.apis.keystone.credentials('user-barbican');

export function cr(world: AppCredWorld, name = 'ac-barbican'): KeystoneApplicationCredential {
  const object = world.get(crRef(name));
  if (object === undefined) throw new Error(`${name} is gone`);
  const decoded = decodeAppCred(object);
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

/**
 * The name the CR records for its newest creation: a rotation's in status.pendingACName, the first credential's
 * in the annotation. A credential of that name that no Secret holds is one a later reconcile cleans up.
 */
export function recordedName(world: AppCredWorld, name = 'ac-barbican'): string | undefined {
  const current = cr(world, name);
  return current.status.pendingACName ?? current.metadata.annotations?.[CREDENTIAL_NAME_ANNOTATION];
}

/** The CR as it is once it holds the finalizer and before anything else happened to it. */
export function holdFinalizer(world: AppCredWorld): void {
  const object = world.get(crRef());
  if (object === undefined) throw new Error('ac-barbican is gone');
  world.put(appCredType, { ...object, metadata: { ...object.metadata, finalizers: [CR_FINALIZER] } });
}

/** What a reconcile would do now, without running it: for assertions on the plan alone. */
export function plan(world: AppCredWorld, clock: FakeClock, seed = 0, cfg: AppCredConfig = config, name = 'ac-barbican'): Plan<AppCredAction> {
  const primary = cr(world, name);
  return reconcile({ primary, observed: world.query(observe(primary, cfg)), now: clock.now(), config: cfg, entropy: fixedEntropy(seed) });
}

/** What the kit's reconcileOnce gives for a CR. */
export type CrReconcile = ReconcileOnceResult<KeystoneApplicationCredential, AppCredAction>;

/**
 * The kit's reconcileOnce of a CR; when it only added the finalizer, the one that change brings at once in the
 * runtime follows. Fails when the current state could not be read.
 */
export async function reconcileCr(world: AppCredWorld, clock: FakeClock, seed = 0, cfg: AppCredConfig = config, name = 'ac-barbican'): Promise<CrReconcile> {
  const once = () => reconcileOnce(appCredController, world, crRef(name), { config: cfg, now: clock.now(), entropy: fixedEntropy(seed) });
  const first = await once();
  const { decision } = first;
  const outcome = decision.kind === 'planned' && first.result?.ok === true && actionKinds(decision.plan).join() === 'k8s.addFinalizer' ? await once() : first;
  if (outcome.decision.kind === 'unreadable') throw new Error(`${name}: the current state could not be read`, { cause: outcome.decision.error });
  return outcome;
}

/**
 * Reconciles a CR until a plan changes nothing, as the runtime would: reconcileCr with `seed`, then the kit's
 * converge, whose n-th reconcile draws its random names from `seed + n` (separate phases draw different ones).
 */
export async function convergeCr(world: AppCredWorld, clock: FakeClock, seed: number, maxRounds: number): Promise<readonly CrReconcile[]> {
  const first = await reconcileCr(world, clock, seed);
  return [first, ...await converge(appCredController, world, crRef(), { config, now: () => clock.now(), entropy: (round) => fixedEntropy(seed + round), maxRounds })];
}

export function secretsOf(world: AppCredWorld): KubeObject[] {
  return world.list(coreTypes.secret, NS, { 'application-credential-service': 'barbican' });
}

export const days = (n: number): number => n * DAY_MS;
