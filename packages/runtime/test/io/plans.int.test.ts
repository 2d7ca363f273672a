import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, keystoneAdmin, rememberSecret, testEnvironment } from '@keyward/test-env';
import { coreTypes, sensitive, PlanBuilder, renderPlanText } from '@keyward/kernel';
import { type KeystoneAction, type KeystoneTokenQuery, type KubernetesAction } from '@keyward/kernel/plan';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { kubernetesRuntime } from '../../src/apis/kubernetes/io/runtime.js';
import { KeystoneClient } from '../../src/apis/keystone/io/client.js';
import { keystoneRuntime } from '../../src/apis/keystone/io/runtime.js';
import { controlRuntime, apiSet, interpret } from '@keyward/kernel/interpreter';

function testApis(kube: KubeClient) {
  return apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/test', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
}

let kube: KubeClient;
let apis: ReturnType<typeof testApis>;
let namespace: string;
let endpoint: string;
let userName: string;
const password = `pw-${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  apis = testApis(kube);
  namespace = await createTestNamespace('interp-plans');
  endpoint = testEnvironment().keystone?.url ?? '';
  userName = `plans-${randomBytes(3).toString('hex')}`;
  rememberSecret(password);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password });
});

afterAll(() => {
  apis.close();
  kube.close();
});

/** authenticate -> create credential (revoked if a later step fails) -> store it in a Secret in `secretNamespace`. */
function credentialPlan(name: string, secretNamespace: string) {
  const plan = new PlanBuilder<KubernetesAction | KeystoneAction>();
  const auth = plan.add(
    { kind: 'keystone.authenticate', endpoint, userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(password) },
    'log in as the service user',
  );
  const credential = plan.add(
    { kind: 'keystone.createApplicationCredential', session: auth.output('session'), name, description: 'test', roles: ['service'], unrestricted: false, expiresAt: undefined },
    'a credential is needed',
    (step) => ({ action: { kind: 'keystone.revokeApplicationCredential', session: auth.output('session'), id: step.output('id') }, reason: 'it was never stored' }),
  );
  const ref = { type: coreTypes.secret, namespace: secretNamespace, name: `${name}-secret` };
  plan.add(
    { kind: 'k8s.create', ref, object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: ref.name, namespace: secretNamespace }, stringData: { AC_ID: credential.output('id'), AC_SECRET: credential.output('secret') } } },
    'store it',
  );
  return { plan: plan.build(), ref };
}

describe('plans across Keystone and Kubernetes', () => {
  it('create a credential and store it: the stored secret authenticates', async () => {
    const { plan, ref } = credentialPlan(`ok-${randomBytes(3).toString('hex')}`, namespace);
    expect(renderPlanText(plan, apis.vocabulary)).toContain('+ stringData.AC_SECRET: (known after apply)');
    const result = await interpret(plan, apis);
    expect(result.steps.map((s) => s.outcome)).toEqual(['unchanged', 'applied', 'applied']);

    const stored = await kube.get(ref);
    const data = stored?.['data'] as Record<string, string>;
    const decode = (key: string): string => Buffer.from(data[key] ?? '', 'base64').toString('utf8');
    const login = await new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: decode('AC_ID'), secret: sensitive(decode('AC_SECRET')) });
    expect(login.userId).toBeTruthy();
  });

  it('revoke the new credential when storing it fails', async () => {
    const name = `orphan-${randomBytes(3).toString('hex')}`;
    const { plan } = credentialPlan(name, 'no-such-namespace');
    const result = await interpret(plan, apis);
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => s.outcome)).toEqual(['unchanged', 'applied', 'failed']);
    expect(result.error).toMatchObject({ api: 'kubernetes', code: 404 });
    expect(result.compensations.map((c) => c.outcome)).toEqual(['applied']);

    const client = new KeystoneClient({ baseUrl: endpoint });
    const session = await client.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(password) });
    expect(await client.listApplicationCredentials(session.token, session.userId, { name })).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(password);
  });

  it('report a wrong password as a failed, non-retryable step without the password', async () => {
    const plan = new PlanBuilder<KeystoneAction>();
    plan.add({ kind: 'keystone.authenticate', endpoint, userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive('wrong-password-123') }, 'log in');
    const result = await interpret(plan.build(), apis);
    expect(result.error).toMatchObject({ api: 'keystone', code: 401, retryable: false });
    expect(JSON.stringify(result)).not.toContain('wrong-password-123');
    expect(result.error?.message).toContain(userName);
  });
});

describe('the token query', () => {
  it('logs in afresh each time, past the token cache, and answers a refusal or an unreachable Keystone without throwing', async () => {
    const seen: string[] = [];
    const runtime = keystoneRuntime({ kube, client: { observer: { onRequest: (info) => { seen.push(`${info.operation} ${String(info.status)}`); } } } });
    const wrong = rememberSecret(`wrong-${randomBytes(8).toString('hex')}`);
    try {
      // The trailing newline a Secret often has is not part of the password.
      for (const [name, value] of [['right-pw', `${password}\n`], ['wrong-pw', wrong]] as const) {
        await kube.create({ type: coreTypes.secret, namespace, name }, { metadata: { name }, stringData: { password: value } });
      }
      const query = (secret: string, at = endpoint): KeystoneTokenQuery => ({
        kind: 'keystone.token', endpoint: at, userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: { kind: 'secretKey', namespace, name: secret, key: 'password' },
      });
      const tokenCheck = runtime.queries({ caches: [] })['keystone.token'];
      // The actions' token cache holds a token for the user: the query does not answer from it.
      const login = new PlanBuilder<KeystoneAction>();
      login.add({ kind: 'keystone.authenticate', endpoint, userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(password) }, 'log in');
      expect((await interpret(login.build(), apiSet(runtime))).ok).toBe(true);
      seen.length = 0;

      expect(await tokenCheck(query('right-pw'))).toEqual({ issued: true });
      expect(await tokenCheck(query('right-pw'))).toEqual({ issued: true });
      expect(seen).toEqual(['authenticate 201', 'authenticate 201']);

      const refused = await tokenCheck(query('wrong-pw'));
      expect(refused).toMatchObject({ issued: false, reason: 'Unauthorized' });
      expect(JSON.stringify(refused)).not.toContain(wrong);
      expect(await tokenCheck(query('no-such-secret'))).toMatchObject({ issued: false, reason: 'PasswordSecretNotFound' });
      // Nothing listens on the discard port.
      expect(await tokenCheck(query('right-pw', 'http://127.0.0.1:9/v3'))).toMatchObject({ issued: false, reason: 'Unavailable' });
    } finally {
      runtime.close?.();
    }
  }, 120_000);
});
