import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosInstance } from 'axios';
import Bottleneck from 'bottleneck';
import type { Sensitive } from '../../../model/sensitive.js';
import { EndpointBreaker, statusMeansDown, type BreakerSettings, type EndpointAvailability } from '../../../interpreter/availability.js';
import { KeywardError, isRetryableStatus, reasonForStatus } from '../../../interpreter/errors.js';

const API = 'keystone';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_CONCURRENT = 10;
/** Pauses before the first and second retry of an idempotent read; there is no third. */
const RETRY_DELAYS_MS = [200, 400] as const;
/** Keystone's error text is quoted at most this long, so a misbehaving proxy cannot flood logs. */
const MAX_DETAIL_LENGTH = 300;

/** How hard one client may press its Keystone endpoint. */
export interface KeystoneLimiterOptions {
  /** Requests in flight at the same time (default 10). */
  readonly maxConcurrent?: number;
  /** Least time between the starts of two requests, in ms (default 0: no spacing). */
  readonly minTimeMs?: number;
}

/** One HTTP exchange with Keystone, as the runtime's metrics see it. Every attempt is reported, retries included. */
export interface KeystoneRequestInfo {
  /** Low-cardinality name of the call, e.g. "create_application_credential". */
  readonly operation: string;
  /** HTTP status; 0 when there was no answer (timeout, connection refused). */
  readonly status: number;
  /** Time on the wire, from sending the request to the end of the answer or the failure. */
  readonly durationMs: number;
  /** Time the request queued in the endpoint's limiter before it was sent. */
  readonly limiterWaitMs: number;
}

export interface KeystoneRequestObserver {
  /** Called synchronously after each attempt; must not throw. */
  onRequest(info: KeystoneRequestInfo): void;
}

export interface KeystoneTransportOptions {
  /** The Identity v3 endpoint, ending in /v3. */
  readonly baseUrl: string;
  /** Per-request timeout in ms (default 10 000). */
  readonly timeoutMs?: number;
  readonly limiter?: KeystoneLimiterOptions;
  readonly observer?: KeystoneRequestObserver;
  /** How an unavailable endpoint is probed (see EndpointBreaker). */
  readonly breaker?: BreakerSettings;
}

export interface KeystoneRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Relative to the base URL, starting with "/"; path segments already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Metric label, see KeystoneRequestInfo.operation. */
  readonly operation: string;
  /** What failed, for people: "create application credential for user 3f1c". Never contains a secret. */
  readonly description: string;
  readonly token?: Sensitive;
  /** JSON body; secrets in it are revealed by the caller and live only in this request. */
  readonly body?: unknown;
  /** Secrets this request carries, scrubbed from any server text quoted in an error (Keystone may echo input). */
  readonly secrets?: readonly Sensitive[];
  /** Non-2xx statuses that are an answer rather than a failure (revoke: 404 means already gone). */
  readonly accept?: readonly number[];
}

export interface KeystoneResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON; undefined when the body was empty or not JSON. */
  readonly body: unknown;
}

type Exchange = { readonly kind: 'answer'; readonly response: KeystoneResponse } | { readonly kind: 'no-answer'; readonly error: unknown };

/** An attempt the breaker refused: nothing was sent. */
interface Refused {
  readonly kind: 'refused';
  readonly error: KeywardError;
}

/** One attempt: refused, or sent with the breaker's ticket and its result. */
type Attempt =
  | Refused
  | { readonly kind: 'sent'; readonly ticket: number; readonly result: { readonly response: KeystoneResponse } | { readonly error: KeywardError; readonly downCause: string | undefined } };

/** The cheap request that tells whether Keystone answers: the version document at the base URL, no token. */
const PROBE: KeystoneRequest = { method: 'GET', path: '', operation: 'probe', description: 'probe the Identity v3 endpoint' };

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scrub(text: string, secrets: readonly Sensitive[]): string {
  let clean = text;
  for (const secret of secrets) {
    const value = secret.reveal();
    if (value !== '') clean = clean.replaceAll(value, secret.toString());
  }
  // One line: Keystone's validation errors append a multi-line schema dump.
  const line = clean.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH)}...` : line;
}

/** "Unauthorized: The request you have made requires authentication." from Keystone's {"error": {...}} body. */
function keystoneErrorDetail(body: unknown, secrets: readonly Sensitive[]): string {
  const error = isRecord(body) ? body['error'] : undefined;
  if (!isRecord(error)) return '';
  const parts = [error['title'], error['message']].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length === 0 ? '' : scrub(parts.join(': '), secrets);
}

function statusError(request: KeystoneRequest, response: KeystoneResponse): KeywardError {
  const detail = keystoneErrorDetail(response.body, request.secrets ?? []);
  return new KeywardError({
    api: API,
    code: response.status,
    reason: reasonForStatus(response.status),
    message: `${request.description}: HTTP ${String(response.status)}${detail === '' ? '' : ` ${detail}`}`,
    retryable: isRetryableStatus(response.status),
  });
}

/**
 * Sends requests to one Keystone endpoint: a limiter, a timeout, retries for reads, and every failure turned
 * into a KeywardError. The axios error (which holds the request config, token and body included) never escapes.
 */
export class KeystoneTransport {
  readonly baseUrl: string;
  readonly #timeoutMs: number;
  readonly #http: AxiosInstance;
  readonly #limiter: Bottleneck;
  readonly #observer: KeystoneRequestObserver | undefined;
  readonly #breaker: EndpointBreaker;

  constructor(options: KeystoneTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#observer = options.observer;
    this.#limiter = new Bottleneck({
      maxConcurrent: options.limiter?.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
      minTime: options.limiter?.minTimeMs ?? 0,
    });
    this.#http = axios.create({
      baseURL: this.baseUrl,
      timeout: this.#timeoutMs,
      // Timeouts as ETIMEDOUT rather than the ECONNABORTED that an abort also gives.
      transitional: { clarifyTimeoutError: true },
      // Bodies are parsed here, so a non-JSON answer is a BadResponse rather than a string in disguise.
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      // Statuses are judged here, not by axios.
      validateStatus: () => true,
      // A redirect would resend a password to wherever it points.
      maxRedirects: 0,
      // A fresh connection per request: Keystone under uWSGI closes after each response, and Node 20's
      // default keep-alive agent would then fail the next request with "socket hang up".
      httpAgent: new HttpAgent({ keepAlive: false }),
      httpsAgent: new HttpsAgent({ keepAlive: false }),
    });
    this.#breaker = new EndpointBreaker({ ...options.breaker, api: API, label: 'Keystone', endpoint: this.baseUrl, probe: () => this.#probe() });
  }

  /** Whether the endpoint counts as available (while it does not, requests fail without being sent), its changes. */
  get availability(): EndpointAvailability {
    return this.#breaker;
  }

  /**
   * Sends `request`; reads (GET) are retried up to twice when the failure is retryable. While the endpoint
   * is unavailable nothing is sent: the request fails at once with a retryable Unavailable error. The
   * outcome of the last attempt tells the breaker whether the endpoint is down.
   */
  async send(request: KeystoneRequest): Promise<KeystoneResponse> {
    for (let attempt = 0; ; attempt++) {
      const sent = await this.#attempt(request);
      if (sent.kind === 'refused') throw sent.error;
      const { result } = sent;
      const delay = RETRY_DELAYS_MS[attempt];
      if ('error' in result && request.method === 'GET' && delay !== undefined && result.error.retryable) {
        await sleep(delay);
        continue;
      }
      this.#breaker.report(sent.ticket, 'error' in result ? result.downCause : undefined);
      if ('error' in result) throw result.error;
      return result.response;
    }
  }

  /** One probe for the breaker: the cause when Keystone is still down, undefined when it answered. */
  async #probe(): Promise<string | undefined> {
    return this.#downCause(await this.#timed(PROBE, () => this.#exchange(PROBE)));
  }

  async #attempt(request: KeystoneRequest): Promise<Attempt> {
    let ticket = 0;
    const exchange = await this.#timed(request, (): Promise<Exchange | Refused> => {
      // Asked when the limiter lets the request go, so requests queued behind it when an outage begins
      // are refused as well.
      const admitted = this.#breaker.admit(request.description);
      if (admitted instanceof KeywardError) return Promise.resolve({ kind: 'refused', error: admitted });
      ticket = admitted;
      return this.#exchange(request);
    });
    if (exchange.kind === 'refused') return exchange;
    const downCause = this.#downCause(exchange);
    if (exchange.kind === 'no-answer') return { kind: 'sent', ticket, result: { error: this.#transportError(request, exchange.error), downCause } };
    const answer = exchange.response;
    const accepted = (answer.status >= 200 && answer.status < 300) || (request.accept ?? []).includes(answer.status);
    return { kind: 'sent', ticket, result: accepted ? { response: answer } : { error: statusError(request, answer), downCause } };
  }

  /** Runs `send` through the limiter and tells the observer about every exchange that went out. */
  async #timed<T extends Exchange | Refused>(request: KeystoneRequest, send: () => Promise<T>): Promise<T> {
    const queuedAt = performance.now();
    let sentAt = queuedAt;
    const exchange = await this.#limiter.schedule(() => {
      sentAt = performance.now();
      return send();
    });
    if (exchange.kind === 'refused') return exchange;
    const response = exchange.kind === 'answer' ? exchange.response : undefined;
    this.#observer?.onRequest({
      operation: request.operation,
      status: response?.status ?? 0,
      durationMs: performance.now() - sentAt,
      limiterWaitMs: sentAt - queuedAt,
    });
    return exchange;
  }

  /** One HTTP exchange; never rejects, so the limiter only ever sees settled work. */
  async #exchange(request: KeystoneRequest): Promise<Exchange> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.token !== undefined) headers['x-auth-token'] = request.token.reveal();
    // A string body gets an explicit Content-Length from axios; uWSGI cannot read chunked bodies.
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await this.#http.request<unknown>({
        method: request.method,
        url: request.path,
        headers,
        ...(request.query === undefined ? {} : { params: request.query }),
        ...(request.body === undefined ? {} : { data: JSON.stringify(request.body) }),
      });
      const responseHeaders: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (typeof value === 'string') responseHeaders[name.toLowerCase()] = value;
      }
      return { kind: 'answer', response: { status: res.status, headers: responseHeaders, body: parseJson(res.data) } };
    } catch (error) {
      return { kind: 'no-answer', error };
    }
  }

  /** Why an exchange says Keystone is down, in a few words ("ECONNREFUSED", "HTTP 503"); undefined when it is up. */
  #downCause(exchange: Exchange): string | undefined {
    if (exchange.kind === 'answer') return statusMeansDown(exchange.response.status) ? `HTTP ${String(exchange.response.status)}` : undefined;
    const code = axios.isAxiosError(exchange.error) ? exchange.error.code : undefined;
    return isTimeout(code) ? `no answer within ${String(this.#timeoutMs)} ms` : code ?? 'network error';
  }

  #transportError(request: KeystoneRequest, error: unknown): KeywardError {
    const code = axios.isAxiosError(error) ? error.code : undefined;
    const timedOut = isTimeout(code);
    return new KeywardError({
      api: API,
      code: 0,
      reason: timedOut ? 'Timeout' : 'Unavailable',
      message: timedOut
        ? `${request.description}: no answer from Keystone at ${this.baseUrl} within ${String(this.#timeoutMs)} ms`
        : `${request.description}: Keystone at ${this.baseUrl} is unreachable (${code ?? 'network error'})`,
      retryable: true,
    });
  }
}

function isTimeout(code: string | undefined): boolean {
  return code === 'ETIMEDOUT' || code === 'ECONNABORTED';
}
