import { describe, expect, it } from '@jest/globals';
import { get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { Manager } from '../../src/controller/manager.js';
import type { RuntimeLogger } from '../../src/controller/controller.js';

const quiet: RuntimeLogger = { child: () => quiet, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
/** Without leader election the manager only closes the client on stop. */
const kube = { close: () => undefined } as unknown as KubeClient;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => { resolve(port); });
    });
  });
}

function status(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

describe('Manager endpoints', () => {
  it('answers probes from its state when metrics and health share one address', async () => {
    const port = await freePort();
    let started = (): void => undefined;
    const starting = new Promise<void>((resolve) => { started = resolve; });
    const manager = new Manager({
      kube,
      logger: quiet,
      registry: new Registry(),
      metricsAddress: `127.0.0.1:${String(port)}`,
      healthAddress: `127.0.0.1:${String(port)}`,
      runnables: () => [{ name: 'slow', start: () => starting, stop: () => Promise.resolve() }],
    });
    const running = manager.start();
    // Caches not synced yet: not ready, though alive; metrics are served on the same port.
    await expect(status(port, '/readyz')).resolves.toBe(503);
    await expect(status(port, '/healthz')).resolves.toBe(200);
    await expect(status(port, '/metrics')).resolves.toBe(200);
    started();
    await running;
    await expect(status(port, '/readyz')).resolves.toBe(200);
    await manager.stop();
  });

  it('says it leads when it runs without leader election, before its runnables start', async () => {
    const told: string[] = [];
    const manager = new Manager({
      kube,
      logger: quiet,
      onLeadership: (leading) => { told.push(`leading ${String(leading)}`); },
      runnables: () => [{ name: 'only', start: () => { told.push('started'); return Promise.resolve(); }, stop: () => Promise.resolve() }],
    });
    await manager.start();
    expect(told).toEqual(['leading true', 'started']);
    await manager.stop();
  });

  it('ends a start that a stop cut short without an error: the runnables that failed to start because of the stop', async () => {
    let failStart = (): void => undefined;
    const manager = new Manager({
      kube,
      logger: quiet,
      runnables: () => [{
        name: 'cut-short',
        start: () => new Promise<void>((_resolve, reject) => { failStart = () => { reject(new Error('the informer stopped before it synced')); }; }),
        stop: () => { failStart(); return Promise.resolve(); },
      }],
    });
    const running = manager.start();
    await new Promise((resolve) => { setImmediate(resolve); });
    await manager.stop();
    await expect(running).resolves.toBeUndefined();
  });

  it('still fails a start whose runnable fails without a stop', async () => {
    const manager = new Manager({
      kube,
      logger: quiet,
      runnables: () => [{ name: 'broken', start: () => Promise.reject(new Error('cannot list')), stop: () => Promise.resolve() }],
    });
    await expect(manager.start()).rejects.toThrow('cannot list');
    await manager.stop();
  });
});
