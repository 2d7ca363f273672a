// stopComponent and startComponent: an API server outage of a length the caller chooses, with the
// cluster's data readable in etcd meanwhile and intact afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEnvironment, type Environment, type EnvironmentInfo } from '../src/environment.js';
import { isStored } from '../src/etcd-store.js';
import { httpCall } from '../src/http.js';

let env: Environment;

beforeAll(async () => {
  env = await startEnvironment({ ownership: 'session', keystone: false, log: () => undefined });
}, 180_000);

afterAll(async () => {
  await env.stop();
});

function get(path: string): Promise<{ status: number; body: string }> {
  const { server, caPem, token } = env.info.kubernetes;
  return httpCall(`${server}${path}`, { ca: caPem, headers: { authorization: `Bearer ${token}` } });
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

function apiserverPid(info: EnvironmentInfo): number | undefined {
  return info.components.find((c) => c.component === 'kube-apiserver')?.pid;
}

describe('an API server outage', () => {
  it('refuses connections from stopComponent until startComponent, and keeps the cluster data', async () => {
    const body = JSON.stringify({ metadata: { name: 'outage-probe' } });
    const { server, caPem, token } = env.info.kubernetes;
    const created = await httpCall(`${server}/api/v1/namespaces`, { method: 'POST', ca: caPem, body, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
    const before = apiserverPid(env.info);

    // kube-apiserver refuses new requests at SIGTERM; the grace only bounds how long it may take to exit.
    await env.stopComponent('kube-apiserver', { graceMs: 1_000 });
    // Still down however often it is asked, until someone starts it: the outage lasts as long as the caller wants.
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(errorCode(await get('/readyz').catch((error: unknown) => error))).toBe('ECONNREFUSED');
    }
    // What the cluster stores stays readable in etcd meanwhile.
    expect(await isStored(env.info.etcdUrl, '/registry/namespaces/outage-probe')).toBe(true);
    expect(await isStored(env.info.etcdUrl, '/registry/namespaces/no-such-namespace')).toBe(false);
    await env.stopComponent('kube-apiserver');

    await env.startComponent('kube-apiserver');
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/api/v1/namespaces/outage-probe')).status).toBe(200);
    const saved = JSON.parse(readFileSync(join(env.info.dir, 'env.json'), 'utf8')) as EnvironmentInfo;
    expect(apiserverPid(saved)).toBe(apiserverPid(env.info));
    expect(apiserverPid(env.info)).not.toBe(before);
  });

  it('will not start a component that runs, nor stop or start one it cannot tell is ready', async () => {
    await expect(env.startComponent('kube-apiserver')).rejects.toThrow(/kube-apiserver is running; stop it first/);
    await expect(env.stopComponent('etcd')).rejects.toThrow(/kube-apiserver and keycloak only, not etcd/);
    await expect(env.startComponent('etcd')).rejects.toThrow(/kube-apiserver and keycloak only, not etcd/);
    await expect(env.stopComponent('keycloak')).rejects.toThrow(/this environment has no keycloak/);
    expect((await get('/readyz')).status).toBe(200);
  });
});
