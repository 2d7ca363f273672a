import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import nock from 'nock';
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import type { KeywardError, AvailabilityChange } from '@keyward/kernel/interpreter';
import {
  KeystoneClient,
  type KeystoneClientOptions,
  type KeystoneRequestInfo,
  type KeystoneToken,
  type PasswordAuthRequest,
} from '../../src/apis/keystone/io/client.js';
import { TokenCache, type PasswordAuthenticator } from '../../src/apis/keystone/io/token-cache.js';
import { keystoneClientPool } from '../../src/apis/keystone/io/runtime.js';
import { keystoneHandlers } from '../../src/apis/keystone/io/handlers.js';
import { PlanBuilder, keystoneApi, sensitive, vocabulary } from '@keyward/kernel';
import { type KeystoneAction } from '@keyward/kernel/plan';
import { interpret } from '@keyward/kernel/interpreter';
import { keystoneFailure } from './keystone-failure.js';
import { ManualClock } from './manual-clock.js';

const ORIGIN = 'http://keystone.example.test';
const BASE_URL = `${ORIGIN}/v3`;
const PASSWORD = 'pa55-Very-Secret-4711';
const TOKEN = 'gAAAAAB-token-value';
const USER_ID = 'u-123';
const CREDENTIALS_PATH = `/v3/users/${USER_ID}/application_credentials`;

const login: PasswordAuthRequest = {
  userName: 'keyward-svc',
  userDomain: 'Default',
  password: sensitive(PASSWORD),
  projectName: 'service',
  projectDomain: 'Default',
};

const tokenBody = { token: { expires_at: '2030-01-01T12:00:00.000000Z', user: { id: USER_ID } } };
const keystoneError = (code: number, title: string, message: string) => ({ error: { code, title, message } });

/** Clients of the running test, closed after it so that no probe of an endpoint it took down outlives it. */
const clients: KeystoneClient[] = [];
/** The pauses the running test's clients asked for between attempts; none is waited out. */
const pauses: number[] = [];

function client(options: Partial<KeystoneClientOptions> = {}): KeystoneClient {
  const sleep = (ms: number): Promise<void> => {
    pauses.push(ms);
    return Promise.resolve();
  };
  const created = new KeystoneClient({ baseUrl: BASE_URL, sleep, ...options });
  clients.push(created);
  return created;
}

/** Lets event-loop turns pass (nock answers on later turns) until `condition` holds; counts turns, not time. */
async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}


/** A local port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Every way an error could end up in a log. */
function renderings(error: KeywardError): string[] {
  return [String(error), error.message, JSON.stringify(error), inspect(error), error.stack ?? ''];
}

/** An interceptor answering `status` on every call, counting the calls. */
function counted(interceptor: nock.Interceptor, status: number, body: nock.Body = {}): { calls: () => number } {
  let calls = 0;
  interceptor.times(10).reply(() => {
    calls++;
    return [status, body];
  });
  return { calls: () => calls };
}

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect((host) => !host.includes('example.test'));
});
afterEach(() => {
  for (const used of clients.splice(0)) used.availability.close();
  pauses.splice(0);
  nock.cleanAll();
});
afterAll(() => {
  nock.enableNetConnect();
  // Unpatch Node's http, which outlives this file in the jest worker.
  nock.restore();
});

describe('authenticate', () => {
  it('sends a project-scoped password login and returns the subject token, user id and expiry', async () => {
    let sent: unknown;
    const scope = nock(ORIGIN)
      .post('/v3/auth/tokens', (body: unknown) => {
        sent = body;
        return true;
      })
      .reply(201, tokenBody, { 'X-Subject-Token': TOKEN });

    const token = await client().authenticate(login);

    expect(scope.isDone()).toBe(true);
    expect(sent).toEqual({
      auth: {
        identity: { methods: ['password'], password: { user: { name: 'keyward-svc', domain: { name: 'Default' }, password: PASSWORD } } },
        scope: { project: { name: 'service', domain: { name: 'Default' } } },
      },
    });
    expect(token.token.reveal()).toBe(TOKEN);
    expect(token.userId).toBe(USER_ID);
    expect(token.expiresAt).toBe('2030-01-01T12:00:00.000Z');
  });

  it('reports a 401 naming the user, never the password, and does not retry', async () => {
    const answer = counted(
      nock(ORIGIN).post('/v3/auth/tokens'),
      401,
      keystoneError(401, 'Unauthorized', 'The request you have made requires authentication.'),
    );

    const error = await keystoneFailure(client().authenticate(login));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized', retryable: false });
    expect(error.message).toContain('keyward-svc');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('The request you have made requires authentication.');
    for (const text of renderings(error)) expect(text).not.toContain(PASSWORD);
  });

  it('masks a password that Keystone echoes back in its error message', async () => {
    nock(ORIGIN)
      .post('/v3/auth/tokens')
      .reply(400, keystoneError(400, 'Bad Request', `Invalid input for field 'password': '${PASSWORD}' is too short`));

    const error = await keystoneFailure(client().authenticate(login));

    expect(error.message).toContain("Invalid input for field 'password': '***' is too short");
    for (const text of renderings(error)) expect(text).not.toContain(PASSWORD);
  });

  it('rejects an answer without X-Subject-Token as a BadResponse', async () => {
    nock(ORIGIN).post('/v3/auth/tokens').reply(201, tokenBody);

    const error = await keystoneFailure(client().authenticate(login));

    expect(error).toMatchObject({ code: 201, reason: 'BadResponse', retryable: false });
    expect(error.message).toContain('X-Subject-Token');
  });

  it('authenticates with an application credential', async () => {
    let sent: unknown;
    nock(ORIGIN)
      .post('/v3/auth/tokens', (body: unknown) => {
        sent = body;
        return true;
      })
      .reply(201, tokenBody, { 'X-Subject-Token': TOKEN });

    const token = await client().authenticateWithApplicationCredential({ id: 'ac-1', secret: sensitive('ac-secret') });

    expect(sent).toEqual({ auth: { identity: { methods: ['application_credential'], application_credential: { id: 'ac-1', secret: 'ac-secret' } } } });
    expect(token.userId).toBe(USER_ID);
  });
});

describe('createApplicationCredential', () => {
  const request = {
    name: 'ns-app',
    description: 'managed by keyward',
    roles: ['service', 'reader'],
    unrestricted: false,
    expiresAt: undefined,
  } as const;
  const created = {
    application_credential: {
      id: 'ac-1',
      name: 'ns-app',
      secret: 'the-credential-secret',
      expires_at: '2030-02-03T04:05:06.000000',
      roles: [{ id: 'r1', name: 'service', domain_id: null }, { id: 'r2', name: 'reader', domain_id: null }],
      access_rules: [{ id: 'ar1', service: 'identity', path: '/v3/users', method: 'GET' }],
    },
  };

  it('sends roles by name, the token, and access rules only when there are some', async () => {
    const bodies: unknown[] = [];
    nock(ORIGIN)
      .matchHeader('x-auth-token', TOKEN)
      .post(CREDENTIALS_PATH, (body: unknown) => {
        bodies.push(body);
        return true;
      })
      .times(3)
      .reply(201, created);
    const keystone = client();

    await keystone.createApplicationCredential(sensitive(TOKEN), USER_ID, request);
    await keystone.createApplicationCredential(sensitive(TOKEN), USER_ID, { ...request, accessRules: [] });
    await keystone.createApplicationCredential(sensitive(TOKEN), USER_ID, {
      ...request,
      unrestricted: true,
      expiresAt: '2030-02-03T04:05:06Z',
      accessRules: [{ service: 'identity', path: '/v3/users', method: 'GET' }],
    });

    const base = { name: 'ns-app', description: 'managed by keyward', roles: [{ name: 'service' }, { name: 'reader' }] };
    expect(bodies).toEqual([
      { application_credential: { ...base, unrestricted: false, expires_at: null } },
      { application_credential: { ...base, unrestricted: false, expires_at: null } },
      {
        application_credential: {
          ...base,
          unrestricted: true,
          expires_at: '2030-02-03T04:05:06Z',
          access_rules: [{ service: 'identity', path: '/v3/users', method: 'GET' }],
        },
      },
    ]);
  });

  it('returns the secret as Sensitive and the expiry as UTC ISO 8601', async () => {
    nock(ORIGIN).post(CREDENTIALS_PATH).reply(201, created);

    const credential = await client().createApplicationCredential(sensitive(TOKEN), USER_ID, request);

    expect(credential).toEqual({
      id: 'ac-1',
      name: 'ns-app',
      secret: expect.anything(),
      expiresAt: '2030-02-03T04:05:06.000Z',
      roles: ['service', 'reader'],
      accessRules: [{ service: 'identity', path: '/v3/users', method: 'GET' }],
    });
    expect(credential.secret.reveal()).toBe('the-credential-secret');
    expect(JSON.stringify(credential)).not.toContain('the-credential-secret');
  });

  it('does not retry a 5xx', async () => {
    const answer = counted(nock(ORIGIN).post(CREDENTIALS_PATH), 503, keystoneError(503, 'Service Unavailable', 'try later'));

    const error = await keystoneFailure(client().createApplicationCredential(sensitive(TOKEN), USER_ID, request));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ code: 503, reason: 'ServerError', retryable: true });
    expect(error.message).toBe(`create application credential ns-app for user ${USER_ID}: HTTP 503 Service Unavailable: try later`);
  });

  it('reports a 429 as retryable without retrying the POST itself', async () => {
    const answer = counted(nock(ORIGIN).post(CREDENTIALS_PATH), 429, keystoneError(429, 'Too Many Requests', 'slow down'));

    const error = await keystoneFailure(client().createApplicationCredential(sensitive(TOKEN), USER_ID, request));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ code: 429, reason: 'TooManyRequests', retryable: true });
  });

  it('times out after the configured time, without retrying', async () => {
    let calls = 0;
    nock(ORIGIN)
      .post(CREDENTIALS_PATH)
      .times(3)
      .delay(1_000)
      .reply(() => {
        calls++;
        return [201, created];
      });

    // The reply comes after 1 s: a Timeout (not the 201) shows the client gave up first.
    const error = await keystoneFailure(client({ timeoutMs: 100 }).createApplicationCredential(sensitive(TOKEN), USER_ID, request));

    expect(calls).toBe(1);
    expect(error).toMatchObject({ code: 0, reason: 'Timeout', retryable: true });
    expect(error.message).toContain('within 100 ms');
    for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
  });

  it('names the missing fields of a malformed answer, never the values', async () => {
    const { secret, ...withoutId } = { ...created.application_credential, id: undefined };
    nock(ORIGIN)
      .post(CREDENTIALS_PATH)
      .reply(201, { application_credential: { ...withoutId, secret, roles: 'service' } });

    const error = await keystoneFailure(client().createApplicationCredential(sensitive(TOKEN), USER_ID, request));

    expect(error).toMatchObject({ code: 201, reason: 'BadResponse', retryable: false });
    expect(error.message).toContain('missing or invalid application_credential.id, application_credential.roles');
    for (const text of renderings(error)) expect(text).not.toContain(secret);
  });

  it('rejects a non-JSON answer as a BadResponse', async () => {
    nock(ORIGIN).post(CREDENTIALS_PATH).reply(201, '<html>proxy says hi</html>', { 'content-type': 'text/html' });

    const error = await keystoneFailure(client().createApplicationCredential(sensitive(TOKEN), USER_ID, request));

    expect(error).toMatchObject({ reason: 'BadResponse', retryable: false });
    expect(error.message).toContain('not a JSON body');
  });

  it('reports an unreachable Keystone as Unavailable', async () => {
    const port = await closedPort();

    const error = await keystoneFailure(
      client({ baseUrl: `http://127.0.0.1:${String(port)}/v3` }).createApplicationCredential(sensitive(TOKEN), USER_ID, request),
    );

    expect(error).toMatchObject({ code: 0, reason: 'Unavailable', retryable: true });
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('listApplicationCredentials', () => {
  const listed = {
    application_credentials: [
      { id: 'ac-1', name: 'ns-app', description: null, expires_at: null, secret: 'never-listed-but-what-if', roles: [] },
      { id: 'ac-2', name: 'other', description: 'x', expires_at: '2030-01-01T00:00:00.000000' },
    ],
    links: { self: `${BASE_URL}/users/${USER_ID}/application_credentials` },
  };

  it('filters by name and returns summaries without secrets', async () => {
    nock(ORIGIN).get(CREDENTIALS_PATH).query({ name: 'ns-app' }).matchHeader('x-auth-token', TOKEN).reply(200, listed);

    const credentials = await client().listApplicationCredentials(sensitive(TOKEN), USER_ID, { name: 'ns-app' });

    expect(credentials).toEqual([
      { id: 'ac-1', name: 'ns-app', description: null, expiresAt: null },
      { id: 'ac-2', name: 'other', description: 'x', expiresAt: '2030-01-01T00:00:00.000Z' },
    ]);
  });

  it('retries a 5xx twice and then succeeds', async () => {
    let calls = 0;
    nock(ORIGIN)
      .get(CREDENTIALS_PATH)
      .times(3)
      .reply(() => {
        calls++;
        return calls < 3 ? [502, 'bad gateway'] : [200, listed];
      });

    const credentials = await client().listApplicationCredentials(sensitive(TOKEN), USER_ID);

    expect(calls).toBe(3);
    expect(credentials).toHaveLength(2);
    expect(pauses).toEqual([200, 400]);
  });

  it('gives up after two retries, with the last status', async () => {
    const answer = counted(nock(ORIGIN).get(CREDENTIALS_PATH), 500, keystoneError(500, 'Internal Server Error', 'boom'));
    const seen: KeystoneRequestInfo[] = [];

    const error = await keystoneFailure(
      client({ observer: { onRequest: (info) => seen.push(info) } }).listApplicationCredentials(sensitive(TOKEN), USER_ID),
    );

    expect(answer.calls()).toBe(3);
    expect(seen.map((info) => [info.operation, info.status])).toEqual([
      ['list_application_credentials', 500],
      ['list_application_credentials', 500],
      ['list_application_credentials', 500],
    ]);
    expect(pauses).toEqual([200, 400]);
    expect(error).toMatchObject({ code: 500, reason: 'ServerError', retryable: true });
    expect(error.message).toBe(`list application credentials of user ${USER_ID}: HTTP 500 Internal Server Error: boom`);
  });

  it('retries a 429', async () => {
    let calls = 0;
    nock(ORIGIN)
      .get(CREDENTIALS_PATH)
      .times(2)
      .reply(() => {
        calls++;
        return calls === 1 ? [429, keystoneError(429, 'Too Many Requests', 'slow down')] : [200, listed];
      });

    await client().listApplicationCredentials(sensitive(TOKEN), USER_ID);

    expect(calls).toBe(2);
  });

  it('retries a timeout and reports it with status 0', async () => {
    nock(ORIGIN).get(CREDENTIALS_PATH).delay(1_000).reply(200, listed);
    nock(ORIGIN).get(CREDENTIALS_PATH).reply(200, listed);
    const seen: KeystoneRequestInfo[] = [];

    const credentials = await client({ timeoutMs: 100, observer: { onRequest: (info) => seen.push(info) } }).listApplicationCredentials(
      sensitive(TOKEN),
      USER_ID,
    );

    expect(credentials).toHaveLength(2);
    expect(seen.map((info) => info.status)).toEqual([0, 200]);
  });

  it('does not retry a 401', async () => {
    const answer = counted(nock(ORIGIN).get(CREDENTIALS_PATH), 401, keystoneError(401, 'Unauthorized', 'expired'));

    const error = await keystoneFailure(client().listApplicationCredentials(sensitive(TOKEN), USER_ID));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized', retryable: false });
  });

  it('rejects a list that is not a list, after no retry', async () => {
    const answer = counted(nock(ORIGIN).get(CREDENTIALS_PATH), 200, { application_credentials: { id: 'ac-1' } });

    const error = await keystoneFailure(client().listApplicationCredentials(sensitive(TOKEN), USER_ID));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ reason: 'BadResponse', retryable: false });
    expect(error.message).toContain('application_credentials');
  });
});

describe('revokeApplicationCredential', () => {
  it.each([
    [204, 'revoked'],
    [404, 'absent'],
  ] as const)('answers %d as %s', async (status, outcome) => {
    nock(ORIGIN).delete(`${CREDENTIALS_PATH}/ac-1`).matchHeader('x-auth-token', TOKEN).reply(status);

    await expect(client().revokeApplicationCredential(sensitive(TOKEN), USER_ID, 'ac-1')).resolves.toBe(outcome);
  });

  it('does not retry a 5xx', async () => {
    const answer = counted(nock(ORIGIN).delete(`${CREDENTIALS_PATH}/ac-1`), 500);

    const error = await keystoneFailure(client().revokeApplicationCredential(sensitive(TOKEN), USER_ID, 'ac-1'));

    expect(answer.calls()).toBe(1);
    expect(error).toMatchObject({ code: 500, reason: 'ServerError', retryable: true });
    expect(error.message).toBe(`revoke application credential ac-1 of user ${USER_ID}: HTTP 500`);
  });
});

describe('the endpoint limiter', () => {
  /** Holds list calls unanswered until released, counting those that arrived and those still held. */
  function heldLists(count: number) {
    const held: (() => void)[] = [];
    let arrived = 0;
    nock(ORIGIN)
      .get(CREDENTIALS_PATH)
      .times(count)
      .reply((_uri, _body, callback) => {
        arrived++;
        held.push(() => { callback(null, [200, { application_credentials: [] }]); });
      });
    return { arrived: () => arrived, inFlight: () => held.length, releaseAll: () => { for (const release of held.splice(0)) release(); } };
  }

  it.each([
    [1, [1, 1, 1, 1]],
    [3, [3, 1]],
  ])('keeps at most maxConcurrent = %d requests in flight', async (maxConcurrent, rounds) => {
    const server = heldLists(4);
    const clock = new ManualClock();
    const seen: KeystoneRequestInfo[] = [];
    const keystone = client({ limiter: { maxConcurrent }, now: () => clock.now(), observer: { onRequest: (info) => seen.push(info) } });

    const lists = Promise.all(Array.from({ length: 4 }, () => keystone.listApplicationCredentials(sensitive(TOKEN), USER_ID)));
    // Each round: the limiter lets `size` requests out and no more (while turns pass) until the server answers them, 60 ms later.
    let arrived = 0;
    for (const size of rounds) {
      arrived += size;
      await turnsUntil(() => server.arrived() === arrived);
      for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(server.inFlight()).toBe(size);
      clock.advance(60);
      server.releaseAll();
    }
    await lists;

    expect(seen.map((info) => info.durationMs)).toEqual([60, 60, 60, 60]);
    // A request of round r waited r rounds of 60 ms in the limiter.
    expect(seen.map((info) => info.limiterWaitMs)).toEqual(rounds.flatMap((size, round) => Array.from({ length: size }, () => round * 60)));
  });

  it('spaces request starts by minTimeMs', async () => {
    // Fake timers drive the limiter's spacing; event-loop turns stay real, so the HTTP exchanges go on.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: Date.parse('2026-01-01T00:00:00Z') });
    try {
      nock(ORIGIN).get(CREDENTIALS_PATH).times(3).reply(200, { application_credentials: [] });
      // All three are queued at fake time 0, so each one's wait in the limiter is when it started.
      const startedAt: number[] = [];
      const keystone = client({ limiter: { minTimeMs: 100 }, observer: { onRequest: (info) => startedAt.push(info.limiterWaitMs) } });
      /** Moves fake time 1 ms per event-loop turn (a timer set while timers run is due 1 ms later) until `condition` holds. */
      const advanceUntil = async (condition: () => boolean): Promise<void> => {
        for (let ms = 0; ms < 1_000 && !condition(); ms++) {
          await jest.advanceTimersByTimeAsync(1);
          await new Promise((resolve) => setImmediate(resolve));
        }
        expect(condition()).toBe(true);
      };

      const lists = Promise.all(Array.from({ length: 3 }, () => keystone.listApplicationCredentials(sensitive(TOKEN), USER_ID)));
      await advanceUntil(() => startedAt.length === 3);
      await lists;

      // In hundreds of fake ms: one start per 100 ms, give or take the few ms the limiter's own turns take.
      expect(startedAt.map((ms) => Math.round(ms / 100))).toEqual([0, 1, 2]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('TokenCache', () => {
  const EXPIRY = Date.parse('2030-01-01T12:00:00Z');

  /** A fake authenticator handing out numbered tokens that expire at EXPIRY. */
  function authenticator(endpoint = BASE_URL): PasswordAuthenticator & { logins: () => number; fail: (next: boolean) => void } {
    let logins = 0;
    let failing = false;
    return {
      endpoint,
      authenticate: (): Promise<KeystoneToken> => {
        logins++;
        if (failing) return Promise.reject(new Error('login failed'));
        return Promise.resolve({ token: sensitive(`token-${String(logins)}`), userId: USER_ID, expiresAt: new Date(EXPIRY).toISOString() });
      },
      logins: () => logins,
      fail: (next) => {
        failing = next;
      },
    };
  }

  it('reuses a token until 60 s before it expires', async () => {
    let now = EXPIRY - 10 * 60_000;
    const cache = new TokenCache({ now: () => now });
    const keystone = authenticator();

    const first = await cache.token(keystone, login);
    now = EXPIRY - 60_001;
    const second = await cache.token(keystone, login);
    now = EXPIRY - 60_000;
    const third = await cache.token(keystone, login);

    expect(first.token.reveal()).toBe('token-1');
    expect(second.token.reveal()).toBe('token-1');
    expect(third.token.reveal()).toBe('token-2');
    expect(keystone.logins()).toBe(2);
  });

  it('keys tokens by endpoint, user, domain and project', async () => {
    const cache = new TokenCache({ now: () => EXPIRY - 3_600_000 });
    const one = authenticator('https://one.example.test/v3');
    const two = authenticator('https://two.example.test/v3');

    await cache.token(one, login);
    await cache.token(one, login);
    await cache.token(one, { ...login, projectName: 'other' });
    await cache.token(one, { ...login, userDomain: 'other' });
    await cache.token(one, { ...login, projectDomain: 'other' });
    await cache.token(one, { ...login, userName: 'other' });
    await cache.token(two, login);

    expect(one.logins()).toBe(5);
    expect(two.logins()).toBe(1);
  });

  it('logs in again when the password changed, and after forget', async () => {
    const cache = new TokenCache({ now: () => EXPIRY - 3_600_000 });
    const keystone = authenticator();

    await cache.token(keystone, login);
    await cache.token(keystone, { ...login, password: sensitive(PASSWORD) });
    expect(keystone.logins()).toBe(1);
    await cache.token(keystone, { ...login, password: sensitive('rotated') });
    expect(keystone.logins()).toBe(2);
    cache.forget(keystone, login);
    await cache.token(keystone, login);
    expect(keystone.logins()).toBe(3);
  });

  it('shares one login between concurrent callers and does not cache a failure', async () => {
    const cache = new TokenCache({ now: () => EXPIRY - 3_600_000 });
    const keystone = authenticator();

    const tokens = await Promise.all([cache.token(keystone, login), cache.token(keystone, login), cache.token(keystone, login)]);
    expect(keystone.logins()).toBe(1);
    expect(tokens.map((t) => t.token.reveal())).toEqual(['token-1', 'token-1', 'token-1']);

    const other = { ...login, userName: 'other' };
    keystone.fail(true);
    await expect(cache.token(keystone, other)).rejects.toThrow('login failed');
    keystone.fail(false);
    await expect(cache.token(keystone, other)).resolves.toMatchObject({ userId: USER_ID });
    expect(keystone.logins()).toBe(3);
  });

  it('works with the real client', async () => {
    const scope = nock(ORIGIN).post('/v3/auth/tokens').once().reply(201, tokenBody, { 'X-Subject-Token': TOKEN });
    const cache = new TokenCache({ now: () => Date.parse('2029-12-31T00:00:00Z') });
    const keystone = client();

    const first = await cache.token(keystone, login);
    const second = await cache.token(keystone, login);

    expect(scope.isDone()).toBe(true);
    expect(second).toBe(first);
  });
});

describe('an endpoint that is down', () => {
  const request = { name: 'ns-app', description: 'managed by keyward', roles: ['service'], unrestricted: false, expiresAt: undefined } as const;
  const created = { application_credential: { id: 'ac-1', name: 'ns-app', secret: 'the-credential-secret', expires_at: null, roles: [{ id: 'r1', name: 'service' }] } };
  const create = (keystone: KeystoneClient) => keystone.createApplicationCredential(sensitive(TOKEN), USER_ID, request);

  /** A client on a manual clock, with the requests it sent and the availability changes it reported. */
  function watched(options: Partial<KeystoneClientOptions> = {}) {
    const clock = new ManualClock();
    const sent: KeystoneRequestInfo[] = [];
    const changes: AvailabilityChange[] = [];
    const keystone = client({ breaker: { clock }, observer: { onRequest: (info) => sent.push(info) }, ...options });
    keystone.availability.subscribe((change) => changes.push(change));
    return { clock, sent, changes, keystone, probes: () => sent.filter((info) => info.operation === 'probe').length };
  }

  /** Version documents GET /v3 answers with, each once, recording whether a token came along. */
  function versionAnswers(...statuses: number[]): { tokens: () => (string | undefined)[] } {
    const tokens: (string | undefined)[] = [];
    for (const status of statuses) {
      nock(ORIGIN).get('/v3').reply(function reply() {
        const header = this.req.headers['x-auth-token'];
        tokens.push(Array.isArray(header) ? header.join() : header);
        return [status, { version: { id: 'v3.14' } }];
      });
    }
    return { tokens: () => tokens };
  }

  it('fails a login the token cache could answer, so a plan stops at its login and sends nothing after it', async () => {
    counted(nock(ORIGIN).post(CREDENTIALS_PATH), 503, keystoneError(503, 'Service Unavailable', 'no healthy upstream'));
    nock(ORIGIN).post('/v3/auth/tokens').reply(201, tokenBody, { 'X-Subject-Token': TOKEN });
    const { keystone, sent } = watched();
    const executor = { handlers: keystoneHandlers({ clientFor: () => keystone, tokens: new TokenCache(), readSecretKey: () => Promise.reject(new Error('no Secret here')) }), vocabulary: vocabulary(keystoneApi) };
    const plan = new PlanBuilder<KeystoneAction>();
    const session = plan.add({ kind: 'keystone.authenticate', endpoint: BASE_URL, ...login }, 'log in').output('session');
    plan.add({ kind: 'keystone.createApplicationCredential', session, ...request }, 'create');

    expect((await interpret(plan.build(), executor)).steps.map((step) => step.outcome)).toEqual(['unchanged', 'failed']);
    const whileDown = await interpret(plan.build(), executor);

    expect(whileDown.steps.map((step) => step.outcome)).toEqual(['failed', 'skipped']);
    expect(whileDown.error).toMatchObject({ code: 0, reason: 'Unavailable', retryable: true });
    expect(whileDown.error?.message).toContain('log in as keyward-svc: Keystone at');
    expect(sent.map((info) => info.operation)).toEqual(['authenticate', 'create_application_credential']);
  });

  it('after a 503, fails fast with a retryable Unavailable error and sends nothing', async () => {
    const answer = counted(nock(ORIGIN).post(CREDENTIALS_PATH), 503, keystoneError(503, 'Service Unavailable', 'no healthy upstream'));
    const { keystone, sent, changes } = watched();

    await keystoneFailure(create(keystone));
    const errors = [await keystoneFailure(create(keystone)), await keystoneFailure(keystone.listApplicationCredentials(sensitive(TOKEN), USER_ID))];

    expect(answer.calls()).toBe(1);
    expect(sent).toHaveLength(1);
    expect(keystone.availability.available).toBe(false);
    expect(changes).toEqual([{ api: 'keystone', endpoint: BASE_URL, available: false, since: Date.parse('2026-01-01T00:00:00Z'), cause: 'HTTP 503' }]);
    for (const error of errors) {
      expect(error).toMatchObject({ code: 0, reason: 'Unavailable', retryable: true });
      expect(error.message).toContain(`Keystone at ${BASE_URL} is unavailable since 2026-01-01T00:00:00.000Z (HTTP 503)`);
      for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
    }
  });

  it('probes GET /v3 without a token, 1 s and then 2 s later, and is available again once a probe is answered', async () => {
    counted(nock(ORIGIN).post(CREDENTIALS_PATH), 504);
    const { keystone, clock, changes, probes } = watched();
    await keystoneFailure(create(keystone));
    const version = versionAnswers(503, 200);

    clock.advance(999);
    expect(probes()).toBe(0);
    clock.advance(1);
    await turnsUntil(() => clock.pending().length > 0);
    expect(probes()).toBe(1);
    expect(keystone.availability.available).toBe(false);
    expect(clock.pending()).toEqual([2_000]);

    clock.advance(2_000);
    await turnsUntil(() => keystone.availability.available);
    expect(version.tokens()).toEqual([undefined, undefined]);
    expect(changes.map((change) => change.available)).toEqual([false, true]);
    expect(clock.pending()).toEqual([]);

    nock.cleanAll();
    nock(ORIGIN).post(CREDENTIALS_PATH).reply(201, created);
    await expect(create(keystone)).resolves.toMatchObject({ id: 'ac-1' });
  });

  it('counts a refused connection as down', async () => {
    const { keystone } = watched({ baseUrl: `http://127.0.0.1:${String(await closedPort())}/v3` });

    const first = await keystoneFailure(create(keystone));
    const second = await keystoneFailure(create(keystone));

    expect(first.message).toContain('is unreachable (ECONNREFUSED)');
    expect(second.message).toContain('is unavailable since 2026-01-01T00:00:00.000Z (ECONNREFUSED); not sent');
  });

  it.each([500, 401, 429, 409])('stays available after an HTTP %d: the endpoint answered', async (status) => {
    counted(nock(ORIGIN).post(CREDENTIALS_PATH), status);
    const { keystone, clock, changes } = watched();

    await keystoneFailure(create(keystone));

    expect(keystone.availability.available).toBe(true);
    expect(changes).toEqual([]);
    expect(clock.pending()).toEqual([]);
  });

  it('lets a read use its retries before the endpoint counts as down', async () => {
    const answer = counted(nock(ORIGIN).get(CREDENTIALS_PATH), 502);
    const { keystone } = watched();

    await keystoneFailure(keystone.listApplicationCredentials(sensitive(TOKEN), USER_ID));

    expect(answer.calls()).toBe(3);
    expect(keystone.availability.available).toBe(false);
  });

  it('a pool tells its subscribers about each of its endpoints, and close stops the probes', async () => {
    const clock = new ManualClock();
    const pool = keystoneClientPool({ breaker: { clock } });
    const changes: AvailabilityChange[] = [];
    const unsubscribe = pool.subscribe((change) => changes.push(change));
    const other = 'http://other.example.test/v3';
    nock(ORIGIN).post(CREDENTIALS_PATH).reply(503);
    nock('http://other.example.test').post(CREDENTIALS_PATH).reply(503);

    await keystoneFailure(create(pool(BASE_URL)));
    unsubscribe();
    await keystoneFailure(create(pool(other)));
    pool.close();

    expect(changes.map((change) => [change.endpoint, change.available])).toEqual([[BASE_URL, false]]);
    expect(pool(other).availability.available).toBe(false);
    expect(clock.pending()).toEqual([]);
  });
});
