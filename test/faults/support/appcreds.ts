// The KeystoneApplicationCredentials a scenario works on: created for the environment's service user, and
// rotated by moving their expiry into the past.
import { ContentType } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { PASSWORD_KEY, PASSWORD_SECRET, type FaultEnvironment } from './environment.js';

export async function createAppCreds(fault: FaultEnvironment, namespace: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await fault.kube.create({ type: appCredType, namespace, name }, {
      apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name, namespace },
      spec: { secret: PASSWORD_SECRET, passwordSelector: PASSWORD_KEY, userName: fault.user.userName, roles: ['service'] },
    });
  }
}

/** Moves each CR's status.expiresAt into the past: the next reconcile rotates its credential. */
export async function expireAppCreds(fault: FaultEnvironment, namespace: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await fault.kube.patch({ type: appCredType, namespace, name }, { status: { expiresAt: '2001-01-01T00:00:00Z' } }, ContentType.mergePatch, 'status');
  }
}
