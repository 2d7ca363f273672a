import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { adminKubeConfig, createTestNamespace, testLogFile, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition } from '@keyward/kernel';
import { KubeClient } from '@keyward/runtime/io';
import { createLogger } from '@keyward/runtime/controller';
import { appCredType } from '../src/api.js';
import { readStatus } from '../src/decode.js';
import { startController, type RunningController } from './running-controller.js';

// Keystone behind a load balancer whose backends are all down: every request is answered 503 and recorded.
const CRS = 8;
const BASE_MS = 1_000;
let kube: KubeClient;
let namespace: string;
let keystone: Server;
/** "METHOD path" of each request Keystone got. */
const requests: string[] = [];
/** Failed reconciles: each would have been a request, were Keystone not known to be down. */
let failures = 0;
/** Per key, in order: when a reconcile of it started (null), and each retry delay its queue scheduled. */
const history = new Map<string, (number | null)[]>();
const record = (key: string, entry: number | null): void => { history.set(key, [...(history.get(key) ?? []), entry]); };
const attemptsOf = (key: string): number => (history.get(key) ?? []).filter((entry) => entry === null).length;
let controller: RunningController | undefined;

const names = Array.from({ length: CRS }, (_, i) => `ac-outage-${String(i)}`);
const crRef = (name: string) => ({ type: appCredType, namespace, name });

/** The CR's resourceVersion once its status says Keystone is unavailable: from then on nothing new is known. */
async function failureRecorded(name: string): Promise<string | undefined> {
  const object = await kube.get(crRef(name));
  const condition = findCondition(readStatus(object?.['status']).conditions, 'KeystoneApplicationCredentialReady');
  // A CR whose request found Keystone down first reports that answer, then (on its next attempt) the outage.
  return condition?.status === 'False' && condition.message.includes('is unavailable since') ? object?.metadata.resourceVersion : undefined;
}

/** The client's probe of a Keystone it knows is down: a GET of the Identity v3 base URL. */
const isProbe = (request: string): boolean => request === 'GET /v3' || request === 'GET /v3/';

beforeAll(async () => {
  keystone = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(503, { 'content-type': 'text/plain' }).end('no healthy upstream');
  });
  await new Promise<void>((resolve) => keystone.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String((keystone.address() as AddressInfo).port)}/v3`;

  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('outage');
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: 'not-used-keystone-is-down' } });
  controller = await startController(kube, {
    config: { revokeOnDelete: false, keystoneRetryMs: 1_000, keystoneUrl: url },
    namespace,
    backoff: { baseMs: BASE_MS, maxMs: 600_000 },
    observer: {
      onReconcile: (_name, result) => { if (result === 'error') failures++; },
      queue: { onQueueWait: (key) => { record(key, null); }, onRetry: (key, delayMs) => { record(key, delayMs); } },
    },
    logger: createLogger({ level: 'debug', stream: createWriteStream(testLogFile('appcred-outage')) }),
  });
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  kube.close();
  await new Promise((resolve) => keystone.close(resolve));
});

describe('Keystone down', () => {
  it('retries each CR with exponential backoff that its own status writes do not cut short, stops writing status, and sends nothing but probes', async () => {
    for (const name of names) {
      await kube.create(crRef(name), {
        apiVersion: 'keystone.openstack.org/v1beta1',
        kind: 'KeystoneApplicationCredential',
        metadata: { name },
        spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName: 'nobody', roles: ['service'] },
      });
    }
    const versions = await Promise.all(names.map((name) => waitFor(() => failureRecorded(name), { what: `${name} to report the outage`, timeoutMs: 60_000, intervalMs: 200 })));

    const keys = names.map((name) => `${namespace}/${name}`);
    // Watch two more retries of every CR: nothing new is known, so nothing is written.
    const seen = keys.map(attemptsOf);
    await waitFor(() => Promise.resolve(keys.every((key, i) => attemptsOf(key) >= (seen[i] ?? 0) + 2) ? true : undefined), { what: 'two more retries of every CR', timeoutMs: 120_000, intervalMs: 200 });
    const after = await Promise.all(names.map((name) => kube.get(crRef(name))));
    expect(after.map((object) => object?.metadata.resourceVersion)).toEqual(versions);

    // Each CR is retried only when its backoff ends, and the backoff doubles: its own status writes, which
    // come back as watch events, neither start another attempt nor cut the wait short.
    for (const key of keys) {
      const entries = history.get(key) ?? [];
      const delays = entries.filter((entry): entry is number => entry !== null);
      expect(delays).toEqual(delays.map((_, k) => BASE_MS * 2 ** k));
      // Before its first failure a CR is reconciled as its changes come (the finalizer added, ...); from the
      // first retry on: retry, attempt, retry, attempt, ...: no attempt that a retry did not schedule.
      const order = entries.map((entry) => (entry === null ? 'attempt' : 'retry'));
      const failing = order.slice(Math.max(0, order.indexOf('retry')));
      expect(failing.length).toBeGreaterThanOrEqual(4);
      expect(failing).toEqual(failing.map((_, i) => (i % 2 === 0 ? 'retry' : 'attempt')));
    }
    expect(failures).toBeGreaterThanOrEqual(CRS * 3);
    // The first requests find Keystone down (at most one per worker: the controller runs 2 at once); after
    // that the client sends only its probes, however often the CRs are retried.
    expect(requests.length).toBeGreaterThanOrEqual(1);
    expect(requests.filter((request) => !isProbe(request)).length).toBeLessThanOrEqual(2);
  });
});
