import { expect } from '@jest/globals';
import { converge, coreTypes, InMemoryWorld, type KubeObject, type ObjectRef } from '@keyward/kernel';
import { FakeClock, simulateKeystone, type SimulatedKeystone } from '@keyward/kernel/testing';
import { defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';

export const namespace = 'identity';
export const b64 = (text: string): string => Buffer.from(text).toString('base64');

export const baseSpec = {
  image: { repository: 'keystone', tag: '27.0.0' },
  database: { host: 'mariadb.db', secretRef: { name: 'keystone-db' } },
  bootstrap: { adminPasswordSecretRef: { name: 'keystone-admin' } },
};

/** The world a Keystone runs in: the API server, and the Keystone its pods would serve (for the API check). */
export type KeystoneWorld = InMemoryWorld<{ readonly keystone: SimulatedKeystone }>;

export function keystoneWorld(): KeystoneWorld {
  return new InMemoryWorld({ keystone: simulateKeystone });
}

export function putInputs(world: KeystoneWorld, adminPassword = 'admin-pass-1'): void {
  world.put(coreTypes.secret, { metadata: { name: 'keystone-db', namespace }, data: { username: b64('keystone'), password: b64('db-pass-1') } });
  world.put(coreTypes.secret, { metadata: { name: 'keystone-admin', namespace }, data: { password: b64(adminPassword) } });
}

export function putKeystone(world: KeystoneWorld, spec: Record<string, unknown> = baseSpec): KubeObject {
  return world.put(keystoneType, { metadata: { name: 'keystone', namespace }, spec });
}

export const jobRef = (name: string): ObjectRef => ({ type: coreTypes.job, namespace, name });
export const deploymentRef: ObjectRef = { type: coreTypes.deployment, namespace, name: 'keystone' };

/** A world with the input Secrets and a Keystone, and a clock at the start of 2026. */
export function setupWorld(spec?: Record<string, unknown>): { world: KeystoneWorld; clock: FakeClock } {
  const world = keystoneWorld();
  putInputs(world);
  putKeystone(world, spec);
  return { world, clock: new FakeClock('2026-01-01T00:00:00Z') };
}

/**
 * Plays the Job controller: a Job that exists completes (or fails). A completed bootstrap has done what
 * keystone-manage bootstrap does: the admin user has the password of the admin Secret.
 */
export function finishJob(world: KeystoneWorld, name: string, outcome: 'Complete' | 'Failed' = 'Complete'): void {
  if (world.get(jobRef(name)) === undefined) return;
  if (name.endsWith('-bootstrap') && outcome === 'Complete') {
    const password = (world.get({ type: coreTypes.secret, namespace, name: 'keystone-admin' })?.['data'] as Record<string, string> | undefined)?.['password'] ?? '';
    world.apis.keystone.addUser('admin', Buffer.from(password, 'base64').toString('utf8'));
  }
  world.update(jobRef(name), (o) => ({ ...o, status: { conditions: [{ type: outcome, status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }));
}

const replicaCounts = (n: number) => ({ replicas: n, readyReplicas: n, updatedReplicas: n, availableReplicas: n });

/** Plays the Deployment controller: the current generation rolled out, every replica updated and available. */
export function rollOut(world: KeystoneWorld): void {
  if (world.get(deploymentRef) === undefined) return;
  world.update(deploymentRef, (o) => ({
    ...o,
    status: { observedGeneration: o.metadata.generation, ...replicaCounts((o['spec'] as { replicas?: number } | undefined)?.replicas ?? 3), conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }));
}

/**
 * Reconciles the Keystone, playing the Job controller (the Jobs named `jobs` complete) and the Deployment
 * controller between rounds, until a reconcile writes nothing; every round must succeed. Returns the rounds.
 */
export async function convergeKeystone(world: KeystoneWorld, clock: FakeClock, jobs: readonly string[] = ['keystone-db-sync', 'keystone-bootstrap']): Promise<number> {
  const rounds = await converge(keystoneServiceController, world, { type: keystoneType, namespace, name: 'keystone' }, {
    config: defaultKeystoneServiceConfig,
    now: () => clock.now(),
    maxRounds: 12,
    between: () => {
      for (const job of jobs) finishJob(world, job);
      rollOut(world);
      clock.advance(1_000);
    },
  });
  for (const { decision, result } of rounds) {
    if (decision.kind !== 'planned') throw new Error(decision.kind);
    expect(result?.ok).toBe(true);
  }
  return rounds.length;
}
