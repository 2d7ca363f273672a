import { afterEach, describe, expect, it } from '@jest/globals';
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { Registry } from 'prom-client';
import { RuntimeMetrics } from '../../src/controller/metrics.js';
import { parseListenAddress, serveEndpoints, type Endpoints, type EndpointsOptions } from '../../src/controller/http-endpoints.js';
import { request as requestTls } from 'node:https';
import { selfSignedCertificate } from '../../src/controller/self-signed-certificate.js';
import type { MetricsAccess } from '../../src/controller/metrics-access.js';

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly socket: Socket;
}

function call(port: number, path: string, options: { method?: string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', agent: options.agent ?? false }, (res) => {
      // A keep-alive agent detaches the socket from the response once it ends.
      const socket = res.socket;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, socket });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const open: Endpoints[] = [];

async function serve(options: Omit<EndpointsOptions, 'address'>): Promise<Endpoints> {
  const endpoints = await serveEndpoints({ address: '127.0.0.1:0', ...options });
  open.push(endpoints);
  return endpoints;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((endpoints) => endpoints.close()));
});

describe('parseListenAddress', () => {
  it.each([
    ['127.0.0.1:8080', { host: '127.0.0.1', port: 8080 }],
    [':8080', { port: 8080 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9090', { host: '::1', port: 9090 }],
    ['0', undefined],
  ])('reads %s', (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  it.each(['8080', '127.0.0.1', '127.0.0.1:', ':70000', 'host:port', '::1:8080', '', ' :8080'])('refuses %p, naming it', (text) => {
    expect(() => parseListenAddress(text)).toThrow(`invalid endpoints address "${text}"`);
  });
});

describe('serveEndpoints', () => {
  it('answers probes from the checks: ok or not ready', async () => {
    let ready = false;
    const endpoints = await serve({ liveness: () => true, readiness: () => Promise.resolve(ready) });
    expect(endpoints.port).toBeGreaterThan(0);

    expect(await call(endpoints.port, '/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await call(endpoints.port, '/readyz')).toMatchObject({ status: 503, body: 'not ready\n' });
    ready = true;
    expect(await call(endpoints.port, '/readyz?verbose')).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('treats a check that throws as failing and a missing check as passing', async () => {
    const endpoints = await serve({ liveness: () => Promise.reject(new Error('broken')) });
    expect(await call(endpoints.port, '/healthz')).toMatchObject({ status: 503, body: 'not ready\n' });
    expect(await call(endpoints.port, '/readyz')).toMatchObject({ status: 200, body: 'ok\n' });
  });

  it('serves the registry at /metrics with its content type', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    metrics.reconciles.inc({ controller: 'appcred', result: 'success' });
    const endpoints = await serve({ registry: metrics.registry });

    const answer = await call(endpoints.port, '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(metrics.registry.contentType);
    expect(answer.body).toContain('keyward_reconcile_total{controller="appcred",result="success"} 1');
  });

  it('answers 404 for other paths and for /metrics without a registry, 405 for other methods', async () => {
    const endpoints = await serve({});
    expect((await call(endpoints.port, '/metrics')).status).toBe(404);
    expect((await call(endpoints.port, '/')).status).toBe(404);
    expect((await call(endpoints.port, '/healthz/extra')).status).toBe(404);
    const post = await call(endpoints.port, '/healthz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD');
    expect(await call(endpoints.port, '/healthz', { method: 'HEAD' })).toMatchObject({ status: 200, body: '' });
  });

  it('does not listen when disabled', async () => {
    const endpoints = await serveEndpoints({ address: '0', liveness: () => true });
    expect(endpoints.port).toBe(0);
    await endpoints.close();
  });

  it('rejects an address in use, naming it', async () => {
    const first = await serve({});
    await expect(serveEndpoints({ address: `127.0.0.1:${String(first.port)}` })).rejects.toThrow(`cannot listen on 127.0.0.1:${String(first.port)}`);
  });

  it('closes idle keep-alive connections on close', async () => {
    const endpoints = await serveEndpoints({ address: '127.0.0.1:0' });
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = await call(endpoints.port, '/healthz', { agent });
      expect(answer.status).toBe(200);
      const closed = new Promise<void>((resolve) => answer.socket.once('close', () => { resolve(); }));
      // The agent keeps the socket for reuse: only the server can end it.
      expect(answer.socket.destroyed).toBe(false);

      await endpoints.close();
      await closed;
      expect(answer.socket.destroyed).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

/** A GET over HTTPS that trusts exactly `ca`, with an optional Authorization header. */
function callTls(port: number, path: string, ca: string, authorization?: string): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = requestTls({ host: '127.0.0.1', port, path, ca, servername: 'localhost', agent: false, headers: authorization === undefined ? {} : { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }); });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveEndpoints over HTTPS', () => {
  const tls = selfSignedCertificate({ commonName: 'keyward-metrics', hosts: ['localhost', '127.0.0.1'], notBefore: new Date(Date.now() - 60_000), validForDays: 1 });
  const asked: (string | undefined)[] = [];
  const access: MetricsAccess = (authorization) => {
    asked.push(authorization);
    if (authorization === 'Bearer scraper') return Promise.resolve({ allowed: true });
    if (authorization === 'Bearer someone') return Promise.resolve({ allowed: false, status: 403, reason: 'someone may not get /metrics' });
    return Promise.resolve({ allowed: false, status: 401, reason: 'a bearer token is required' });
  };

  it('serves the metrics to the callers the access check admits, and says why to the others', async () => {
    const registry = new Registry();
    new RuntimeMetrics(registry).leader.set(1);
    const { port } = await serve({ registry, tls, metricsAccess: access, liveness: () => true });
    const allowed = await callTls(port, '/metrics', tls.cert, 'Bearer scraper');
    expect([allowed.status, allowed.body]).toEqual([200, expect.stringContaining('keyward_leader 1')]);
    expect(await callTls(port, '/metrics', tls.cert, 'Bearer someone')).toMatchObject({ status: 403, body: 'someone may not get /metrics\n' });
    const anonymous = await callTls(port, '/metrics', tls.cert);
    expect([anonymous.status, anonymous.headers['www-authenticate']]).toEqual([401, 'Bearer']);
    expect(asked).toEqual(['Bearer scraper', 'Bearer someone', undefined]);
  });

  it('answers the probes on the same server without asking, and refuses plain HTTP', async () => {
    asked.length = 0;
    const { port } = await serve({ registry: new Registry(), tls, metricsAccess: access, liveness: () => true, readiness: () => false });
    expect((await callTls(port, '/healthz', tls.cert)).status).toBe(200);
    expect((await callTls(port, '/readyz', tls.cert)).status).toBe(503);
    expect(asked).toEqual([]);
    await expect(call(port, '/healthz')).rejects.toThrow();
  });
});
