import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freeLoopbackPort } from '@keyward/test-env';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { coreTypes } from '@keyward/vocabulary';
import { Informer } from '../../src/runtime/informer.js';
import { loopbackKubeConfig, until } from './loopback-cluster.js';

// An API server that goes away for a while and comes back: the informer must try again within seconds
// however long it was away, and tell when it is accepted again.

type WatchAnswer = 'accept' | 'too-many-requests';

/** Secrets of one namespace, as far as an informer needs them: a list, and watches that stay open. */
class FakeApiServer {
  watchAnswer: WatchAnswer = 'accept';
  watchesAccepted = 0;
  #server: Server | undefined;

  constructor(readonly port: number) {}

  async up(): Promise<void> {
    const server = createServer((request, response) => { this.#answer(request, response); });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Gone at once: open watches are cut and new connections refused. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    const json = { 'content-type': 'application/json' };
    if (!(request.url ?? '').includes('watch=true')) {
      response.writeHead(200, json).end(JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [] }));
    } else if (this.watchAnswer === 'too-many-requests') {
      // What kube-apiserver answers while its watch cache warms up after a start.
      response.writeHead(429, json).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'TooManyRequests', code: 429 }));
    } else {
      this.watchesAccepted++;
      response.writeHead(200, json);
      response.flushHeaders();
    }
  }
}

/** The delays the informer announced ("...; retrying in 400 ms"), in order. */
function delays(problems: readonly string[]): number[] {
  return problems.flatMap((problem) => {
    const match = /retrying in (\d+) ms/.exec(problem);
    return match?.[1] === undefined ? [] : [Number(match[1])];
  });
}


let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('Informer while the API server is away', () => {
  it('retries at least every reconnectMaxMs, doubles from the base again at the first answer, and tells when it is accepted again', async () => {
    const server = new FakeApiServer(await freeLoopbackPort());
    await server.up();
    const client = new KubeClient(loopbackKubeConfig(server.port, 'http'));
    const problems: string[] = [];
    let recoveries = 0;
    const informer = new Informer(client, {
      type: coreTypes.secret, namespace: 'default', backoff: { baseMs: 100, maxMs: 30_000 }, reconnectMaxMs: 400,
      onProblem: (message, error) => { problems.push(`${message}${error instanceof Error ? ` (${error.message})` : ''}`); },
      onRecovered: () => { recoveries++; },
    });
    cleanup = async () => {
      await informer.stop();
      client.close();
      await server.down();
    };
    await informer.start();
    await until('the watch to be accepted', () => server.watchesAccepted === 1);
    expect(recoveries).toBe(0);

    await server.down();
    await until('six retries', () => delays(problems).length >= 6);
    // Doubling would have reached 3.2 s by now; a refused connection is retried at least every 400 ms.
    expect(delays(problems).slice(0, 6)).toEqual([100, 200, 400, 400, 400, 400]);
    expect(recoveries).toBe(0);

    server.watchAnswer = 'too-many-requests';
    await server.up();
    await until('an answered failure', () => problems.some((p) => p.includes('TooManyRequests')));
    // The answer comes from a server that is back: its delay starts from the base, not from the outage's count.
    const answered = problems.findIndex((p) => p.includes('TooManyRequests'));
    expect(delays([problems[answered] ?? ''])).toEqual([100]);
    expect(recoveries).toBe(0);

    server.watchAnswer = 'accept';
    await until('the watch to be accepted again', () => server.watchesAccepted === 2);
    expect(recoveries).toBe(1);
    expect(informer.hasSynced()).toBe(true);
  }, 30_000);
});
