// The objects primaries refer to by name share one watch per type and namespace: N CRs naming N Secrets of
// one namespace cost one watch, a change still wakes only the CRs that name the object, and the Secrets no CR
// names are kept without their data.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from '@jest/globals';
import { freeLoopbackPort } from '@keyward/test-env';
import { coreTypes, type KubeObject } from '@keyward/kernel';
import { KubeClient } from '../../src/apis/kubernetes/io/client.js';
import { ReferencedWatches } from '../../src/controller/referenced-watches.js';
import { loopbackKubeConfig, until } from './loopback-cluster.js';

const NAMESPACE = 'ns';
const PREFIX = `/api/v1/namespaces/${NAMESPACE}/secrets`;

/** The Secrets of one namespace behind a list, watches that stay open, and reads by name; counts the watches. */
class FakeSecrets {
  readonly #secrets = new Map<string, KubeObject>();
  readonly #watches = new Set<{ readonly name: string | undefined; readonly response: ServerResponse }>();
  #version = 10;
  #server: Server | undefined;
  /** Reads by name, in order. */
  readonly gets: string[] = [];

  /** Watches open now. */
  get watching(): number {
    return this.#watches.size;
  }

  async up(port: number): Promise<void> {
    const server = createServer((request, response) => { this.#answer(request, response); });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  }

  async down(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** Creates or changes a Secret and tells the watches that cover it. */
  put(name: string, password: string): void {
    const type = this.#secrets.has(name) ? 'MODIFIED' : 'ADDED';
    this.#version++;
    const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NAMESPACE, resourceVersion: String(this.#version) }, data: { password } };
    this.#secrets.set(name, secret);
    for (const watch of this.#watches) if (watch.name === undefined || watch.name === name) watch.response.write(`${JSON.stringify({ type, object: secret })}\n`);
  }

  #answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const json = { 'content-type': 'application/json' };
    const name = /^metadata\.name=(.+)$/.exec(url.searchParams.get('fieldSelector') ?? '')?.[1];
    if (url.pathname.startsWith(`${PREFIX}/`)) {
      const wanted = url.pathname.slice(PREFIX.length + 1);
      this.gets.push(wanted);
      const secret = this.#secrets.get(wanted);
      if (secret === undefined) response.writeHead(404, json).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
      else response.writeHead(200, json).end(JSON.stringify(secret));
    } else if (url.searchParams.get('watch') === 'true') {
      const watch = { name, response };
      this.#watches.add(watch);
      response.on('close', () => this.#watches.delete(watch));
      response.writeHead(200, json);
      response.flushHeaders();
    } else {
      const items = [...this.#secrets.values()].filter((secret) => name === undefined || secret.metadata.name === name);
      response.writeHead(200, json).end(JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: String(this.#version) }, items }));
    }
  }
}

const noTrouble = { problem: () => undefined, recovered: () => undefined, release: () => undefined };
const names = Array.from({ length: 20 }, (_, i) => `password-${String(i)}`);
const owner = (name: string): string => `${NAMESPACE}/cr-of-${name}`;


let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function started(): Promise<{ server: FakeSecrets; watches: ReferencedWatches; woken: string[] }> {
  const server = new FakeSecrets();
  const port = await freeLoopbackPort();
  await server.up(port);
  const client = new KubeClient(loopbackKubeConfig(port, 'http'));
  const woken: string[] = [];
  const watches = new ReferencedWatches(client, (key) => { woken.push(key); }, () => noTrouble);
  cleanup = async () => {
    await watches.stop();
    client.close();
    await server.down();
  };
  return { server, watches, woken };
}

describe('referenced objects of one type and namespace', () => {
  it('share one watch, and a change wakes only the owners that name the object', async () => {
    const { server, watches, woken } = await started();
    for (const name of names) server.put(name, 'cGFzc3dvcmQ=');
    for (const name of names) watches.track(owner(name), [{ type: coreTypes.secret, namespace: NAMESPACE, name }]);
    await until('the watch to list', () => watches.get(coreTypes.secret, NAMESPACE, 'password-0') !== undefined && server.watching > 0);
    expect(watches.size).toBe(1);
    expect(server.watching).toBe(1);

    woken.length = 0;
    server.put('password-7', 'bmV3');
    await until('a wake-up', () => woken.length > 0);
    expect(woken).toEqual([owner('password-7')]);
    expect(watches.get(coreTypes.secret, NAMESPACE, 'password-7')?.object?.['data']).toEqual({ password: 'bmV3' });
    // Absent from the namespace: known without asking the server.
    expect(watches.get(coreTypes.secret, NAMESPACE, 'absent')).toEqual({ object: undefined });
    expect(server.gets).toEqual([]);

    // A Secret that appears wakes the owner that waited for it.
    watches.track(owner('late'), [{ type: coreTypes.secret, namespace: NAMESPACE, name: 'late' }]);
    server.put('late', 'bGF0ZQ==');
    await until('the late Secret to wake its owner', () => woken.includes(owner('late')));
    expect(woken).toEqual([owner('password-7'), owner('late')]);

    // The last owner gone, the watch stops.
    for (const name of [...names, 'late']) watches.forget(owner(name));
    expect(watches.size).toBe(0);
    await until('the watch to close', () => server.watching === 0);
  });

  it('keep the Secrets no owner names without their data, and read one by name when an owner comes to name it', async () => {
    const { server, watches, woken } = await started();
    server.put('named', 'bmFtZWQ=');
    server.put('unnamed', 'c2VjcmV0');
    watches.track(owner('named'), [{ type: coreTypes.secret, namespace: NAMESPACE, name: 'named' }]);
    await until('the watch to list', () => watches.get(coreTypes.secret, NAMESPACE, 'named') !== undefined);
    // Held as an outline: not an answer, the read goes to the API server.
    expect(watches.get(coreTypes.secret, NAMESPACE, 'unnamed')).toBeUndefined();

    watches.track(owner('unnamed'), [{ type: coreTypes.secret, namespace: NAMESPACE, name: 'unnamed' }]);
    await until('the newly named Secret to be read', () => watches.get(coreTypes.secret, NAMESPACE, 'unnamed') !== undefined);
    expect(watches.get(coreTypes.secret, NAMESPACE, 'unnamed')?.object?.['data']).toEqual({ password: 'c2VjcmV0' });
    expect(server.gets).toEqual(['unnamed']);
    expect(watches.size).toBe(1);

    // Its next change comes by the watch, whole.
    server.put('unnamed', 'Y2hhbmdlZA==');
    await until('the change to wake its owner', () => woken.includes(owner('unnamed')));
    expect(watches.get(coreTypes.secret, NAMESPACE, 'unnamed')?.object?.['data']).toEqual({ password: 'Y2hhbmdlZA==' });
  });
});
