import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { MetricsAccess } from './metrics-access.js';
import type { ServingCertificate } from './self-signed-certificate.js';

export interface EndpointsOptions {
  /** "127.0.0.1:8080", "[::1]:8080", ":8080" (all interfaces) or "0" to disable; port 0 picks a free port. */
  readonly address: string;
  /** Served at /metrics when given. */
  readonly registry?: Registry;
  /** /healthz; healthy when absent. */
  readonly liveness?: () => boolean | Promise<boolean>;
  /** /readyz; ready when absent. */
  readonly readiness?: () => boolean | Promise<boolean>;
  /** Serve HTTPS with this certificate instead of plain HTTP. */
  readonly tls?: ServingCertificate;
  /** Who may read /metrics; everyone when absent. The probes are never guarded. */
  readonly metricsAccess?: MetricsAccess;
}

export interface Endpoints {
  /** The port listened on; 0 when disabled. */
  readonly port: number;
  /** Stops listening and closes idle keep-alive connections; waits for requests in flight. */
  close(): Promise<void>;
}

export interface ListenAddress {
  /** undefined: all interfaces. */
  readonly host?: string;
  readonly port: number;
}

/** Parses an endpoints address; undefined means disabled ("0"). Throws naming the bad value. */
export function parseListenAddress(address: string): ListenAddress | undefined {
  if (address === '0') return undefined;
  const match = /^(?:\[([0-9a-fA-F:.%\w]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(address);
  const port = Number(match?.[3]);
  if (match === null || !(port <= 65_535)) {
    throw new Error(`invalid endpoints address "${address}": expected host:port, [ipv6]:port, :port or 0 to disable`);
  }
  const host = match[1] ?? match[2] ?? '';
  return host === '' ? { port } : { host, port };
}

/**
 * Serves /healthz, /readyz and /metrics, as controller-runtime's probe and metrics servers do: over plain HTTP,
 * or over HTTPS with /metrics for the callers `metricsAccess` admits.
 */
export async function serveEndpoints(options: EndpointsOptions): Promise<Endpoints> {
  const address = parseListenAddress(options.address);
  if (address === undefined) return { port: 0, close: () => Promise.resolve() };

  const handle: RequestListener = (request, response) => {
    respond(options, request, response).catch(() => {
      // respond() answers every failure itself; this only catches a response that broke mid-write.
      response.destroy();
    });
  };
  const server: Server = options.tls === undefined ? createServer(handle) : createTlsServer({ cert: options.tls.cert, key: options.tls.key }, handle);
  await listen(server, address, options.address);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        // Keep-alive connections would otherwise hold the server (and the process) open until they time out.
        server.closeIdleConnections();
      }),
  };
}

function listen(server: Server, address: ListenAddress, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      reject(new Error(`cannot listen on ${text}: ${error.message}`, { cause: error }));
    });
    server.listen({ port: address.port, ...(address.host === undefined ? {} : { host: address.host }) }, resolve);
  });
}

async function respond(options: EndpointsOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(response, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
    return;
  }
  const path = new URL(request.url ?? '/', 'http://endpoints').pathname;
  switch (path) {
    case '/healthz':
      await probe(response, options.liveness);
      return;
    case '/readyz':
      await probe(response, options.readiness);
      return;
    case '/metrics':
      if (options.registry !== undefined) {
        const verdict = options.metricsAccess === undefined ? undefined : await options.metricsAccess(request.headers.authorization);
        if (verdict !== undefined && !verdict.allowed) {
          send(response, verdict.status, `${verdict.reason}\n`, verdict.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
          return;
        }
        await metrics(response, options.registry);
        return;
      }
      break;
  }
  send(response, 404, 'not found\n');
}

async function probe(response: ServerResponse, check: (() => boolean | Promise<boolean>) | undefined): Promise<void> {
  let ok: boolean;
  try {
    ok = check === undefined || (await check());
  } catch {
    // A check that throws is a failing check.
    ok = false;
  }
  send(response, ok ? 200 : 503, ok ? 'ok\n' : 'not ready\n');
}

async function metrics(response: ServerResponse, registry: Registry): Promise<void> {
  let text: string;
  try {
    text = await registry.metrics();
  } catch (error) {
    send(response, 500, `collecting metrics failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return;
  }
  send(response, 200, text, { 'content-type': registry.contentType });
}

function send(response: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  // HEAD gets the headers only; Node drops the body of a HEAD response.
  response.end(body);
}
