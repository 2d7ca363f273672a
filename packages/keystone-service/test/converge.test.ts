// The Keystone controller against the in-memory world until nothing is left to do. The simulated API server
// runs no pods, so the test plays the Deployment and Job controllers: it marks Jobs complete and the
// Deployment available by hand. The real pods come with the workload tier's integration tests.
import { describe, expect, it } from '@jest/globals';
import { coreTypes, findCondition, type KubeObject, type ObjectRef, reconcileOnce } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { FakeClock, actionKinds, fixedEntropy } from '@keyward/kernel/testing';
import { ANNOTATION_RUN_KEY, externalSecretType, podType } from '../src/api.js';
import { defaultKeystoneServiceConfig, keystoneServiceController, keystoneType } from '../src/index.js';
import { indices, type KeyRepository } from '../src/fernet.js';
import { b64, baseSpec, convergeKeystone, finishJob, keystoneWorld, namespace, putInputs, putKeystone, type KeystoneWorld } from './fixtures.js';

const ref: ObjectRef = { type: keystoneType, namespace, name: 'keystone' };
const job = (name: string): ObjectRef => ({ type: coreTypes.job, namespace, name });
const deploymentRef: ObjectRef = { type: coreTypes.deployment, namespace, name: 'keystone' };

function conditions(world: KeystoneWorld): Record<string, string> {
  const list = readConditions((world.get(ref)?.['status'] as { conditions?: unknown } | undefined)?.conditions);
  return Object.fromEntries(list.map((c) => [c.type, c.status]));
}

async function reconcile(world: KeystoneWorld, clock: FakeClock, seed = 0) {
  const outcome = await reconcileOnce(keystoneServiceController, world, ref, { config: defaultKeystoneServiceConfig, now: clock.now(), entropy: fixedEntropy(seed) });
  if (outcome.decision.kind !== 'planned') throw new Error(outcome.decision.kind);
  expect(outcome.result?.ok).toBe(true);
  return outcome.decision.plan;
}

const converge = (world: KeystoneWorld, clock: FakeClock): Promise<number> => convergeKeystone(world, clock);

const secretData = (world: KeystoneWorld, name: string): KeyRepository => {
  const data = (world.get({ type: coreTypes.secret, namespace, name })?.['data'] ?? {}) as Record<string, string>;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
};

function setup(): { world: KeystoneWorld; clock: FakeClock } {
  const world = keystoneWorld();
  putInputs(world);
  putKeystone(world);
  return { world, clock: new FakeClock('2026-01-01T00:00:00Z') };
}

describe('a Keystone in the in-memory world', () => {
  it('becomes Ready through the ordered steps, then resyncs with zero writes', async () => {
    const { world, clock } = setup();
    await converge(world, clock);
    expect(conditions(world)).toEqual({
      Ready: 'True', SecretsReady: 'True', FernetKeysReady: 'True', CredentialKeysReady: 'True', DatabaseReady: 'True', DeploymentReady: 'True', KeystoneAPIReady: 'True', BootstrapReady: 'True',
    });
    const status = world.get(ref)?.['status'] as Record<string, unknown>;
    expect(status['endpoint']).toBe('http://keystone.identity.svc.cluster.local:5000/v3');
    expect(status['configMapName']).toMatch(/^keystone-config-[0-9a-f]{8}$/);
    expect(status['nextFernetRotation']).toBe('2026-01-04T00:00:00Z');
    expect(indices(secretData(world, 'keystone-fernet-keys'))).toEqual([0, 1, 2]);
    expect(indices(secretData(world, 'keystone-credential-keys'))).toEqual([0, 1, 2]);
    expect(secretData(world, 'keystone-db-connection')['connection']).toBe('mysql+pymysql://keystone:db-pass-1@mariadb.db:3306/keystone?charset=utf8mb4');
    const owned = [...world.list(coreTypes.secret, namespace), ...world.list(coreTypes.configMap, namespace), ...world.list(coreTypes.job, namespace), ...world.list(coreTypes.deployment, namespace), ...world.list(coreTypes.service, namespace)]
      .filter((o) => !['keystone-db', 'keystone-admin'].includes(o.metadata.name));
    expect(owned.length).toBe(8);
    for (const object of owned) expect(object.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Keystone', name: 'keystone', controller: true });

    // Resync: nothing to write, only the requeue for the next rotation.
    const plan = await reconcile(world, clock, 7);
    expect(actionKinds(plan)).toEqual(['control.requeueAfter']);
    // No secret in any status.
    expect(JSON.stringify(world.get(ref)?.['status'])).not.toMatch(/db-pass-1|admin-pass-1/);
  });

  it('rotates the fernet keys when the schedule is due, with an optimistic-concurrency write', async () => {
    const { world, clock } = setup();
    await converge(world, clock);
    const before = secretData(world, 'keystone-fernet-keys');
    clock.set('2026-01-04T00:00:30Z');
    const plan = await reconcile(world, clock, 3);
    const patch = plan.steps.find((s) => s.action.kind === 'k8s.patch')?.action;
    expect(patch).toMatchObject({ kind: 'k8s.patch', precondition: { resourceVersion: expect.any(String) as unknown } });
    const after = secretData(world, 'keystone-fernet-keys');
    expect(indices(after)).toEqual([0, 2, 3]);
    expect(after['3']).toBe(before['0']);
    expect(after['2']).toBe(before['2']);
    expect(after['0']).not.toBe(before['0']);
    expect((world.get(ref)?.['status'] as Record<string, unknown>)['lastFernetRotation']).toBe('2026-01-04T00:00:30Z');
    // The rendered plan never shows key material.
    expect(JSON.stringify(plan)).not.toContain(after['0']);
    expect(actionKinds(await reconcile(world, clock, 4))).toEqual(['control.requeueAfter']);
  });

  it('waits for a missing Secret, naming it and its key', async () => {
    const world = keystoneWorld();
    putKeystone(world);
    await reconcile(world, new FakeClock());
    const list = readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions);
    expect(findCondition(list, 'SecretsReady')).toMatchObject({ status: 'False', reason: 'SecretNotFound', message: 'Secret keystone-db not found (it needs key username)' });
    expect(findCondition(list, 'Ready')).toMatchObject({ status: 'False', reason: 'SecretNotFound', observedGeneration: 1 });
    expect(world.list(coreTypes.secret, namespace)).toEqual([]);
  });

  it('says what the ExternalSecret that is to write a missing Secret reports, and continues when the Secret is written', async () => {
    const world = keystoneWorld();
    putKeystone(world);
    // One for another Secret, and the one whose target is the database Secret.
    world.put(externalSecretType, { metadata: { name: 'other', namespace }, spec: {} });
    world.put(externalSecretType, {
      metadata: { name: 'db-from-vault', namespace },
      spec: { target: { name: 'keystone-db' } },
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'SecretSyncedError', message: 'could not get secret data from provider' }] },
    });
    await reconcile(world, new FakeClock());
    const list = readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions);
    expect(findCondition(list, 'SecretsReady')).toMatchObject({
      status: 'False',
      reason: 'WaitingForExternalSecret',
      message: 'Secret keystone-db not found (it needs key username); ExternalSecret db-from-vault is not ready: SecretSyncedError: could not get secret data from provider',
    });
    putInputs(world);
    await reconcile(world, new FakeClock());
    const after = readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions);
    expect(findCondition(after, 'SecretsReady')).toMatchObject({ status: 'True' });
  });

  it('re-runs bootstrap when the admin password changes, and at no other time', async () => {
    const { world, clock } = setup();
    await converge(world, clock);
    const firstKey = (world.get(job('keystone-bootstrap'))?.['spec'] as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations[ANNOTATION_RUN_KEY];
    // An image change re-runs db_sync, not bootstrap.
    world.update(ref, (o) => ({ ...o, spec: { ...baseSpec, image: { repository: 'keystone', tag: '28.0.0' } } }));
    const upgrade = await reconcile(world, clock);
    expect(upgrade.steps.filter((s) => s.action.kind === 'k8s.delete').map((s) => (s.action as { ref: ObjectRef }).ref.name)).toEqual(['keystone-db-sync']);
    await converge(world, clock);
    expect(world.get(job('keystone-bootstrap'))?.metadata.uid).toBeDefined();
    world.update({ type: coreTypes.secret, namespace, name: 'keystone-admin' }, (o) => ({ ...o, data: { password: b64('admin-pass-2') } }));
    const rotated = await reconcile(world, clock);
    expect(rotated.steps.filter((s) => s.action.kind === 'k8s.delete').map((s) => (s.action as { ref: ObjectRef }).ref.name)).toEqual(['keystone-bootstrap']);
    await converge(world, clock);
    const secondKey = (world.get(job('keystone-bootstrap'))?.['spec'] as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations[ANNOTATION_RUN_KEY];
    expect(secondKey).not.toBe(firstKey);
    expect(JSON.stringify(world.get(job('keystone-bootstrap')))).not.toMatch(/admin-pass/);
  });

  it('reports a failed db_sync with its log tail, secrets masked, and does not retry it', async () => {
    const { world, clock } = setup();
    await reconcile(world, clock);
    finishJob(world, 'keystone-db-sync', 'Failed');
    world.put(podType, {
      metadata: { name: 'keystone-db-sync-x', namespace, labels: { 'batch.kubernetes.io/job-name': 'keystone-db-sync', 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'keystone', 'app.kubernetes.io/managed-by': 'keyward' } },
      status: { containerStatuses: [{ state: { terminated: { exitCode: 1, message: 'line 1\nAccess denied for keystone:db-pass-1\nOperationalError' } } }] },
    });
    const plan = await reconcile(world, clock);
    expect(plan.steps.filter((s) => s.action.kind === 'k8s.create' || s.action.kind === 'k8s.delete')).toEqual([]);
    const database = findCondition(readConditions((world.get(ref)?.['status'] as { conditions?: unknown }).conditions), 'DatabaseReady');
    expect(database).toMatchObject({ status: 'False', reason: 'JobFailed' });
    expect(database?.message).toContain('Access denied for keystone:***');
    expect(database?.message).not.toContain('db-pass-1');
  });

  it('rolls the Deployment on a config change and deletes the old ConfigMap once no ReplicaSet uses it', async () => {
    const { world, clock } = setup();
    await converge(world, clock);
    const oldName = (world.get(ref)?.['status'] as Record<string, string>)['configMapName'];
    world.put({ group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true }, {
      metadata: { name: 'keystone-old', namespace, labels: { 'app.kubernetes.io/name': 'keystone', 'app.kubernetes.io/instance': 'keystone', 'app.kubernetes.io/managed-by': 'keyward' } },
      spec: { replicas: 3, template: { spec: { volumes: [{ name: 'config', configMap: { name: oldName } }] } } },
    });
    world.update(ref, (o) => ({ ...o, spec: { ...baseSpec, extraConfig: { DEFAULT: { debug: 'true' } } } }));
    await converge(world, clock);
    const newName = (world.get(ref)?.['status'] as Record<string, string>)['configMapName'];
    expect(newName).not.toBe(oldName);
    const volumes = JSON.stringify(world.get(deploymentRef)?.['spec']);
    expect(volumes).toContain(newName);
    // Still used by the old ReplicaSet's pods: kept.
    expect(world.list(coreTypes.configMap, namespace).map((c) => c.metadata.name).sort()).toEqual([oldName, newName].sort());
    world.update({ type: { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true }, namespace, name: 'keystone-old' }, (o: KubeObject) => ({ ...o, spec: { ...(o['spec'] as object), replicas: 0 } }));
    await converge(world, clock);
    expect(world.list(coreTypes.configMap, namespace).map((c) => c.metadata.name)).toEqual([newName]);
  });
});
