// `keyward plan` shows what the keystone-service controller would do for a Keystone, through its module alone,
// and does none of it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminKubeConfig, createTestNamespace, testEnvironment } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { keystoneType } from '@keyward/keystone-service';
import { parsePlanConfig } from '../src/config.js';
import { planCommand } from '../src/plan.js';

let kube: KubeClient;
let namespace: string;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan-ks');
  for (const [name, stringData] of [['keystone-db', { username: 'keystone', password: 'db-pass' }], ['keystone-admin', { password: 'admin-pass' }]] as const) {
    await kube.apply({ type: coreTypes.secret, namespace, name }, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, stringData }, true);
  }
  await kube.create({ type: keystoneType, namespace, name: 'keystone' }, {
    apiVersion: 'keystone.openstack.c5c3.io/v1alpha1', kind: 'Keystone', metadata: { name: 'keystone', namespace },
    spec: {
      image: { repository: 'keystone', tag: '27.0.0' },
      database: { host: 'mariadb.db', secretRef: { name: 'keystone-db' } },
      bootstrap: { adminPasswordSecretRef: { name: 'keystone-admin' } },
    },
  });
}, 120_000);

afterAll(() => {
  kube.close();
});

describe('keyward plan with the keystone-service controller', () => {
  it('plans the key Secrets and the db_sync Job of a new Keystone with the options given, and creates nothing', async () => {
    const parsed = parsePlanConfig([
      '--kubeconfig', testEnvironment().kubeconfig,
      '--namespace', namespace,
      '--controllers', 'keystone-service',
      '--keystone-cluster-domain', 'cluster.example',
      '--exit-code',
    ], {});
    if (!parsed.ok) throw new Error(parsed.error);
    let output = '';
    const status = await planCommand(parsed.config, (text) => { output += text; });
    expect(output).toContain('planning with --keystone-cluster-domain cluster.example');
    expect(output).toContain(`Keystone ${namespace}/keystone`);
    expect(output).toContain(`create Secret ${namespace}/keystone-fernet-keys`);
    expect(output).toContain(`create Secret ${namespace}/keystone-credential-keys`);
    expect(output).toContain(`create Job ${namespace}/keystone-db-sync`);
    expect(status).toBe(2);
    const { items: secrets } = await kube.listAll(coreTypes.secret, { namespace });
    expect(secrets.map((secret) => secret.metadata.name).sort()).toEqual(['keystone-admin', 'keystone-db']);
    const { items: jobs } = await kube.listAll(coreTypes.job, { namespace });
    expect(jobs).toEqual([]);
  });
});
