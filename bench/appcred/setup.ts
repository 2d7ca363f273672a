// What the appcred benchmarks set up: a Keystone service user, its password Secret and CRs that use them.
import { randomBytes } from 'node:crypto';
import { coreTypes, findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { ContentType, type KubeClient } from '@keyward/runtime/io';
import { CONDITION_READY, appCredType, keystoneApiType } from '@keyward/keystone-appcred';
import { KeystoneAdmin, type EnvironmentInfo } from '@keyward/test-env';
import { createNamespace } from '../support/environment.js';
import { inBatches } from '../support/pool.js';

export const PASSWORD_SECRET = 'osp-secret';
export const PASSWORD_KEY = 'ServicePassword';
export const SERVICE_USER = 'bench-service';

export interface ServiceUser {
  readonly userName: string;
  readonly password: string;
}

/** The Keystone URL (Identity v3) and a service user whose password the CRs' Secret holds. */
export async function serviceUser(info: EnvironmentInfo): Promise<{ keystoneUrl: string; user: ServiceUser }> {
  if (info.keystone === undefined) throw new Error('the environment was started without Keystone');
  const user = { userName: SERVICE_USER, password: `pw-${randomBytes(12).toString('hex')}` };
  await (await KeystoneAdmin.login(info.keystone)).ensureServiceUser(user);
  return { keystoneUrl: info.keystone.url, user };
}

export function crName(index: number): string {
  return `ac-svc-${String(index)}`;
}

/** A namespace with the password Secret and `count` CRs for the user (created 50 at a time). */
export async function namespaceWithCrs(kube: KubeClient, namespace: string, user: ServiceUser, count: number): Promise<void> {
  await createNamespace(kube, namespace);
  await kube.create({ type: coreTypes.secret, namespace, name: PASSWORD_SECRET }, { metadata: { name: PASSWORD_SECRET }, stringData: { [PASSWORD_KEY]: user.password } });
  await inBatches(count, 50, (i) => {
    const name = crName(i);
    return kube.create({ type: appCredType, namespace, name }, {
      apiVersion: 'keystone.openstack.org/v1beta1',
      kind: 'KeystoneApplicationCredential',
      metadata: { name, namespace },
      spec: { secret: PASSWORD_SECRET, passwordSelector: PASSWORD_KEY, userName: user.userName, roles: ['service'] },
    });
  });
}

export function isReady(cr: KubeObject): boolean {
  const conditions = (cr['status'] as { conditions?: readonly Condition[] } | undefined)?.conditions;
  return findCondition(conditions, CONDITION_READY)?.status === 'True';
}

/** A ready KeystoneAPI as keystone-operator publishes it (the endpoint without /v3), where the controller finds Keystone by default. */
export async function keystoneApi(kube: KubeClient, namespace: string, keystoneUrl: string): Promise<void> {
  const ref = { type: keystoneApiType, namespace, name: 'keystone' };
  await kube.create(ref, { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name: 'keystone' }, spec: {} });
  await kube.patch(ref, {
    status: { apiEndpoints: { internal: keystoneUrl.replace(/\/v3$/, '') }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }, ContentType.mergePatch, 'status');
}
