import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, auditEventsOf, createTestNamespace, keystoneAdmin, rememberSecret, testEnvironment, waitFor, type ServiceAccountIdentity } from '@keyward/test-env';
import { coreTypes, findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { parsePlanConfig } from '../src/config.js';
import { EXIT_CODES } from '../src/exit-codes.js';
import { SETTINGS_CONFIGMAP, SETTINGS_KEY } from '../src/operator-settings.js';
import { planCommand } from '../src/plan.js';
import { operatorVersion } from '../src/version.js';
import { generatedIdentity } from './deployed-identity.js';
import { startKeyward, stopKeyward, type OperatorProcess } from './operator-process.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;

let admin: KubeClient;
/** Where the credential lives, and the operator's own namespace (its Lease and published settings). */
let namespace: string;
let operatorNamespace: string;
let identity: ServiceAccountIdentity;
let operator: OperatorProcess;
const keystoneUrl = (): string => testEnvironment().keystone?.url ?? '';
const settingsRef = () => ({ type: coreTypes.configMap, namespace: operatorNamespace, name: SETTINGS_CONFIGMAP });

/** `keyward plan` of this test's credential, WITHOUT --keystone-url, as `kubeconfig`'s identity; its status and output. */
async function plan(kubeconfig: string, extra: readonly string[] = [], env: Readonly<Record<string, string>> = {}): Promise<{ status: number; output: string }> {
  const parsed = parsePlanConfig(['--kubeconfig', kubeconfig, '--namespace', namespace, '--controllers', 'keystone-appcred', '--exit-code', ...extra], env);
  if (!parsed.ok) throw new Error(parsed.error);
  let output = '';
  const status = await planCommand(parsed.config, (text) => { output += text; });
  return { status, output };
}

beforeAll(async () => {
  admin = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('pset');
  operatorNamespace = await createTestNamespace('pset-op');
  rememberSecret(PASSWORD);
  // The operator runs under exactly the Roles `keyward rbac` prints for its install.
  identity = await generatedIdentity(admin, { controllers: ['keystone-appcred'], namespaces: [namespace], operatorNamespace, serviceAccount: 'keyward' });
  const userName = `pset-${randomBytes(3).toString('hex')}`;
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
  await admin.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  await admin.create({ type: appCredType, namespace, name: 'ac-settings' }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-settings', namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
  // No KeystoneAPI in the namespace: the credential converges only through --keystone-url.
  operator = startKeyward(['run',
    '--kubeconfig', identity.kubeconfig,
    '--controllers', 'keystone-appcred',
    '--namespaces', namespace,
    '--keystone-url', keystoneUrl(),
    '--lease-namespace', operatorNamespace,
    '--metrics-bind-address', '0',
    '--health-bind-address', '0',
  ], 'plan-settings-operator');
  await waitFor(async () => {
    const status = (await admin.get({ type: appCredType, namespace, name: 'ac-settings' }))?.['status'] as { conditions?: Condition[] } | undefined;
    return findCondition(status?.conditions ?? [], 'Ready')?.status === 'True' ? true : undefined;
  }, { what: 'ac-settings to be Ready', timeoutMs: 90_000, intervalMs: 300 });
});

afterAll(async () => {
  await stopKeyward(operator);
  admin.close();
  expect(operator.output()).not.toContain(PASSWORD);
});

describe('keyward plan with the settings the running operator publishes', () => {
  it('publishes them in its namespace, written under its field manager and allowed by its generated Roles', async () => {
    const configMap = await waitFor(() => admin.get(settingsRef()), { what: 'the published settings', timeoutMs: 30_000, intervalMs: 200 });
    expect(configMap.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'keyward' });
    const published = JSON.parse((configMap['data'] as Record<string, string>)[SETTINGS_KEY] ?? '') as { settings: Record<string, unknown> };
    expect(published).toMatchObject({ version: operatorVersion(), controllers: ['keystone-appcred'], namespaces: [namespace] });
    expect(published.settings).toMatchObject({ keystoneUrl: keystoneUrl(), revokeOnDelete: false });
    const managers = (configMap.metadata as KubeObject['metadata'] & { managedFields?: { manager: string }[] }).managedFields?.map((field) => field.manager);
    expect(managers).toEqual(['keyward']);
    expect(auditEventsOf(identity.userName).filter((event) => event.responseStatus?.code === 403).map((event) => `${event.verb} ${event.requestURI}`)).toEqual([]);
  });

  it('plans a converged credential without --keystone-url as converged: the operator\'s URL is used, and the first line says so', async () => {
    const { status, output } = await plan(adminKubeconfig(), ['--operator-namespace', operatorNamespace]);
    expect(output.split('\n')[0]).toBe(`settings of the running operator in ${operatorNamespace} (keyward ${operatorVersion()}): --keystone-url ${keystoneUrl()}, --no-revoke-on-delete`);
    expect(output).toContain(`KeystoneApplicationCredential ${namespace}/ac-settings`);
    expect(status).toBe(EXIT_CODES.ok);
  });

  it('lets a flag or variable win over the operator\'s setting, and reports the same in JSON', async () => {
    const { status, output } = await plan(adminKubeconfig(), ['--operator-namespace', operatorNamespace, '--output', 'json', '--revoke-on-delete'], { KEYWARD_KEYSTONE_URL: keystoneUrl() });
    expect(status).toBe(EXIT_CODES.ok);
    const { settings, objects } = JSON.parse(output) as { settings: unknown; objects: { name: string }[] };
    expect(settings).toEqual({
      operatorNamespace,
      operator: { version: operatorVersion(), controllers: ['keystone-appcred'], namespaces: [namespace] },
      values: { keystoneUrl: { value: keystoneUrl(), from: 'given' }, revokeOnDelete: { value: true, from: 'given' } },
    });
    expect(objects.map((object) => object.name)).toEqual(['ac-settings']);
  });

  it('says when it may not read them (an identity without get on ConfigMaps there), and plans with its own', async () => {
    const { output } = await plan(identity.kubeconfig, ['--operator-namespace', operatorNamespace]);
    expect(output.split('\n')[0]).toBe(
      `no settings of a running operator found in ${operatorNamespace} (ConfigMap ${operatorNamespace}/${SETTINGS_CONFIGMAP} may not be read (forbidden)); planning with --keystone-url (none), --no-revoke-on-delete`,
    );
  });

  it('without them, says it lacks the running operator\'s settings, and shows the drift its own lead to', async () => {
    await admin.delete(settingsRef());
    const { status, output } = await plan(adminKubeconfig(), [], { KEYWARD_OPERATOR_NAMESPACE: operatorNamespace });
    expect(output.split('\n')[0]).toBe(
      `no settings of a running operator found in ${operatorNamespace} (no ConfigMap ${operatorNamespace}/${SETTINGS_CONFIGMAP}); planning with --keystone-url (none), --no-revoke-on-delete`,
    );
    // Without a Keystone URL the controller looks for a KeystoneAPI, which this namespace has none of.
    expect(output).toContain('KeystoneAPI');
    expect(status).toBe(EXIT_CODES.changes);
  });
});

/** The test environment's administrator kubeconfig file. */
function adminKubeconfig(): string {
  return testEnvironment().kubeconfig;
}
