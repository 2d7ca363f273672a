import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminKubeConfig, createTestNamespace, testEnvironment, waitFor } from '@keyward/test-env';
import { coreTypes } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { exited, startKeyward } from './operator-process.js';

// A Keystone that takes requests and answers only when the test says so: the slow Keystone of a SIGTERM.
interface HeldRequest {
  readonly method: string;
  readonly url: string;
  readonly response: ServerResponse;
}

let kube: KubeClient;
let keystone: Server;
let keystoneUrl: string;
const held: HeldRequest[] = [];

function startOperator(namespace: string, shutdownTimeout: string) {
  return startKeyward(['run',
    '--kubeconfig', testEnvironment().kubeconfig,
    '--namespaces', namespace,
    '--keystone-url', keystoneUrl,
    '--no-leader-elect',
    '--metrics-bind-address', '0',
    '--health-bind-address', '0',
    '--shutdown-timeout', shutdownTimeout,
    '--log-format', 'json',
  ], 'shutdown-operator');
}

async function namespaceWithCr(prefix: string): Promise<string> {
  const namespace = await createTestNamespace(prefix);
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: 'unused-by-a-keystone-that-never-checks' } });
  await kube.create({ type: appCredType, namespace, name: 'ac-slow' }, {
    apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneApplicationCredential', metadata: { name: 'ac-slow', namespace },
    spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName: 'slow', roles: ['service'] },
  });
  return namespace;
}

function heldSince(count: number): Promise<HeldRequest> {
  return waitFor(() => Promise.resolve(held[count]), { what: 'a request to reach Keystone', timeoutMs: 60_000, intervalMs: 100 });
}

beforeAll(async () => {
  kube = new KubeClient(adminKubeConfig());
  keystone = createServer((request: IncomingMessage, response: ServerResponse) => {
    held.push({ method: request.method ?? '', url: request.url ?? '', response });
  });
  await new Promise<void>((resolve) => keystone.listen(0, '127.0.0.1', resolve));
  keystoneUrl = `http://127.0.0.1:${String((keystone.address() as AddressInfo).port)}/v3`;
});

afterAll(async () => {
  for (const request of held) request.response.destroy();
  keystone.closeAllConnections();
  await new Promise((resolve) => keystone.close(resolve));
  kube.close();
});

describe('SIGTERM while Keystone is slow', () => {
  it('starts no further step once told to stop: the answer to the step in flight leads nowhere, and the process exits 0', async () => {
    const namespace = await namespaceWithCr('sigterm-step');
    const operator = startOperator(namespace, '60s');
    const before = held.length;
    const login = await heldSince(before);
    expect(login.url).toMatch(/\/v3\/auth\/tokens$/);

    operator.child.kill('SIGTERM');
    await waitFor(() => Promise.resolve(operator.output().includes('"stopping"') ? true : undefined), { what: 'the operator to start stopping', timeoutMs: 30_000, intervalMs: 100 });
    // Keystone answers the login now: a plan that went on would ask it to create a credential next.
    login.response.writeHead(201, { 'content-type': 'application/json', 'x-subject-token': 'token-of-a-slow-keystone' })
      .end(JSON.stringify({ token: { user: { id: 'user-slow' }, expires_at: '2099-01-01T00:00:00.000000Z' } }));

    expect(await exited(operator.child)).toEqual({ code: 0, signal: null });
    expect(held.slice(before + 1).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(operator.output()).toContain('stopped before the end of the plan');
  });

  it('exits with status 1 at --shutdown-timeout when the step in flight never ends, saying so', async () => {
    const namespace = await namespaceWithCr('sigterm-hang');
    const operator = startOperator(namespace, '2s');
    const before = held.length;
    await heldSince(before);

    operator.child.kill('SIGTERM');
    // The request is never answered: only the timeout ends the process.
    expect(await exited(operator.child)).toEqual({ code: 1, signal: null });
    expect(operator.output()).toContain('steps still in flight at the shutdown timeout');
    expect(held).toHaveLength(before + 1);
  });
});
