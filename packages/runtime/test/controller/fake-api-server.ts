import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type WatchAnswer = 'accept' | 'too-many-requests';

/**
 * An API server as far as an informer needs one: an empty list of anything, and watches that stay open; it can
 * go away (open watches cut, connections refused) and come back on the same port.
 */
export class FakeApiServer {
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
