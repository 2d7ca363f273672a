// An HTTP proxy in front of the test Keycloak that forwards every request, except those a fault is armed for:
// a request's answer can be lost after Keycloak has done the work (as when a client's timeout runs out while
// Keycloak goes on), or a read can be answered 404 as Keycloak does before another transaction commits.
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What happens to the first request a fault matches (each fault fires once, in the order they were armed). */
export type Fault =
  /** Keycloak gets the request and does it; the caller's connection is cut before the answer reaches it. */
  | { readonly kind: 'loseAnswer' }
  /** Keycloak never sees the request; the caller gets 404, as for a realm not committed yet. */
  | { readonly kind: 'notFound' };

export interface HttpFaultProxy {
  readonly url: string;
  /** The next request with this method and path (query left out) meets `fault`, once faults armed earlier fired. */
  arm(method: string, path: string, fault: Fault): void;
  /** The faults armed that have not fired yet, for a test to check its script ran. */
  readonly pending: () => number;
  close(): Promise<void>;
}

interface Armed {
  readonly method: string;
  readonly path: string;
  readonly fault: Fault;
}

export async function startHttpFaultProxy(target: string): Promise<HttpFaultProxy> {
  const { hostname, port } = new URL(target);
  const armed: Armed[] = [];

  const pass = (incoming: IncomingMessage, outgoing: ServerResponse, loseAnswer: boolean): void => {
    const upstream = forward({ hostname, port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (loseAnswer) {
        // Keycloak has answered, so the work is done: the caller never hears of it.
        answer.resume();
        answer.on('end', () => { incoming.socket.destroy(); });
        return;
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => { incoming.socket.destroy(); });
    incoming.pipe(upstream);
  };

  const server: Server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '').split('?')[0];
    const next = armed[0];
    if (next === undefined || next.method !== incoming.method || next.path !== path) {
      pass(incoming, outgoing, false);
      return;
    }
    armed.shift();
    if (next.fault.kind === 'loseAnswer') {
      pass(incoming, outgoing, true);
      return;
    }
    incoming.resume();
    outgoing.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Realm not found.' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${String(address.port)}`,
    arm: (method, path, fault) => { armed.push({ method, path, fault }); },
    pending: () => armed.length,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => { resolve(); });
    }),
  };
}
