// A Keystone whose database is a MariaDB operator's cluster (`database.clusterRef`), at the API level: the
// MariaDB operator does not run here, so its Database, User and Grant kinds are served by stand-in CRDs (same
// group, version, kinds and status subresource, any content) and the test plays the operator by setting their
// Ready conditions. The controller creates Database and User, the Grant once the User is ready, and the
// db_sync Job once all three are, each step woken by the watch on those objects.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { coreTypes, type KubeObject, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { adminKubeConfig, createTestNamespace, rememberSecret, waitFor } from '@keyward/test-env';
import { MARIADB_GROUP } from '../src/api.js';
import { mariaDbDatabaseType, mariaDbGrantType, mariaDbUserType, names } from '../src/index.js';
import { conditionOf, keystoneRef, startController, waitForObject, type RunningController } from './pods/harness.js';

const crdType: ResourceType = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };
const CR = 'identity';

let kube: KubeClient;
let namespace: string;
let controller: RunningController;

/** A stand-in for one of the MariaDB operator's CRDs: its names and status subresource, any content. */
function standInCrd(type: ResourceType): KubeObject {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${type.plural}.${MARIADB_GROUP}` },
    spec: {
      group: MARIADB_GROUP,
      scope: 'Namespaced',
      names: { kind: type.kind, plural: type.plural, singular: type.kind.toLowerCase(), listKind: `${type.kind}List` },
      versions: [{ name: type.version, served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: open, status: open } } } }],
    },
  };
}

async function installStandIn(type: ResourceType): Promise<void> {
  const ref = { type: crdType, name: `${type.plural}.${MARIADB_GROUP}` };
  if ((await kube.get(ref)) === undefined) await kube.create(ref, standInCrd(type));
  // A list fails until the API server serves the new kind.
  await waitFor(async () => { await kube.list(type, { namespace: 'default' }); return true; }, {
    what: `${type.kind} to be served`, timeoutMs: 30_000, intervalMs: 200,
  });
}

const mariaDbRef = (type: ResourceType): ObjectRef => ({ type, namespace, name: CR });

/** Plays the MariaDB operator: the object is ready. */
async function markReady(type: ResourceType): Promise<void> {
  await kube.patch(mariaDbRef(type), {
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Created', message: 'Created', lastTransitionTime: new Date().toISOString() }] },
  }, ContentType.mergePatch, 'status');
}

async function databaseCondition(): Promise<{ reason: string | undefined; message: string | undefined }> {
  const condition = conditionOf(await kube.get(keystoneRef(namespace, CR)), 'DatabaseReady');
  return { reason: condition?.reason, message: condition?.message };
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  for (const type of [mariaDbDatabaseType, mariaDbUserType, mariaDbGrantType]) await installStandIn(type);
  namespace = await createTestNamespace('ks-mariadb');
  await kube.create({ type: coreTypes.secret, namespace, name: 'keystone-db' }, { metadata: { name: 'keystone-db' }, stringData: { username: 'keystone', password: rememberSecret('db-password-for-the-cluster') } });
  await kube.create({ type: coreTypes.secret, namespace, name: 'keystone-admin' }, { metadata: { name: 'keystone-admin' }, stringData: { password: rememberSecret('admin-password-for-the-cluster') } });
  controller = await startController(kube, namespace);
}, 120_000);

afterAll(async () => {
  await controller.stop();
  kube.close();
});

describe('a Keystone on a MariaDB operator cluster (clusterRef)', () => {
  it('creates Database and User, then the Grant once the User is ready, then db_sync once all are ready', async () => {
    await kube.create(keystoneRef(namespace, CR), {
      apiVersion: 'keystone.openstack.c5c3.io/v1alpha1',
      kind: 'Keystone',
      metadata: { name: CR, namespace },
      spec: {
        image: { repository: 'keystone', tag: 'test' },
        database: { clusterRef: { name: 'mariadb' }, database: 'keystone', secretRef: { name: 'keystone-db' } },
        bootstrap: { adminPasswordSecretRef: { name: 'keystone-admin' } },
      },
    });
    const database = await waitForObject(kube, mariaDbRef(mariaDbDatabaseType), 'the MariaDB Database', (object) => object !== undefined);
    const user = await waitForObject(kube, mariaDbRef(mariaDbUserType), 'the MariaDB User', (object) => object !== undefined);
    expect(database?.['spec']).toEqual({ mariaDbRef: { name: 'mariadb' }, name: 'keystone', characterSet: 'utf8mb4', collate: 'utf8mb4_general_ci' });
    expect(user?.['spec']).toEqual({ mariaDbRef: { name: 'mariadb' }, name: CR, passwordSecretKeyRef: { name: 'keystone-db', key: 'password' }, host: '%' });
    expect(database?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Keystone', name: CR, controller: true });
    await waitFor(async () => ((await databaseCondition()).reason === 'WaitingForDatabase' ? true : undefined), { what: 'DatabaseReady to wait', timeoutMs: 30_000, intervalMs: 200 });
    expect(await databaseCondition()).toEqual({ reason: 'WaitingForDatabase', message: `waiting for the MariaDB User ${CR} to be ready` });
    expect(await kube.get(mariaDbRef(mariaDbGrantType))).toBeUndefined();

    await markReady(mariaDbUserType);
    const grant = await waitForObject(kube, mariaDbRef(mariaDbGrantType), 'the MariaDB Grant', (object) => object !== undefined);
    expect(grant?.['spec']).toEqual({ mariaDbRef: { name: 'mariadb' }, privileges: ['ALL PRIVILEGES'], database: 'keystone', table: '*', username: CR, host: '%' });
    await waitFor(async () => ((await databaseCondition()).message === `waiting for the MariaDB Database ${CR} to be ready` ? true : undefined), {
      what: 'DatabaseReady to wait for the Database', timeoutMs: 30_000, intervalMs: 200,
    });
    expect(await kube.get({ type: coreTypes.job, namespace, name: names.dbSyncJob(CR) })).toBeUndefined();

    await markReady(mariaDbDatabaseType);
    await markReady(mariaDbGrantType);
    await waitForObject(kube, { type: coreTypes.job, namespace, name: names.dbSyncJob(CR) }, 'the db_sync Job', (object) => object !== undefined);
    expect(await databaseCondition()).toMatchObject({ reason: 'Running' });
    // The pods reach the cluster through its Service's in-cluster name.
    const connection = await kube.get({ type: coreTypes.secret, namespace, name: names.dbConnection(CR) });
    const url = Buffer.from((connection?.['data'] as Record<string, string>)['connection'] ?? '', 'base64').toString();
    expect(url.replace(/:[^:@/]*@/, ':***@')).toBe(`mysql+pymysql://keystone:***@mariadb.${namespace}.svc.cluster.local:3306/keystone?charset=utf8mb4`);
  }, 120_000);
});
