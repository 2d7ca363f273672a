import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, keystoneAdmin, rememberSecret, testEnvironment } from '@keyward/test-env';
import { coreTypes, sensitive } from '@keyward/core';
import { KeystoneClient, KubeClient } from '@keyward/core/interpreter';
import { appCredType } from '@keyward/keystone-appcred';
import { parsePlanConfig, type PlanConfig } from '../src/config.js';
import { planCommand } from '../src/plan.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
let kube: KubeClient;
let namespace: string;
let userName: string;

function config(extra: readonly string[]): PlanConfig {
  const parsed = parsePlanConfig(['--kubeconfig', testEnvironment().kubeconfig, '--namespace', namespace, '--keystone-url', testEnvironment().keystone?.url ?? '', ...extra], {});
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

async function plan(extra: readonly string[]): Promise<{ status: number; output: string }> {
  let output = '';
  const status = await planCommand(config(extra), (text) => { output += text; });
  return { status, output };
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('plan');
  userName = `plan-${randomBytes(3).toString('hex')}`;
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  await kube.create({ type: appCredType, namespace, name: 'ac-plan' }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential',
    metadata: { name: 'ac-plan', namespace, finalizers: ['openstack.org/applicationcredential'] },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
});

afterAll(() => {
  kube.close();
});

describe('keyward plan against the live cluster', () => {
  it('shows what would happen and why, with known-after-apply values, and changes nothing', async () => {
    const before = await kube.get({ type: appCredType, namespace, name: 'ac-plan' });
    const text = await plan(['--kind', 'appcred', '--exit-code']);
    expect(text.status).toBe(2);
    expect(text.output).toContain(`KeystoneApplicationCredential ${namespace}/ac-plan`);
    expect(text.output).toContain(`authenticate to Keystone as ${userName}`);
    expect(text.output).toContain(`create Secret ${namespace}/ac-plan-(known after apply)-secret`);
    expect(text.output).toContain('why: no application credential exists yet');
    expect(text.output).not.toContain(PASSWORD);

    const json = await plan(['--kind', 'appcred', '--output', 'json']);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.output) as { name: string; plan: { steps: { kind: string }[] } }[];
    expect(parsed[0]?.plan.steps.map((s) => s.kind)).toContain('keystone.createApplicationCredential');

    // Nothing was written: the object, the Secrets and Keystone are as they were.
    const after = await kube.get({ type: appCredType, namespace, name: 'ac-plan' });
    expect(after?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
    expect((await kube.list(coreTypes.secret, { namespace })).items.map((s) => s.metadata.name)).toEqual(['osp-secret']);
    const keystone = new KeystoneClient({ baseUrl: testEnvironment().keystone?.url ?? '' });
    const login = await keystone.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
    expect(await keystone.listApplicationCredentials(login.token, login.userId)).toEqual([]);
  });

  it('says when there is nothing to plan', async () => {
    const empty = await plan(['--kind', 'apikey', '--exit-code']);
    expect(empty).toEqual({ status: 0, output: 'no objects found\n' });
  });
});
