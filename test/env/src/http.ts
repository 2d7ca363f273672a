import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface HttpOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** PEM bundle to trust for https. */
  readonly ca?: string | Buffer;
  /** Do not verify the server's certificate: a self-signed one, as the operator's metrics server makes for itself. */
  readonly insecure?: boolean;
  /** A client certificate and its key, for a server that authenticates callers by one (the API server). */
  readonly clientCertificate?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  readonly timeoutMs?: number;
}

/** A small HTTP client for readiness probes and admin calls of the harness; product code uses axios. */
export function httpCall(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: options.method ?? 'GET',
        // An explicit length: uWSGI's http-socket cannot read chunked request bodies.
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body ?? '')) },
        ca: options.ca,
        ...options.clientCertificate,
        ...(options.insecure === true ? { rejectUnauthorized: false } : {}),
        // A fresh connection per call: uWSGI's http-socket closes after each response, and a reused
        // keep-alive socket would fail with "socket hang up".
        agent: false,
        timeout: options.timeoutMs ?? 5_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${String(options.timeoutMs ?? 5_000)}ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Resolves `true` when `url` answers `expected`; otherwise throws with the status and the start of the body. */
export async function probeStatus(url: string, expected: number, options: HttpOptions = {}): Promise<true> {
  const res = await httpCall(url, options);
  if (res.status !== expected) throw new Error(`HTTP ${String(res.status)} ${res.body.slice(0, 200)}`);
  return true;
}
