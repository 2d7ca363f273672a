import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { adminKubeConfig, createTestNamespace, testLogFile, waitFor } from '@keyward/test-env';
import { coreTypes, findCondition } from '@keyward/core';
import { KubeClient, apiSet, controlRuntime, keystoneRuntime, kubernetesRuntime } from '@keyward/core/interpreter';
import { Controller, createLogger } from '@keyward/core/runtime';
import { appCredType } from '../src/api.js';
import { appCredController } from '../src/controller.js';
import { readStatus } from '../src/decode.js';

// Keystone behind a load balancer whose backends are all down: every request is answered 503 and counted.
const CRS = 8;
const BASE_MS = 1_000;
let kube: KubeClient;
let namespace: string;
let keystone: Server;
let requests = 0;
/** Failed reconciles: each would have been a request, were Keystone not known to be down. */
let attempts = 0;
let apis: { close(): void } | undefined;
let controller: { stop(): Promise<void> } | undefined;

const names = Array.from({ length: CRS }, (_, i) => `ac-outage-${String(i)}`);
const crRef = (name: string) => ({ type: appCredType, namespace, name });

/** The CR's resourceVersion once its status says Keystone is unavailable: from then on nothing new is known. */
async function failureRecorded(name: string): Promise<string | undefined> {
  const object = await kube.get(crRef(name));
  const condition = findCondition(readStatus(object?.['status']).conditions, 'KeystoneApplicationCredentialReady');
  // A CR whose request found Keystone down first reports that answer, then (on its next attempt) the outage.
  return condition?.status === 'False' && condition.message.includes('is unavailable since') ? object?.metadata.resourceVersion : undefined;
}

/** Probes the client sends in `ms` after Keystone went down: 1, 3, 7, 15, 25, 35, ... s after. */
function probesWithin(ms: number): number {
  let probes = 0;
  for (let delay = 1_000, at = delay; at <= ms; delay = Math.min(10_000, delay * 2), at += delay) probes++;
  return probes;
}

beforeAll(async () => {
  keystone = createServer((_request, response) => {
    requests++;
    response.writeHead(503, { 'content-type': 'text/plain' }).end('no healthy upstream');
  });
  await new Promise<void>((resolve) => keystone.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${String((keystone.address() as AddressInfo).port)}/v3`;

  kube = new KubeClient(adminKubeConfig());
  namespace = await createTestNamespace('outage');
  await kube.create({ type: coreTypes.secret, namespace, name: 'osp-secret' }, { metadata: { name: 'osp-secret' }, stringData: { ServicePassword: 'not-used-keystone-is-down' } });
  const runtimes = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keystone-appcred', reportingInstance: 'test' }), keystoneRuntime({ kube }), controlRuntime);
  const created = new Controller(appCredController, {
    kube,
    apis: runtimes,
    config: { revokeOnDelete: false, keystoneRetryMs: 1_000, keystoneUrl: url },
    namespace,
    backoff: { baseMs: BASE_MS, maxMs: 600_000 },
    observer: { onReconcile: (_name, result) => { if (result === 'error') attempts++; } },
    logger: createLogger({ level: 'debug', stream: createWriteStream(testLogFile('appcred-outage')) }),
  });
  apis = runtimes;
  await created.start();
  controller = created;
}, 120_000);

afterAll(async () => {
  await controller?.stop();
  apis?.close();
  kube.close();
  await new Promise((resolve) => keystone.close(resolve));
});

describe('Keystone down', () => {
  it('retries each CR with exponential backoff that its own status writes do not cut short, stops writing status, and sends nothing but probes', async () => {
    const started = performance.now();
    for (const name of names) {
      await kube.create(crRef(name), {
        apiVersion: 'keystone.openstack.org/v1beta1',
        kind: 'KeystoneApplicationCredential',
        metadata: { name },
        spec: { secret: 'osp-secret', passwordSelector: 'ServicePassword', userName: 'nobody', roles: ['service'] },
      });
    }
    const versions = await Promise.all(names.map((name) => waitFor(() => failureRecorded(name), { what: `${name} to report the outage`, timeoutMs: 60_000, intervalMs: 200 })));

    // Watch a while longer: the retries spread out, and nothing new is known, so nothing is written.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const elapsed = performance.now() - started;
    const after = await Promise.all(names.map((name) => kube.get(crRef(name))));
    expect(after.map((object) => object?.metadata.resourceVersion)).toEqual(versions);

    // The k-th retry of a key comes BASE_MS * (2^k - 1) after its first attempt, so in `elapsed` a key makes
    // at most log2(elapsed / BASE_MS + 1) + 1 attempts. A slower machine makes fewer; a backoff that our own
    // writes cut short makes one per round trip.
    const attemptsPerKey = Math.floor(Math.log2(elapsed / BASE_MS + 1)) + 1;
    expect(attempts).toBeGreaterThanOrEqual(CRS);
    expect(attempts).toBeLessThanOrEqual(CRS * attemptsPerKey);
    // The first requests find Keystone down (at most one per worker: the controller runs 2 at once); after
    // that the client sends only its probes, however often the CRs are retried.
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThanOrEqual(2 + probesWithin(elapsed));
  });
});
