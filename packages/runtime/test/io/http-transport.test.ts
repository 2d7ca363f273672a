import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { Registry } from 'prom-client';
import { KeywardError } from '@keyward/kernel/interpreter';
import { HttpTransport } from '../../src/io/http/transport.js';
import { defaultErrorDetail } from '../../src/io/http/error-detail.js';
import { parseRetryAfter } from '../../src/io/http/retry-after.js';
import type { HttpRequest, HttpRequestInfo, HttpResponse, HttpTransportOptions } from '../../src/io/http/types.js';
import { sensitive } from '@keyward/kernel';
import { httpRequestMetrics } from '../../src/controller/instrumentation.js';
import { RuntimeMetrics } from '../../src/controller/metrics.js';
import { FairRateLimiter } from '../../src/io/rate/fair-rate-limiter.js';
import { FakeLimiterClock } from './fair-rate-limit-clock.js';
import { limits } from './fair-rate-limit-harness.js';
import { ManualClock } from './manual-clock.js';

const ORIGIN = 'http://api.example.test';
const BASE_URL = `${ORIGIN}/api`;
/** A whole second, so HTTP dates (which have no milliseconds) are exact. */
const NOW = Date.parse('2026-03-01T10:00:00Z');
const TOKEN = 'tok-Secret-0451';
const PASSWORD = 'pa55 "very" secret&sure';

/** Transports of the running test, closed after it so no probe outlives it. */
const transports: HttpTransport[] = [];

/** A transport on a fixed clock whose sleeps return at once, with the sleeps asked for and the attempts it reported. */
function transport(options: Partial<HttpTransportOptions> = {}) {
  const sleeps: number[] = [];
  const seen: HttpRequestInfo[] = [];
  const http = new HttpTransport({
    api: 'testapi',
    label: 'Test API',
    baseUrl: BASE_URL,
    now: () => NOW,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    observer: { onRequest: (info) => seen.push(info) },
    breaker: { clock: new ManualClock(NOW) },
    ...options,
  });
  transports.push(http);
  return { http, sleeps, seen };
}

const get = (path = '/things', extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  path,
  operation: 'list_things',
  description: 'list things',
  ...extra,
});

/** Answers each call to `method path` with the next of `answers` (status, body, headers), counting the calls. */
function answers(method: 'get' | 'post' | 'put' | 'delete', path: string, ...replies: [number, nock.Body?, Record<string, string>?][]) {
  let calls = 0;
  const scope = nock(ORIGIN);
  scope[method](`/api${path}`)
    .times(replies.length)
    .reply(() => {
      const [status, body, headers] = replies[calls] ?? [599];
      calls++;
      return [status, body ?? {}, headers ?? {}];
    });
  return { calls: () => calls };
}

async function failure(promise: Promise<unknown>): Promise<KeywardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof KeywardError)) throw new Error(`expected a KeywardError, got ${inspect(error)}`);
  return error;
}

/** Every way an error could end up in a log. */
function renderings(error: KeywardError): string[] {
  return [String(error), error.message, JSON.stringify(error), inspect(error), error.stack ?? ''];
}

/** Lets event-loop turns pass (nock answers on later turns) until `condition` holds; counts turns, not time. */
async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

/** A few event-loop turns, in which anything about to happen would. */
async function someTurns(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** Servers of the running test, closed after it. */
const servers: Server[] = [];

/** A server on 127.0.0.1 for what nock cannot fake, a connection dropped mid-request; `handle` is told each call's number. */
async function localServer(handle: (call: number, req: IncomingMessage, res: ServerResponse) => void) {
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    handle(calls, req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { baseUrl: `http://127.0.0.1:${String(address.port)}/api`, calls: () => calls };
}

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(async () => {
  for (const used of transports.splice(0)) used.availability.close();
  nock.cleanAll();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

describe('retries', () => {
  it('retries a 5xx with exponential backoff and returns the success', async () => {
    const server = answers('get', '/things', [503], [500], [200, { things: [1] }]);
    const { http, sleeps, seen } = transport();

    const response = await http.send(get());

    expect(response).toMatchObject({ status: 200, body: { things: [1] } });
    expect(server.calls()).toBe(3);
    expect(sleeps).toEqual([200, 400]);
    expect(seen.map(({ api, operation, status, attempt }) => [api, operation, status, attempt])).toEqual([
      ['testapi', 'list_things', 503, 1],
      ['testapi', 'list_things', 500, 2],
      ['testapi', 'list_things', 200, 3],
    ]);
    // The last attempt was answered: the endpoint never counted as down.
    expect(http.availability.available).toBe(true);
  });

  it('gives up after maxAttempts, with the last status, backing off up to maxDelayMs', async () => {
    const server = answers('get', '/things', [500], [502, 'bad gateway'], [500], [500], [504, { message: 'upstream timed out' }]);
    const { http, sleeps } = transport({ retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 500 } });

    const error = await failure(http.send(get()));

    expect(server.calls()).toBe(5);
    expect(sleeps).toEqual([100, 200, 400, 500]);
    expect(error).toMatchObject({ api: 'testapi', code: 504, reason: 'ServerError', retryable: true, message: 'list things: HTTP 504 upstream timed out' });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it.each(['put', 'delete'] as const)('retries a %s by default', async (method) => {
    const server = answers(method, '/things/1', [500], [204]);
    const { http } = transport();

    await http.send({ method: method === 'put' ? 'PUT' : 'DELETE', path: '/things/1', operation: 'x', description: 'change thing 1' });

    expect(server.calls()).toBe(2);
  });

  it('does not retry a POST unless the request says retry: true', async () => {
    const once = answers('post', '/once', [500], [201]);
    const twice = answers('post', '/twice', [500], [201]);
    const { http, sleeps } = transport();
    const post = (path: string): HttpRequest => ({ method: 'POST', path, operation: 'create', description: `create ${path}`, body: {} });

    const error = await failure(http.send(post('/once')));
    const response = await http.send({ ...post('/twice'), retry: true });

    expect(once.calls()).toBe(1);
    expect(error).toMatchObject({ code: 500, retryable: true });
    expect(twice.calls()).toBe(2);
    expect(response.status).toBe(201);
    expect(sleeps).toEqual([200]);
  });

  it('tries a read once when the request says retry: false, and never retries what is not retryable', async () => {
    const once = answers('get', '/once', [500], [200]);
    const denied = answers('get', '/denied', [403, { error: { message: 'no' } }], [200]);
    const { http, sleeps } = transport();

    await failure(http.send(get('/once', { retry: false })));
    const error = await failure(http.send(get('/denied')));

    expect([once.calls(), denied.calls()]).toEqual([1, 1]);
    expect(error).toMatchObject({ code: 403, reason: 'Forbidden', retryable: false, message: 'list things: HTTP 403 no' });
    expect(sleeps).toEqual([]);
  });

  it('retries a network error, which the observer sees as status 0', async () => {
    const server = await localServer((call, _req, res) => {
      if (call === 1) res.socket?.destroy();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const { http, sleeps, seen } = transport({ baseUrl: server.baseUrl });

    const response = await http.send(get());

    expect(response.body).toEqual({ ok: true });
    expect(server.calls()).toBe(2);
    expect(sleeps).toEqual([200]);
    expect(seen.map((info) => [info.status, info.attempt])).toEqual([
      [0, 1],
      [200, 2],
    ]);
  });

  it('reports a network error of a POST as Unavailable, naming the endpoint, without retrying', async () => {
    const server = await localServer((_call, _req, res) => res.socket?.destroy());
    const { http, sleeps } = transport({ baseUrl: server.baseUrl });

    const error = await failure(http.send({ method: 'POST', path: '/things', operation: 'create', description: 'create a thing', body: {} }));

    expect(server.calls()).toBe(1);
    expect(error).toMatchObject({ code: 0, reason: 'Unavailable', retryable: true });
    expect(error.message).toBe(`create a thing: Test API at ${server.baseUrl} is unreachable (ECONNRESET)`);
    expect(sleeps).toEqual([]);
  });

  it('rejects retry settings that make no sense', () => {
    expect(() => new HttpTransport({ api: 'x', baseUrl: BASE_URL, retry: { maxAttempts: 0 } })).toThrow(RangeError);
    expect(() => new HttpTransport({ api: 'x', baseUrl: BASE_URL, retry: { baseDelayMs: 500, maxDelayMs: 100 } })).toThrow(RangeError);
  });
});

describe('Retry-After', () => {
  it('waits as long as a 429 asks, in seconds, before the next attempt', async () => {
    const server = answers('get', '/things', [429, { error: { message: 'slow down' } }, { 'Retry-After': '7' }], [200]);
    const { http, sleeps } = transport();

    await http.send(get());

    expect(server.calls()).toBe(2);
    expect(sleeps).toEqual([7_000]);
  });

  it('reads a 503 Retry-After given as an HTTP date', async () => {
    answers('get', '/things', [503, {}, { 'Retry-After': new Date(NOW + 12_000).toUTCString() }], [200]);
    const { http, sleeps } = transport();

    await http.send(get());

    expect(sleeps).toEqual([12_000]);
  });

  it('does not wait out a Retry-After beyond the cap: fails at once with the hint on the error', async () => {
    const server = answers('get', '/things', [429, {}, { 'Retry-After': '120' }], [200]);
    const { http, sleeps, seen } = transport({ retry: { retryAfterCapMs: 30_000 } });

    const error = await failure(http.send(get()));

    expect(server.calls()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ code: 429, reason: 'TooManyRequests', retryable: true, retryAfterMs: 120_000 });
  });

  it('puts the hint on the error of a request that is not retried, and of the last attempt', async () => {
    answers('post', '/things', [429, {}, { 'Retry-After': '3' }]);
    answers('get', '/things', [503, {}, { 'Retry-After': '1' }], [503, {}, { 'Retry-After': '2' }], [503, {}, { 'Retry-After': '4' }]);
    const { http, sleeps } = transport();

    const post = await failure(http.send({ method: 'POST', path: '/things', operation: 'create', description: 'create', body: {} }));
    const read = await failure(http.send(get()));

    expect(post.retryAfterMs).toBe(3_000);
    expect(sleeps).toEqual([1_000, 2_000]);
    expect(read.retryAfterMs).toBe(4_000);
  });

  it('ignores Retry-After on other statuses', async () => {
    answers('get', '/things', [500, {}, { 'Retry-After': '9' }], [200]);
    const { http, sleeps } = transport();

    await http.send(get());

    expect(sleeps).toEqual([200]);
  });

  it.each([
    ['0', 0],
    [' 30 ', 30_000],
    [new Date(NOW + 90_000).toUTCString(), 90_000],
    [new Date(NOW - 5_000).toUTCString(), 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('parses %p as %p ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe('limiters', () => {
  /** Holds the calls to `path` unanswered until released, in the order they arrived. */
  function held(path: string, count: number) {
    const waiting: (() => void)[] = [];
    let arrived = 0;
    nock(ORIGIN)
      .get(`/api${path}`)
      .times(count)
      .reply((_uri, _body, callback) => {
        arrived++;
        waiting.push(() => { callback(null, [200, { path }]); });
      });
    return {
      arrived: () => arrived,
      releaseOne: () => { waiting.shift()?.(); },
    };
  }

  it('gives each tenant its own turn in the tenant limiter, so one tenant queues behind itself and not the others', async () => {
    nock(ORIGIN).get('/api/a').times(2).reply(200, { path: '/a' });
    nock(ORIGIN).get('/api/b').reply(200, { path: '/b' });
    const clock = new FakeLimiterClock();
    const tenantLimiter = new FairRateLimiter(limits({ tenant: { ratePerSecond: 1, burst: 1 } }), { clock });
    const { http } = transport({ limiter: { maxConcurrent: 10 }, tenantLimiter });
    const done: string[] = [];
    const send = (path: string, tenant: string) => http.send(get(path, { tenant })).then(() => done.push(`${tenant}${path}`));

    const calls = [send('/a', 'tenant-a'), send('/a', 'tenant-a'), send('/b', 'tenant-b')];
    await turnsUntil(() => done.length === 2);
    await someTurns();

    // Tenant a's second request waits for its tenant's next token; tenant b's went past it.
    expect([...done].sort()).toEqual(['tenant-a/a', 'tenant-b/b']);
    await clock.advance(1000);
    await Promise.all(calls);
    expect(done.slice(2)).toEqual(['tenant-a/a']);
  });

  it('limits a tenant in addition to the endpoint', async () => {
    const server = held('/a', 3);
    const { http } = transport({ limiter: { maxConcurrent: 1 }, tenantLimiter: new FairRateLimiter(limits({}), { clock: new FakeLimiterClock() }) });

    const calls = [http.send(get('/a', { tenant: 'x' })), http.send(get('/a', { tenant: 'y' })), http.send(get('/a'))];
    await turnsUntil(() => server.arrived() === 1);
    await someTurns();

    expect(server.arrived()).toBe(1);
    for (let sent = 1; sent <= 3; sent++) {
      await turnsUntil(() => server.arrived() === sent);
      server.releaseOne();
    }
    await Promise.all(calls);
  });

  it('ignores tenants when no tenant limiter is configured', async () => {
    const server = held('/a', 2);
    const { http } = transport({ limiter: { maxConcurrent: 10 } });

    const calls = [http.send(get('/a', { tenant: 'x' })), http.send(get('/a', { tenant: 'x' }))];
    await turnsUntil(() => server.arrived() === 2);
    server.releaseOne();
    server.releaseOne();

    await Promise.all(calls);
  });

  it('charges every attempt to the tenant, retries included', async () => {
    const server = answers('get', '/a', [503], [200]);
    const acquired: string[] = [];
    const tenantLimiter = { acquire: (tenant: string) => { acquired.push(tenant); return Promise.resolve(); } };
    const { http } = transport({ tenantLimiter });

    expect((await http.send(get('/a', { tenant: 'team-a' }))).status).toBe(200);
    expect({ calls: server.calls(), acquired }).toEqual({ calls: 2, acquired: ['team-a', 'team-a'] });
  });

  it("fails a request that waited too long for its tenant's turn with the limiter's error, sending nothing", async () => {
    const server = answers('get', '/a', [200]);
    const clock = new FakeLimiterClock();
    const tenantLimiter = new FairRateLimiter(limits({ tenant: { ratePerSecond: 1, burst: 1 }, maxWaitMs: 500 }), { clock });
    const { http } = transport({ tenantLimiter });

    expect((await http.send(get('/a', { tenant: 'team-a' }))).status).toBe(200);
    const second = failure(http.send(get('/a', { tenant: 'team-a' })));
    await clock.advance(500);
    expect(await second).toMatchObject({ code: 429, reason: 'RateLimited', retryable: true });
    expect(server.calls()).toBe(1);
    // A request that was never sent says nothing about the endpoint.
    expect(http.availability.available).toBe(true);
  });

  it('reports the time an attempt queued and was on the wire, by the injected clock', async () => {
    const clock = new ManualClock(NOW);
    const server = held('/a', 2);
    const { http, seen } = transport({ now: () => clock.now(), limiter: { maxConcurrent: 1 } });

    const calls = [http.send(get('/a')), http.send(get('/a'))];
    await turnsUntil(() => server.arrived() === 1);
    clock.advance(40);
    server.releaseOne();
    await turnsUntil(() => server.arrived() === 2);
    clock.advance(25);
    server.releaseOne();
    await Promise.all(calls);

    expect(seen.map(({ durationMs, limiterWaitMs }) => ({ durationMs, limiterWaitMs }))).toEqual([
      { durationMs: 40, limiterWaitMs: 0 },
      { durationMs: 25, limiterWaitMs: 40 },
    ]);
  });
});

describe('secrets', () => {
  it('reveals Sensitive values only on the wire and masks every echo of them in errors', async () => {
    let received: { body: unknown; auth: unknown } | undefined;
    nock(ORIGIN)
      .post('/api/login')
      .reply(function echo(_uri, body) {
        received = { body, auth: this.req.headers['authorization'] };
        const raw = JSON.stringify(body);
        return [400, `invalid request ${raw} with ${String(this.req.headers['authorization'])} (${encodeURIComponent(PASSWORD)})`, { 'content-type': 'text/plain' }];
      });
    const { http } = transport();

    const error = await failure(
      http.send({
        method: 'POST',
        path: '/login',
        operation: 'login',
        description: 'log in as alice',
        token: sensitive(TOKEN),
        body: { user: 'alice', password: sensitive(PASSWORD) },
      }),
    );

    expect(received).toEqual({ body: { user: 'alice', password: PASSWORD }, auth: `Bearer ${TOKEN}` });
    expect(error.message).toBe('log in as alice: HTTP 400 invalid request {"user":"alice","password":"***"} with Bearer *** (***)');
    for (const text of renderings(error)) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  it('masks a secret before shortening, so no piece of one is left at the cut', async () => {
    const secret = 'x'.repeat(40);
    answers('get', '/things', [400, { message: `${'a'.repeat(290)}${secret}` }]);
    const { http } = transport({ retry: { maxAttempts: 1 } });

    const error = await failure(http.send(get('/things', { secrets: [sensitive(secret)] })));

    expect(error.message).toBe(`list things: HTTP 400 ${'a'.repeat(290)}***`);
  });

  it('sends a form with its Sensitive values revealed, and a token in the headers the API uses', async () => {
    let received: { body: unknown; type: unknown; token: unknown } | undefined;
    nock(ORIGIN)
      .post('/api/token')
      .reply(function capture(_uri, body) {
        received = { body, type: this.req.headers['content-type'], token: this.req.headers['x-token'] };
        return [200, { access_token: 'a' }];
      });
    const { http } = transport({ authHeaders: (token) => ({ 'x-token': token }) });

    await http.send({
      method: 'POST',
      path: '/token',
      operation: 'token',
      description: 'get a token',
      token: sensitive(TOKEN),
      form: { grant_type: 'password', password: sensitive(PASSWORD) },
    });

    expect(received).toEqual({
      body: `grant_type=password&password=${new URLSearchParams({ p: PASSWORD }).toString().slice(2)}`,
      type: 'application/x-www-form-urlencoded',
      token: TOKEN,
    });
  });
});

describe('error bodies', () => {
  const response = (body: unknown, contentType = 'application/json'): HttpResponse => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return { status: 400, headers: { 'content-type': contentType }, body: typeof body === 'string' ? undefined : body, text };
  };

  it.each([
    [{ error: { code: 404, title: 'Not Found', message: 'Could not find user' } }, 'Could not find user'],
    [{ error: 'invalid_grant', error_description: 'Invalid user credentials' }, 'invalid_grant: Invalid user credentials'],
    [{ error_description: 'Bad token' }, 'Bad token'],
    [{ errorMessage: 'User exists with same username' }, 'User exists with same username'],
    [{ error: 'unauthorized_client' }, 'unauthorized_client'],
    [{ message: 'nope' }, 'nope'],
    [{ something: 'else' }, ''],
    [[1, 2], ''],
  ])('reads %j as %p', (body, detail) => {
    expect(defaultErrorDetail(response(body))).toBe(detail);
  });

  it('quotes plain text but not an HTML page', () => {
    expect(defaultErrorDetail(response('no healthy upstream', 'text/plain; charset=utf-8'))).toBe('no healthy upstream');
    expect(defaultErrorDetail({ status: 502, headers: {}, body: undefined, text: 'bad gateway' })).toBe('bad gateway');
    expect(defaultErrorDetail(response('<html><body>502</body></html>', 'text/html'))).toBe('');
  });

  it('quotes the detail on one line, at most 300 characters', async () => {
    answers('get', '/things', [400, `first line\n  second line ${'z'.repeat(400)}`, { 'content-type': 'text/plain' }]);
    const { http } = transport();

    const error = await failure(http.send(get()));

    expect(error.message).toBe(`list things: HTTP 400 ${`first line second line ${'z'.repeat(400)}`.slice(0, 300)}...`);
  });

  it("uses the API's decoder, masking what it returns", async () => {
    answers('get', '/things', [409, { problem: { text: `conflict with ${TOKEN}` } }]);
    const { http } = transport({
      decodeError: (answer) => {
        const { body } = answer;
        return typeof body === 'object' && body !== null && 'problem' in body ? JSON.stringify(body.problem) : '';
      },
    });

    const error = await failure(http.send(get('/things', { token: sensitive(TOKEN) })));

    expect(error).toMatchObject({ code: 409, reason: 'Conflict', retryable: false, message: 'list things: HTTP 409 {"text":"conflict with ***"}' });
  });

  it('quotes nothing when the decoder throws, and still fails with a KeywardError', async () => {
    answers('get', '/things', [400, { unexpected: true }]);
    const { http } = transport({
      decodeError: () => {
        throw new Error('decoder bug');
      },
    });

    const error = await failure(http.send(get()));

    expect(error).toMatchObject({ code: 400, reason: 'BadRequest', message: 'list things: HTTP 400' });
  });

  it('returns an accepted status as an answer, with its parsed body and lower-case headers', async () => {
    answers('delete', '/things/1', [404, { error: { message: 'gone' } }, { 'X-Request-Id': 'r1' }]);
    const { http } = transport();

    const answer = await http.send({ method: 'DELETE', path: '/things/1', operation: 'delete', description: 'delete thing 1', accept: [404] });

    expect(answer).toMatchObject({ status: 404, body: { error: { message: 'gone' } }, headers: { 'x-request-id': 'r1' } });
  });
});

describe('availability', () => {
  it('fails fast after an endpoint is down, and probes probePath without a token', async () => {
    const clock = new ManualClock(NOW);
    answers('post', '/things', [503]);
    let probeAuth: unknown = 'not probed';
    nock(ORIGIN)
      .get('/api/health')
      .reply(function probe() {
        probeAuth = this.req.headers['authorization'];
        return [200, {}];
      });
    const { http, seen } = transport({ breaker: { clock }, probePath: '/health' });
    const post: HttpRequest = { method: 'POST', path: '/things', operation: 'create', description: 'create a thing', token: sensitive(TOKEN), body: {} };

    await failure(http.send(post));
    const refused = await failure(http.send(post));

    expect(http.availability.available).toBe(false);
    expect(refused).toMatchObject({ api: 'testapi', code: 0, reason: 'Unavailable', retryable: true });
    expect(refused.message).toContain(`create a thing: Test API at ${BASE_URL} is unavailable since`);
    clock.advance(1_000);
    await turnsUntil(() => http.availability.available);
    expect(probeAuth).toBeUndefined();
    expect(seen.map((info) => info.operation)).toEqual(['create', 'probe']);
  });
});

describe('httpRequestMetrics', () => {
  it("counts every attempt under the transport's api, with the time it waited in the limiters", async () => {
    const clock = new ManualClock(NOW);
    const metrics = new RuntimeMetrics(new Registry());
    const server = answers('get', '/things', [503], [200]);
    const { http } = transport({ observer: httpRequestMetrics(metrics), now: () => clock.now() });

    await http.send(get());

    const text = await metrics.registry.metrics();
    expect(server.calls()).toBe(2);
    expect(text).toContain('keyward_external_requests_total{api="testapi",operation="list_things",status="503"} 1');
    expect(text).toContain('keyward_external_requests_total{api="testapi",operation="list_things",status="200"} 1');
    expect(text).toContain('keyward_external_request_duration_seconds_count{api="testapi",operation="list_things"} 2');
    expect(text).toContain('keyward_rate_limiter_wait_seconds_count{api="testapi"} 2');
  });
});
