import { coreTypes, InMemoryWorld, type KubeObject, type ObjectRef } from '@keyward/kernel';
import { FakeClock } from '@keyward/kernel/testing';
import { keystoneType } from '../src/index.js';

export const namespace = 'identity';
export const b64 = (text: string): string => Buffer.from(text).toString('base64');

export const baseSpec = {
  image: { repository: 'keystone', tag: '27.0.0' },
  database: { host: 'mariadb.db', secretRef: { name: 'keystone-db' } },
  bootstrap: { adminPasswordSecretRef: { name: 'keystone-admin' } },
};

export function putInputs(world: InMemoryWorld, adminPassword = 'admin-pass-1'): void {
  world.put(coreTypes.secret, { metadata: { name: 'keystone-db', namespace }, data: { username: b64('keystone'), password: b64('db-pass-1') } });
  world.put(coreTypes.secret, { metadata: { name: 'keystone-admin', namespace }, data: { password: b64(adminPassword) } });
}

export function putKeystone(world: InMemoryWorld, spec: Record<string, unknown> = baseSpec): KubeObject {
  return world.put(keystoneType, { metadata: { name: 'keystone', namespace }, spec });
}

export const jobRef = (name: string): ObjectRef => ({ type: coreTypes.job, namespace, name });
export const deploymentRef: ObjectRef = { type: coreTypes.deployment, namespace, name: 'keystone' };

/** A world with the input Secrets and a Keystone, and a clock at the start of 2026. */
export function setupWorld(spec?: Record<string, unknown>): { world: InMemoryWorld; clock: FakeClock } {
  const world = new InMemoryWorld();
  putInputs(world);
  putKeystone(world, spec);
  return { world, clock: new FakeClock('2026-01-01T00:00:00Z') };
}

/** Plays the Job controller: a Job that exists completes (or fails). */
export function finishJob(world: InMemoryWorld, name: string, outcome: 'Complete' | 'Failed' = 'Complete'): void {
  if (world.get(jobRef(name)) === undefined) return;
  world.update(jobRef(name), (o) => ({ ...o, status: { conditions: [{ type: outcome, status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }));
}

/** Plays the Deployment controller: the current generation rolled out, every replica updated and available. */
export function rollOut(world: InMemoryWorld): void {
  if (world.get(deploymentRef) === undefined) return;
  world.update(deploymentRef, (o) => ({
    ...o,
    status: { observedGeneration: o.metadata.generation, replicas: 3, readyReplicas: 3, updatedReplicas: 3, availableReplicas: 3, conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }));
}
