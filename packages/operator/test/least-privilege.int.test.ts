import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, auditEventsOf, createTestNamespace, kubeConfigFor, rememberSecret, waitFor } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { apiKeyType, enforcementSecretName } from '@keyward/apikey-enforcement';
import { SETTINGS_CONFIGMAP, SETTINGS_KEY } from '../src/operator-settings.js';
import { deployedIdentity, type DeployedIdentity } from './deployed-identity.js';
import { startKeyward, stopKeyward, type OperatorProcess } from './operator-process.js';
import { approval, statusOf } from './requests.js';

const API_KEY = `key-${randomBytes(12).toString('hex')}`;

let admin: KubeClient;
let namespace: string;
let enforcement: string;
let identity: DeployedIdentity;
let operator: OperatorProcess;

beforeAll(async () => {
  admin = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('lp-consumer');
  enforcement = await createTestNamespace('lp-enforce');
  rememberSecret(API_KEY);
  // Exactly what deploy/base grants the apikey controller and the shared runtime; the Roles go where this
  // test's operator keeps its lease and its enforcement Secrets.
  identity = await deployedIdentity(admin, { namespace, name: 'apikey-only', components: ['runtime', 'apikey-enforcement'], namespaces: { operator: namespace, enforcement } });
  operator = startKeyward(['run',
    '--kubeconfig', identity.kubeconfig,
    '--controllers', 'apikey-enforcement',
    '--namespaces', namespace,
    '--enforcement-namespace', enforcement,
    '--lease-namespace', namespace,
    '--metrics-bind-address', '0',
    '--health-bind-address', '0',
  ], 'least-privilege-operator');
});

afterAll(async () => {
  await stopKeyward(operator);
  await identity.remove();
  admin.close();
  expect(operator.output()).not.toContain(API_KEY);
});

/** Creates a Secret as the operator's identity; resolves to the HTTP status the API server answered. */
async function createSecretAsOperator(where: string, name: string): Promise<number> {
  const client = new KubeClient(kubeConfigFor({ kubeconfig: identity.kubeconfig }));
  try {
    return await statusOf(() => client.create({ type: coreTypes.secret, namespace: where, name }, { metadata: { name }, stringData: { probe: 'x' } }), 201);
  } finally {
    client.close();
  }
}

describe('the apikey controller under exactly the roles deploy/base ships for it', () => {
  it('creates the enforcement Secret on approval and deletes it on denial, leaving the consumer Secret alone', async () => {
    const consumer = await admin.create({ type: coreTypes.secret, namespace, name: 'consumer-key' }, { metadata: { name: 'consumer-key' }, stringData: { api_key: API_KEY } });
    const apiKey = { type: apiKeyType, namespace, name: 'weather' };
    await admin.create(apiKey, {
      apiVersion: 'devportal.kuadrant.io/v1alpha1', kind: 'APIKey', metadata: { name: 'weather', namespace },
      spec: { apiProductRef: { name: 'weather' }, secretRef: { name: 'consumer-key' }, planTier: 'gold', useCase: 'rbac', requestedBy: { userId: 'u', email: 'u@example.com' } },
    });
    await admin.patch(apiKey, approval('Approved'), ContentType.mergePatch, 'status');
    const enforcementRef = { type: coreTypes.secret, namespace: enforcement, name: enforcementSecretName(namespace, 'weather') };
    const created = await waitFor(() => admin.get(enforcementRef), { what: 'the enforcement Secret', timeoutMs: 60_000, intervalMs: 300 });
    expect(Buffer.from((created['data'] as Record<string, string>)['api_key'] ?? '', 'base64').toString()).toBe(API_KEY);

    await admin.patch(apiKey, approval('Denied'), ContentType.mergePatch, 'status');
    await waitFor(async () => ((await admin.get(enforcementRef)) === undefined ? true : undefined), { what: 'the enforcement Secret to be deleted', timeoutMs: 60_000, intervalMs: 300 });
    const consumerNow = await admin.get({ type: coreTypes.secret, namespace, name: 'consumer-key' });
    expect(consumerNow?.metadata.resourceVersion).toBe(consumer.metadata.resourceVersion);
  });

  it('may create Secrets in the enforcement namespace and nowhere else', async () => {
    expect({
      enforcement: await createSecretAsOperator(enforcement, 'probe-allowed'),
      consumerNamespace: await createSecretAsOperator(namespace, 'probe-forbidden'),
      default: await createSecretAsOperator('default', 'probe-forbidden'),
    }).toEqual({ enforcement: 201, consumerNamespace: 403, default: 403 });
    await admin.delete({ type: coreTypes.secret, namespace: enforcement, name: 'probe-allowed' });
  });

  it('published its settings for keyward plan in its namespace', async () => {
    const settings = await waitFor(() => admin.get({ type: coreTypes.configMap, namespace, name: SETTINGS_CONFIGMAP }), { what: 'the published settings', timeoutMs: 30_000, intervalMs: 200 });
    expect(JSON.parse((settings['data'] as Record<string, string>)[SETTINGS_KEY] ?? '')).toMatchObject({ controllers: ['apikey-enforcement'], settings: { enforcementNamespace: enforcement } });
  });

  it('was refused nothing it asked for while it worked: the only refusals are the two probes above (by path; writes carry a field manager)', () => {
    const requests = auditEventsOf(identity.userName);
    expect(requests.length).toBeGreaterThan(5);
    expect(requests.filter((event) => event.responseStatus?.code === 403).map((event) => `${event.verb} ${event.requestURI.split('?')[0] ?? ''}`)).toEqual([
      `create /api/v1/namespaces/${namespace}/secrets`,
      'create /api/v1/namespaces/default/secrets',
    ]);
  });
});
