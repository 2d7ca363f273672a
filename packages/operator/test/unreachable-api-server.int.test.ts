import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, waitFor } from '@keyward/test-env';
import { CONTROLLER_NAMES } from '../src/controllers.js';
import { operatorVersion } from '../src/version.js';
import { startKeyward, stopKeyward, type OperatorProcess } from './operator-process.js';

// `keyward run` with a kubeconfig whose API server is not there (a loopback port nobody listens on): the
// first lines say what started and where, and that the API server cannot be reached, at once and as a
// warning, whatever the log level; the retries behind it are not a warning each.

interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

let scratch: string;
let kubeconfig: string;
let server: string;

beforeAll(async () => {
  server = `https://127.0.0.1:${String(await freeLoopbackPort())}`;
  scratch = mkdtempSync(join(tmpdir(), 'keyward-unreachable-'));
  kubeconfig = join(scratch, 'kubeconfig');
  writeFileSync(kubeconfig, [
    'apiVersion: v1',
    'kind: Config',
    'clusters: [{name: away, cluster: {server: "' + server + '", insecure-skip-tls-verify: true}}]',
    'users: [{name: nobody, user: {token: not-a-real-token}}]',
    'contexts: [{name: away, context: {cluster: away, user: nobody}}]',
    'current-context: away',
  ].join('\n'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function lines(operator: OperatorProcess): LogLine[] {
  return operator.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

function lineSaying(operator: OperatorProcess, msg: string, what: string): Promise<LogLine> {
  return waitFor(() => Promise.resolve(lines(operator).find((line) => line.msg === msg)), { what, timeoutMs: 60_000, intervalMs: 100 });
}

async function addresses(): Promise<{ metrics: number; health: number }> {
  return { metrics: await freeLoopbackPort(), health: await freeLoopbackPort() };
}

describe('keyward run against an API server that cannot be reached', () => {
  it('starts with its version, API server and addresses, warns at once, and next after a while, not at every retry', async () => {
    const ports = await addresses();
    const operator = startKeyward(['run',
      '--kubeconfig', kubeconfig,
      '--metrics-bind-address', `127.0.0.1:${String(ports.metrics)}`,
      '--health-bind-address', `127.0.0.1:${String(ports.health)}`,
      '--log-level', 'debug',
      '--log-format', 'json',
    ], 'unreachable-operator');
    try {
      await lineSaying(operator, 'still cannot reach the Kubernetes API server; retrying', 'the second warning');
      const said = lines(operator);
      const second = said.findIndex((line) => line.msg === 'still cannot reach the Kubernetes API server; retrying');
      const starting = said.findIndex((line) => line.msg === 'starting');
      expect(said[starting]).toMatchObject({
        level: 'info',
        version: operatorVersion(),
        controllers: CONTROLLER_NAMES,
        server,
        metrics: `https://127.0.0.1:${String(ports.metrics)}/metrics`,
        health: `http://127.0.0.1:${String(ports.health)}/healthz`,
        leaderElection: 'default/keyward-leader',
      });
      const first = said.findIndex((line) => line.msg === 'cannot reach the Kubernetes API server; retrying');
      expect(said[first]).toMatchObject({ level: 'warn', server, error: expect.stringContaining('ECONNREFUSED') });
      expect(starting).toBeLessThan(first);
      expect(said[second]).toMatchObject({ level: 'warn', server, nextReportInS: 20 });
      // Between the two: the leader election retried many times (debug), and one warning of its own said the
      // settings for keyward plan could not be published.
      const between = said.slice(first + 1, second);
      expect(between.filter((line) => line.msg.startsWith('leader election')).length).toBeGreaterThan(1);
      expect(between.filter((line) => line.level !== 'debug' && line.level !== 'info').map((line) => line.msg)).toEqual([
        'could not publish the settings for keyward plan; it will plan with its own',
      ]);
    } finally {
      await stopKeyward(operator);
    }
  }, 90_000);

  it('without leader election, warns while its controllers wait for the server, and names plain HTTP metrics with --no-metrics-secure', async () => {
    const ports = await addresses();
    const operator = startKeyward(['run',
      '--kubeconfig', kubeconfig,
      '--no-leader-elect',
      '--no-metrics-secure',
      '--metrics-bind-address', `127.0.0.1:${String(ports.metrics)}`,
      '--health-bind-address', `127.0.0.1:${String(ports.health)}`,
      '--log-format', 'json',
    ], 'unreachable-operator');
    try {
      await lineSaying(operator, 'cannot reach the Kubernetes API server; retrying', 'the warning');
      expect(lines(operator).find((line) => line.msg === 'starting')).toMatchObject({
        metrics: `http://127.0.0.1:${String(ports.metrics)}/metrics`,
        health: `http://127.0.0.1:${String(ports.health)}/healthz`,
        leaderElection: 'off',
      });
    } finally {
      await stopKeyward(operator);
    }
  }, 90_000);

  it('names the probes with the metrics\' scheme when one address serves both', async () => {
    const { metrics } = await addresses();
    const operator = startKeyward(['run',
      '--kubeconfig', kubeconfig,
      '--metrics-bind-address', `127.0.0.1:${String(metrics)}`,
      '--health-bind-address', `127.0.0.1:${String(metrics)}`,
      '--log-format', 'json',
    ], 'unreachable-operator');
    try {
      const starting = await lineSaying(operator, 'starting', 'the start line');
      expect(starting).toMatchObject({
        metrics: `https://127.0.0.1:${String(metrics)}/metrics`,
        health: `https://127.0.0.1:${String(metrics)}/healthz`,
      });
    } finally {
      await stopKeyward(operator);
    }
  }, 90_000);
});
