import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { adminKubeConfig, createTestNamespace, httpCall, keystoneAdmin, rememberSecret, testEnvironment, testLogFile, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition, sensitive, type KubeObject } from '@keyward/kernel';
import { ContentType, KeystoneClient, KubeClient } from '@keyward/runtime/io';
import { KeywardError } from '@keyward/kernel/interpreter';
import { createLogger } from '@keyward/runtime/controller';
import { appCredType, keystoneApiType, type AppCredStatus } from '../src/api.js';
import { readStatus } from '../src/decode.js';
import { startController, type RunningController } from './running-controller.js';

const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
let kube: KubeClient;
let namespace: string;
let userName: string;
let endpoint: string;
let controller: RunningController | undefined;

const crRef = (name: string) => ({ type: appCredType, namespace, name });
const secretRef = (name: string) => ({ type: coreTypes.secret, namespace, name });

async function status(name: string): Promise<AppCredStatus> {
  return readStatus((await kube.get(crRef(name)))?.['status']);
}

async function waitForStatus(name: string, what: string, test: (s: AppCredStatus) => boolean): Promise<AppCredStatus> {
  return waitFor(async () => {
    const s = await status(name);
    return test(s) ? s : undefined;
  }, { what, timeoutMs: 60_000, intervalMs: 200 });
}

const ready = (s: AppCredStatus): boolean => findCondition(s.conditions, 'Ready')?.status === 'True';

function decoded(secret: KubeObject | undefined, key: string): string {
  return Buffer.from((secret?.['data'] as Record<string, string> | undefined)?.[key] ?? '', 'base64').toString();
}

async function authenticatesWith(secretName: string): Promise<boolean> {
  const secret = await kube.get(secretRef(secretName));
  rememberSecret(decoded(secret, 'AC_SECRET'));
  try {
    await new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: decoded(secret, 'AC_ID'), secret: sensitive(decoded(secret, 'AC_SECRET')) });
    return true;
  } catch (error) {
    if (error instanceof KeywardError && (error.code === 401 || error.code === 404)) return false;
    throw error;
  }
}

async function credentialsOf(prefix: string): Promise<{ id: string; name: string }[]> {
  const client = new KeystoneClient({ baseUrl: endpoint });
  const login = await client.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
  return (await client.listApplicationCredentials(login.token, login.userId)).filter((c) => c.name.startsWith(prefix));
}

/** The role names Keystone granted a credential, read with the owner's own token. */
async function rolesOf(credentialId: string): Promise<string[]> {
  const client = new KeystoneClient({ baseUrl: endpoint });
  const login = await client.authenticate({ userName, userDomain: 'Default', projectName: 'service', projectDomain: 'Default', password: sensitive(PASSWORD) });
  const response = await httpCall(`${endpoint}/users/${login.userId}/application_credentials/${credentialId}`, { headers: { 'x-auth-token': login.token.reveal() } });
  const body = JSON.parse(response.body) as { application_credential: { roles: { name: string }[] } };
  return body.application_credential.roles.map((role) => role.name).sort();
}

async function createCr(name: string, spec: Record<string, unknown> = {}): Promise<void> {
  await kube.create(crRef(name), {
    apiVersion: 'keystone.openstack.org/v1beta1',
    kind: 'KeystoneApplicationCredential',
    metadata: { name, namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName, roles: ['service'], ...spec },
  });
}

async function patchStatus(name: string, statusPatch: Record<string, unknown>): Promise<void> {
  await kube.patch(crRef(name), { status: statusPatch }, ContentType.mergePatch, 'status');
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('appcred');
  userName = `svc-${randomBytes(3).toString('hex')}`;
  endpoint = testEnvironment().keystone?.url ?? '';
  rememberSecret(PASSWORD);
  // Two roles, so a roles change can ask for a credential with more of them.
  await (await keystoneAdmin()).ensureServiceUser({ userName, password: PASSWORD, roles: ['service', 'reader'] });
  await kube.create(secretRef('osp-secret'), { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: `${PASSWORD}\n` } });
  // A KeystoneAPI as keystone-operator would publish it; the endpoint without /v3, as upstream stores it.
  const keystoneApi = { type: keystoneApiType, namespace, name: 'keystone' };
  await kube.create(keystoneApi, { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name: 'keystone' }, spec: {} });
  await kube.patch(keystoneApi, {
    status: { apiEndpoints: { internal: endpoint.replace(/\/v3$/, '') }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  }, ContentType.mergePatch, 'status');

  controller = await startController(kube, {
    config: { revokeOnDelete: false, keystoneRetryMs: 1_000 },
    namespace,
    backoff: { baseMs: 100, maxMs: 2_000 },
    logger: createLogger({ level: 'debug', stream: createWriteStream(testLogFile('appcred-controller')) }),
  });
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  kube.close();
});

describe('the KeystoneApplicationCredential controller against the real API server and Keystone', () => {
  it('creates a credential that authenticates, stored in an immutable labelled Secret', async () => {
    await createCr('ac-create');
    const s = await waitForStatus('ac-create', 'ac-create to be Ready', ready);
    expect(s.secretName).toBe(`ac-create-${(s.acID ?? '').slice(0, 5)}-secret`);
    const secret = await kube.get(secretRef(s.secretName ?? ''));
    expect(secret?.['immutable']).toBe(true);
    expect(secret?.metadata.labels).toMatchObject({ 'application-credentials': 'true', 'application-credential-service': 'create' });
    expect(secret?.metadata.finalizers).toContain('openstack.org/ac-secret-protection');
    expect(await authenticatesWith(s.secretName ?? '')).toBe(true);
    expect((await kube.get(crRef('ac-create')))?.metadata.finalizers).toContain('openstack.org/applicationcredential');
    // Exactly one credential: reconciles woken by our own writes never create a second one.
    expect((await credentialsOf('ac-create-')).map((c) => c.id)).toEqual([s.acID]);
  });

  it('rotates on an accessRules change, on an expiresAt in the past, and on a deleted Secret, with an event', async () => {
    await createCr('ac-rotate');
    const first = await waitForStatus('ac-rotate', 'first credential', ready);

    await kube.patch(crRef('ac-rotate'), { spec: { accessRules: [{ service: 'identity', path: '/v3/auth/tokens', method: 'GET' }] } }, ContentType.mergePatch);
    const second = await waitForStatus('ac-rotate', 'rotation after the accessRules change', (s) => s.acID !== first.acID && ready(s));
    expect(second.previousSecretName).toBe(first.secretName);
    expect(second.lastRotated).toBeDefined();

    await patchStatus('ac-rotate', { expiresAt: '2001-05-19T00:00:00Z' });
    const third = await waitForStatus('ac-rotate', 'rotation after expiresAt moved into the past', (s) => s.acID !== second.acID && ready(s));
    expect(await authenticatesWith(third.secretName ?? '')).toBe(true);

    const current = third.secretName ?? '';
    await kube.patch(secretRef(current), { metadata: { finalizers: null } }, ContentType.mergePatch);
    await kube.delete(secretRef(current));
    const fourth = await waitForStatus('ac-rotate', 'rotation after the Secret was deleted', (s) => s.acID !== third.acID && ready(s));
    expect(fourth.secretName).not.toBe(current);
    // Four credentials, one per rotation; the first two were neither current nor previous and no consumer held them.
    await waitFor(async () => ((await credentialsOf('ac-rotate-')).length === 2 ? true : undefined), { what: 'old credentials to be revoked', timeoutMs: 30_000 });
    expect((await credentialsOf('ac-rotate-')).map((c) => c.id).sort()).toEqual([third.acID, fourth.acID].sort());

    const events = await kube.raw<{ items: { reason: string; note: string; reportingController: string }[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`, what: 'list events', verb: 'list', resource: 'events' });
    const rotated = events.items.filter((e) => e.reason === 'ApplicationCredentialRotated');
    expect(rotated.length).toBeGreaterThanOrEqual(3);
    // Reported as upstream reports it, in upstream's words.
    expect(rotated.map((e) => e.reportingController)).toEqual(rotated.map(() => 'keystoneapplicationcredential-controller'));
    const time = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z';
    expect(rotated[0]?.note).toMatch(new RegExp(`^Rotated credentials for user ${userName}\\. New expiration: ${time}, next rotation eligible: ${time} \\(grace period: \\d+ days\\)\\. Previous credential expires: ${time}$`));
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('rotates on a roles change: the new credential carries the new roles, the hash in status follows the spec', async () => {
    await createCr('ac-roles');
    const first = await waitForStatus('ac-roles', 'first credential', ready);
    expect(await rolesOf(first.acID ?? '')).toEqual(['service']);

    await kube.patch(crRef('ac-roles'), { spec: { roles: ['service', 'reader'] } }, ContentType.mergePatch);
    const second = await waitForStatus('ac-roles', 'rotation after the roles change', (s) => s.acID !== first.acID && ready(s));
    expect(await rolesOf(second.acID ?? '')).toEqual(['reader', 'service']);
    expect(second.securityHash).not.toBe(first.securityHash);
    expect(second.previousSecretName).toBe(first.secretName);
    expect(await authenticatesWith(second.secretName ?? '')).toBe(true);

    // The same roles in another order hash differently (upstream's rule), so that rotates too, once.
    await kube.patch(crRef('ac-roles'), { spec: { roles: ['reader', 'service'] } }, ContentType.mergePatch);
    const third = await waitForStatus('ac-roles', 'rotation after the roles were reordered', (s) => s.acID !== second.acID && ready(s));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await status('ac-roles')).acID).toBe(third.acID);
  });

  it('keeps an old Secret a consumer holds, says so, and revokes it once released', async () => {
    await createCr('ac-handover');
    const first = await waitForStatus('ac-handover', 'first credential', ready);
    const held = first.secretName ?? '';
    await kube.patch(secretRef(held), { metadata: { finalizers: ['openstack.org/ac-secret-protection', 'openstack.org/nova-ac-consumer'] } }, ContentType.mergePatch);
    await patchStatus('ac-handover', { expiresAt: '2001-01-01T00:00:00Z' });
    const second = await waitForStatus('ac-handover', 'second credential', (s) => s.acID !== first.acID && ready(s));
    await patchStatus('ac-handover', { expiresAt: '2001-01-01T00:00:00Z' });
    await waitForStatus('ac-handover', 'third credential and the holder named', (s) =>
      s.acID !== second.acID && (findCondition(s.conditions, 'Ready')?.message ?? '').includes(`old credential ${held} is still used by nova`));
    expect(await authenticatesWith(held)).toBe(true);

    await kube.patch(secretRef(held), { metadata: { finalizers: ['openstack.org/ac-secret-protection'] } }, ContentType.mergePatch);
    await waitFor(async () => ((await kube.get(secretRef(held))) === undefined ? true : undefined), { what: `${held} to be deleted`, timeoutMs: 60_000 });
    const login = await new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: first.acID ?? '', secret: sensitive('anything') }).catch((e: unknown) => e);
    expect(login).toMatchObject({ code: 404 });
  });

  it('releases the Secrets on deletion without revoking, so garbage collection removes them', async () => {
    await createCr('ac-delete');
    const s = await waitForStatus('ac-delete', 'credential', ready);
    const secretName = s.secretName ?? '';
    const secret = await kube.get(secretRef(secretName));
    await kube.delete(crRef('ac-delete'));
    await waitFor(async () => ((await kube.get(crRef('ac-delete'))) === undefined ? true : undefined), { what: 'the CR to go', timeoutMs: 60_000 });
    await waitFor(async () => ((await kube.get(secretRef(secretName))) === undefined ? true : undefined), { what: 'garbage collection of its Secret', timeoutMs: 90_000 });
    const login = await new KeystoneClient({ baseUrl: endpoint }).authenticateWithApplicationCredential({ id: decoded(secret, 'AC_ID'), secret: sensitive(decoded(secret, 'AC_SECRET')) });
    expect(login.userId).toBeTruthy();
  });

  it('reports a wrong password on the credential condition, without the password, and recovers', async () => {
    await kube.create(secretRef('wrong-secret'), { metadata: { name: 'wrong-secret' }, stringData: { ServicePassword: 'definitely-not-it' } });
    await createCr('ac-wrong', { secret: 'wrong-secret' });
    const failing = await waitForStatus('ac-wrong', 'the failure to be reported', (s) => findCondition(s.conditions, 'KeystoneApplicationCredentialReady')?.status === 'False');
    const condition = findCondition(failing.conditions, 'KeystoneApplicationCredentialReady');
    expect(condition?.message).toContain('authenticate to Keystone');
    expect(JSON.stringify(failing)).not.toContain('definitely-not-it');
    await kube.patch(crRef('ac-wrong'), { spec: { secret: 'osp-secret' } }, ContentType.mergePatch);
    await waitForStatus('ac-wrong', 'recovery with the right password', ready);
  });

  it('does not rotate an object whose status the upstream operator wrote with the same hash', async () => {
    await createCr('ac-upstream');
    const s = await waitForStatus('ac-upstream', 'credential', ready);
    // Rewrite the status as upstream would (no pending field, its own message); the hash stays the same.
    await patchStatus('ac-upstream', { conditions: null, lastRotated: null });
    await waitForStatus('ac-upstream', 'conditions written again', ready);
    const after = await status('ac-upstream');
    expect(after.acID).toBe(s.acID);
    expect(after.secretName).toBe(s.secretName);
  });

  it('lets only ac-<service> own a service: a CR named <service> beside it is told why and revokes nothing', async () => {
    await createCr('ac-pair');
    await createCr('pair');
    const owner = await waitForStatus('ac-pair', 'ac-pair to be Ready', ready);
    const refused = await waitForStatus('pair', 'pair to be refused', (s) => findCondition(s.conditions, 'KeystoneApplicationCredentialReady')?.reason === 'UnsupportedName');
    expect(findCondition(refused.conditions, 'KeystoneApplicationCredentialReady')?.message).toContain('only the KeystoneApplicationCredential named ac-pair manages');
    // Give a fight the time it took before: each used to revoke the other's credential within seconds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await status('ac-pair');
    expect(after.acID).toBe(owner.acID);
    expect(await authenticatesWith(after.secretName ?? '')).toBe(true);
    expect((await credentialsOf('ac-pair-')).map((c) => c.id)).toEqual([owner.acID]);
    expect(await credentialsOf('pair-')).toEqual([]);
    expect((await status('pair')).acID).toBeUndefined();
  });

  it('rejects invalid specs at the API server with the rule message', async () => {
    const error = await kube.create(crRef('ac-invalid'), {
      apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-invalid', namespace },
      spec: { secret: 's', passwordSelector: 'p', userName: 'u', roles: ['service'], expirationDays: 5, gracePeriodDays: 5 },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 422 });
    expect((error as Error).message).toContain('gracePeriodDays must be smaller than expirationDays');
  });
});
