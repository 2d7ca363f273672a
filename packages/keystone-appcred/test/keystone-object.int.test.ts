// A KeystoneApplicationCredential in a namespace without a KeystoneAPI but with a Keystone object of
// keystone-service: it waits while that Keystone is not ready, saying so, continues as soon as the Keystone turns
// Ready (woken by the watch: the controller's own retry is far longer than the test), and its credential is a
// real one of the environment's Keystone. And a cluster without the Keystone CRD: nothing changes for a
// KeystoneAPI, not a word in the log.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { adminKubeConfig, createTestNamespace, keystoneAdmin, rememberSecret, testEnvironment, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition, sensitive, type KubeObject } from '@keyward/kernel';
import { ContentType, KeystoneClient, KubeClient, keystoneRuntime, kubernetesRuntime } from '@keyward/runtime/io';
import { apiSet, controlRuntime } from '@keyward/kernel/interpreter';
import { Controller, type RuntimeLogger } from '@keyward/runtime/controller';
import { appCredType, keystoneApiType, keystoneType, type AppCredStatus } from '../src/api.js';
import { appCredController } from '../src/controller.js';
import { readStatus } from '../src/decode.js';
import { observe } from '../src/observe.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
/** The controller's own retry while no Keystone is usable: far beyond the test, so only a watch can wake a CR. */
const NO_RETRY_MS = 10 * 60_000;

let kube: KubeClient;
let userName: string;
let endpoint: string;
const stops: (() => Promise<void>)[] = [];

/** Log lines at warn and error, which a quiet controller has none of. */
function loudLines(lines: string[]): RuntimeLogger {
  const at = (level: string) => (message: string): void => { lines.push(`${level}: ${message}`); };
  const logger: RuntimeLogger = { child: () => logger, debug: () => undefined, info: () => undefined, warn: at('warn'), error: at('error') };
  return logger;
}

async function start(definition: typeof appCredController, namespace: string, lines: string[]): Promise<void> {
  const runtimes = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keystone-appcred', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
  const controller = new Controller(definition, {
    kube, apis: runtimes, config: { revokeOnDelete: false, keystoneRetryMs: NO_RETRY_MS }, namespace, backoff: { baseMs: 100, maxMs: 2_000 }, logger: loudLines(lines),
  });
  await controller.start();
  stops.push(async () => {
    await controller.stop();
    runtimes.close();
  });
}

async function prepare(prefix: string): Promise<string> {
  const namespace = await createTestNamespace(prefix);
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: PASSWORD } });
  return namespace;
}

async function createCr(namespace: string, name: string): Promise<void> {
  await kube.create({ type: appCredType, namespace, name }, {
    apiVersion: 'keystone.openstack.org/v1beta1',
    kind: 'KeystoneApplicationCredential',
    metadata: { name, namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'] },
  });
}

async function waitForStatus(namespace: string, name: string, what: string, test: (s: AppCredStatus) => boolean): Promise<AppCredStatus> {
  return waitFor(async () => {
    const s = readStatus((await kube.get({ type: appCredType, namespace, name }))?.['status']);
    return test(s) ? s : undefined;
  }, { what, timeoutMs: 60_000, intervalMs: 200 });
}

const condition = (s: AppCredStatus, type: string) => findCondition(s.conditions, type);

function setReady(ref: { type: typeof keystoneType; namespace: string; name: string }, status: Record<string, unknown>): Promise<KubeObject> {
  return kube.patch(ref, { status }, ContentType.mergePatch, 'status');
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  userName = `svc-${randomBytes(3).toString('hex')}`;
  endpoint = testEnvironment().keystone?.url ?? '';
  rememberSecret(PASSWORD);
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD });
}, 120_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  kube.close();
});

describe('a KeystoneApplicationCredential beside a Keystone object of keystone-service', () => {
  it('waits while the Keystone is not ready, saying so, and gets a real credential once it is Ready', async () => {
    const namespace = await prepare('appcred-keystone');
    const ref = { type: keystoneType, namespace, name: 'keystone' };
    await kube.create(ref, {
      apiVersion: 'keystone.openstack.c5c3.io/v1alpha1',
      kind: 'Keystone',
      metadata: { name: 'keystone' },
      spec: { image: { repository: 'keystone', tag: 'test' }, database: { host: 'mariadb', secretRef: { name: 'db' } }, bootstrap: { adminPasswordSecretRef: { name: 'admin' } } },
    });
    const since = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await setReady(ref, { conditions: [{ type: 'Ready', status: 'False', reason: 'Deploying', message: 'waiting for the database', lastTransitionTime: since }] });
    const lines: string[] = [];
    await start(appCredController, namespace, lines);

    await createCr(namespace, 'ac-waiting');
    const waiting = await waitForStatus(namespace, 'ac-waiting', 'ac-waiting to wait for the Keystone', (s) => condition(s, 'KeystoneAPIReady')?.status === 'False');
    expect(condition(waiting, 'KeystoneAPIReady')).toMatchObject({ reason: 'KeystoneNotReady', message: `Keystone ${namespace}/keystone is not ready: waiting for the database` });
    expect(condition(waiting, 'Ready')?.status).toBe('False');
    expect(waiting.acID).toBeUndefined();

    // Published as keystone-service publishes it: the Identity v3 URL.
    await setReady(ref, { endpoint, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Keystone is ready', lastTransitionTime: since }] });
    const done = await waitForStatus(namespace, 'ac-waiting', 'ac-waiting to be Ready', (s) => condition(s, 'Ready')?.status === 'True');
    expect(condition(done, 'KeystoneAPIReady')?.status).toBe('True');
    const secret = await kube.get({ type: coreTypes.secret, namespace, name: done.secretName ?? '' });
    const field = (key: string) => Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.[key] ?? '', 'base64').toString();
    rememberSecret(field('AC_SECRET'));
    expect(field('AC_ID')).toBe(done.acID);
    // The credential is Keystone's own: it logs in.
    await expect(new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: field('AC_ID'), secret: sensitive(field('AC_SECRET')) })).resolves.toBeDefined();
    expect(lines).toEqual([]);
  }, 90_000);
});

describe('a cluster without the Keystone CRD', () => {
  it('changes nothing for a KeystoneAPI: the credential is made as before, quietly', async () => {
    // The controller as it is, but reading Keystone objects of a type no CRD serves, as on such a cluster.
    const absent = { ...keystoneType, group: `absent-${randomBytes(4).toString('hex')}.keyward.test` };
    const definition: typeof appCredController = {
      ...appCredController,
      observe: (cr, config) => {
        const queries = observe(cr, config);
        return { ...queries, keystones: queries.keystones === undefined ? undefined : { ...queries.keystones, type: absent } };
      },
      referenced: (appCredController.referenced ?? []).map((watch) => (watch.type === keystoneType ? { ...watch, type: absent } : watch)),
    };
    const namespace = await prepare('appcred-no-keystone-crd');
    const api = { type: keystoneApiType, namespace, name: 'keystone' };
    await kube.create(api, { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name: 'keystone' }, spec: {} });
    await kube.patch(api, {
      status: { apiEndpoints: { internal: endpoint.replace(/\/v3$/, '') }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    }, ContentType.mergePatch, 'status');
    const lines: string[] = [];
    await start(definition, namespace, lines);

    await createCr(namespace, 'ac-api');
    const done = await waitForStatus(namespace, 'ac-api', 'ac-api to be Ready', (s) => condition(s, 'Ready')?.status === 'True');
    expect(condition(done, 'KeystoneAPIReady')).toMatchObject({ status: 'True', reason: 'Ready', message: 'KeystoneAPI ready' });
    expect(condition(done, 'KeystoneApplicationCredentialReady')?.reason).toBe('Ready');
    // No failed reconcile, no warning about the missing CRD, none from the watch retrying it.
    expect(lines).toEqual([]);
  }, 90_000);
});
