import { afterEach, describe, expect, it } from '@jest/globals';
import { freeLoopbackPort } from '@keyward/test-env';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { coreTypes } from '@keyward/kernel';
import { Informer } from '../../src/controller/informer.js';
import { FakeApiServer } from './fake-api-server.js';
import { loopbackKubeConfig, until } from './loopback-cluster.js';

// An API server that goes away for a while and comes back: the informer must try again within seconds
// however long it was away, and tell when it is accepted again.

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
    // (The problems are compared too, so that a failure shows what the informer said.)
    expect({ delays: delays(problems).slice(0, 6), problems }).toEqual({ delays: [100, 200, 400, 400, 400, 400], problems: expect.any(Array) });
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
    // The server counts the watch when it answers; the informer tells once the answer has reached it.
    await until('the informer to tell it is accepted again', () => recoveries > 0);
    expect(recoveries).toBe(1);
    expect(informer.hasSynced()).toBe(true);
  }, 30_000);
});
