import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type AddressInfo } from 'node:net';
import { KeywardError } from '@keyward/kernel/interpreter';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { Manager } from '../../src/controller/manager.js';
import { ApiServerReachability, unansweredKubeRequest } from '../../src/controller/reachability.js';
import { recordingLogger } from './recording-logger.js';

const SERVER = 'https://127.0.0.1:6443';
const refused = { verb: 'get', resource: 'leases', status: 0, durationMs: 1, error: 'connect ECONNREFUSED 127.0.0.1:6443' };
const answered = { verb: 'get', resource: 'leases', status: 200, durationMs: 1 };

describe('ApiServerReachability', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-28T12:00:00Z') });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  /** Requests that fail every `everyMs` for `forMs`, as the leader election's and the informers' retries do. */
  function failFor(reachability: ApiServerReachability, forMs: number, everyMs: number): void {
    const timer = setInterval(() => { reachability.onRequest(refused); }, everyMs);
    reachability.onRequest(refused);
    jest.advanceTimersByTime(forMs);
    clearInterval(timer);
  }

  it('warns at the first request without an answer, at once, naming the server and the cause', () => {
    const lines: string[] = [];
    const reachability = new ApiServerReachability(recordingLogger(lines, ['debug', 'info', 'warn', 'error']), { server: SERVER });
    reachability.onRequest(refused);
    expect(lines).toEqual(['warn: cannot reach the Kubernetes API server; retrying']);
  });

  it('keeps warning while the server stays away, each time after twice the wait, at most every 5 minutes', () => {
    const said: { at: number; message: string; meta: Record<string, unknown> }[] = [];
    const start = Date.now();
    const record = (message: string, meta?: Record<string, unknown>): void => { said.push({ at: (Date.now() - start) / 1000, message, meta: meta ?? {} }); };
    const logger = { child: () => logger, debug: record, info: record, warn: record, error: record };
    const reachability = new ApiServerReachability(logger, { server: SERVER });

    // A request every 2 s for 15 minutes: 451 failures, 7 lines.
    failFor(reachability, 15 * 60_000, 2_000);
    expect(said.map(({ at }) => at)).toEqual([0, 10, 30, 70, 150, 310, 610]);
    expect(said[0]?.message).toBe('cannot reach the Kubernetes API server; retrying');
    expect(said.slice(1).every(({ message }) => message === 'still cannot reach the Kubernetes API server; retrying')).toBe(true);
    expect(said[2]?.meta).toEqual({ server: SERVER, error: refused.error, downForS: 30, failedRequests: 16, nextReportInS: 40 });
    expect(said.at(-1)?.meta).toMatchObject({ downForS: 610, nextReportInS: 300 });
  });

  it('says once that the server answers again, with how long it was away, and starts afresh at the next outage', () => {
    const lines: string[] = [];
    const reachability = new ApiServerReachability(recordingLogger(lines, ['debug', 'info', 'warn', 'error']), { server: SERVER });
    failFor(reachability, 45_000, 1_000);
    reachability.onRequest(answered);
    reachability.onRequest(answered);
    jest.advanceTimersByTime(60_000);
    // Any answer is one: the server is there, whatever it says.
    reachability.onRequest({ ...answered, status: 503 });
    reachability.onRequest(refused);
    expect(lines).toEqual([
      'warn: cannot reach the Kubernetes API server; retrying',
      'warn: still cannot reach the Kubernetes API server; retrying',
      'warn: still cannot reach the Kubernetes API server; retrying',
      'info: the Kubernetes API server answers again',
      'warn: cannot reach the Kubernetes API server; retrying',
    ]);
  });

  it('is told about watches by their informers: unanswered(cause) and answered()', () => {
    const lines: string[] = [];
    const reachability = new ApiServerReachability(recordingLogger(lines, ['info', 'warn']), { server: SERVER, firstRepeatMs: 1_000 });
    reachability.unanswered('request to https://127.0.0.1:6443/api/v1/secrets failed, reason: connect ECONNREFUSED');
    jest.advanceTimersByTime(1_000);
    reachability.unanswered('socket hang up');
    reachability.answered();
    expect(lines).toEqual([
      'warn: cannot reach the Kubernetes API server; retrying',
      'warn: still cannot reach the Kubernetes API server; retrying',
      'info: the Kubernetes API server answers again',
    ]);
  });
});

describe('unansweredKubeRequest', () => {
  const error = (code: number, reason: string): KeywardError => new KeywardError({ api: 'kubernetes', code, reason, message: 'get leases', retryable: true });

  it('is a request the server did not answer: refused or reset, and timed out unless left out', () => {
    expect(unansweredKubeRequest(error(0, 'Unavailable'), { timeouts: false })).toBe(true);
    expect(unansweredKubeRequest(error(0, 'Timeout'), { timeouts: true })).toBe(true);
    expect(unansweredKubeRequest(error(0, 'Timeout'), { timeouts: false })).toBe(false);
    expect(unansweredKubeRequest(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), { timeouts: true })).toBe(true);
  });

  it('is not an answer, an error status included', () => {
    expect(unansweredKubeRequest(error(503, 'ServiceUnavailable'), { timeouts: true })).toBe(false);
    expect(unansweredKubeRequest(error(0, 'Invalid'), { timeouts: true })).toBe(false);
    expect(unansweredKubeRequest(Object.assign(new Error('Forbidden'), { statusCode: 403, code: 'x' }), { timeouts: true })).toBe(false);
    expect(unansweredKubeRequest(new Error('boom'), { timeouts: true })).toBe(false);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = (server.address() as AddressInfo);
      server.close(() => { resolve(port); });
    });
  });
}

describe('Manager with an API server that does not answer', () => {
  it('leaves saying so to the reachability log: the leader election\'s retries are debug lines, not a warning each', async () => {
    const port = await closedPort();
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'c', server: `https://127.0.0.1:${String(port)}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 'not-a-secret' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const lines: string[] = [];
    const logger = recordingLogger(lines, ['debug', 'info', 'warn', 'error']);
    const reachability = new ApiServerReachability(logger, { server: `https://127.0.0.1:${String(port)}` });
    const kube = new KubeClient(config, { onRequest: reachability.onRequest });
    const manager = new Manager({
      kube,
      logger,
      reachability,
      leaderElection: { namespace: 'ns', name: 'lease', identity: 'me', leaseDurationMs: 600, renewDeadlineMs: 400, retryPeriodMs: 50 },
      runnables: () => [],
    });
    await manager.start();
    const tries = (): number => lines.filter((line) => line.startsWith('debug: leader election')).length;
    while (tries() < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    await manager.stop();
    expect(lines.filter((line) => !line.startsWith('debug:'))).toEqual([
      'info: waiting for leadership',
      'warn: cannot reach the Kubernetes API server; retrying',
      'info: manager stopped',
    ]);
  });
});
