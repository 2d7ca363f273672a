import { coreTypes, type KubeObject } from '@keyward/kernel';
import type { InMemoryWorld } from '@keyward/kernel';
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
