import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import axios, { type AxiosInstance } from 'axios';
import type { Sensitive } from '@keyward/kernel';
import { EndpointBreaker, statusMeansDown, KeywardError, isRetryableStatus, reasonForStatus, type EndpointAvailability } from '@keyward/kernel/interpreter';
import { encodeBody, type EncodedBody } from './body.js';
import { defaultErrorDetail } from './error-detail.js';
import { Limiters } from './limiters.js';
import { RetryPolicy } from './retry.js';
import { parseRetryAfter } from './retry-after.js';
import { quotable } from './scrub.js';
import type { HttpErrorDecoder, HttpRequest, HttpRequestObserver, HttpResponse, HttpTransportOptions } from './types.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/** Statuses whose Retry-After says when to come back (on a 3xx it names a redirect's timing, not ours). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

type Exchange = { readonly kind: 'answer'; readonly response: HttpResponse } | { readonly kind: 'no-answer'; readonly error: unknown };

/** An attempt the breaker refused: nothing was sent. */
interface Refused {
  readonly kind: 'refused';
  readonly error: KeywardError;
}

/** An attempt that went out, with the breaker's ticket and its result. */
interface Sent {
  readonly kind: 'sent';
  readonly ticket: number;
  readonly result: { readonly response: HttpResponse } | { readonly error: KeywardError; readonly downCause: string | undefined };
}

/** A request with its body encoded once for all its attempts, and every secret it carries. */
interface Prepared {
  readonly request: HttpRequest;
  readonly body: EncodedBody;
  readonly secrets: readonly Sensitive<unknown>[];
}

const systemSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isTimeout(code: string | undefined): boolean {
  return code === 'ETIMEDOUT' || code === 'ECONNABORTED';
}

/**
 * Sends requests to one endpoint of a JSON HTTP API: limiters (the tenants' and the endpoint's), a timeout,
 * retries with backoff, a breaker that fails fast while the endpoint is down, and every failure turned into a
 * KeywardError whose message masks the request's secrets. The HTTP client's own errors (which hold the
 * request, token and body included) never escape.
 */
export class HttpTransport {
  readonly baseUrl: string;
  readonly #api: string;
  readonly #label: string;
  readonly #timeoutMs: number;
  readonly #http: AxiosInstance;
  readonly #limiters: Limiters;
  readonly #retry: RetryPolicy;
  readonly #observer: HttpRequestObserver | undefined;
  readonly #breaker: EndpointBreaker;
  readonly #probe: Prepared;
  readonly #decodeError: HttpErrorDecoder;
  readonly #authHeaders: (token: string) => Readonly<Record<string, string>>;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: HttpTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#api = options.api;
    this.#label = options.label ?? options.api;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#limiters = new Limiters(options.limiter, options.tenantLimiter);
    this.#retry = new RetryPolicy(options.retry);
    this.#observer = options.observer;
    this.#decodeError = options.decodeError ?? defaultErrorDetail;
    this.#authHeaders = options.authHeaders ?? ((token) => ({ authorization: `Bearer ${token}` }));
    // Looked up on each call, so a clock replaced after construction (fake timers) is the one used.
    this.#now = options.now ?? (() => Date.now());
    this.#sleep = options.sleep ?? systemSleep;
    const keepAlive = options.keepAlive ?? false;
    this.#http = axios.create({
      baseURL: this.baseUrl,
      timeout: this.#timeoutMs,
      // Timeouts as ETIMEDOUT rather than the ECONNABORTED that an abort also gives.
      transitional: { clarifyTimeoutError: true },
      // Bodies are parsed here, so a non-JSON answer is text rather than a string in disguise.
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      // Statuses are judged here, not by the HTTP client.
      validateStatus: () => true,
      // A redirect would resend a token or password to wherever it points.
      maxRedirects: 0,
      httpAgent: new HttpAgent({ keepAlive }),
      httpsAgent: new HttpsAgent({ keepAlive }),
    });
    const probe: HttpRequest = { method: 'GET', path: options.probePath ?? '', operation: 'probe', description: `probe ${this.#label} at ${this.baseUrl}` };
    this.#probe = { request: probe, body: encodeBody(probe), secrets: [] };
    this.#breaker = new EndpointBreaker({
      ...options.breaker,
      api: this.#api,
      label: this.#label,
      endpoint: this.baseUrl,
      probe: () => this.#probeOnce(),
    });
  }

  /** Whether the endpoint counts as available (while it does not, requests fail without being sent), its changes. */
  get availability(): EndpointAvailability {
    return this.#breaker;
  }

  /**
   * Sends `request`, trying a retryable failure again as the retry policy allows. While the endpoint is
   * unavailable nothing is sent: the request fails at once with a retryable Unavailable error. Only the
   * outcome of the last attempt tells the breaker whether the endpoint is down, so a request uses its
   * retries before an outage is declared.
   */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const prepared = this.#prepare(request);
    for (let attempt = 1; ; attempt++) {
      const sent = await this.#attempt(prepared, attempt);
      if (sent.kind === 'refused') throw sent.error;
      const { result } = sent;
      if ('response' in result) {
        this.#breaker.report(sent.ticket, undefined);
        return result.response;
      }
      const delay = this.#retry.delayAfter(request, attempt, result.error);
      if (delay !== undefined) {
        await this.#sleep(delay);
        continue;
      }
      this.#breaker.report(sent.ticket, result.downCause);
      throw result.error;
    }
  }

  #prepare(request: HttpRequest): Prepared {
    const body = encodeBody(request);
    const secrets = [...(request.token === undefined ? [] : [request.token]), ...body.secrets, ...(request.secrets ?? [])];
    return { request, body, secrets };
  }

  /** One probe for the breaker: the cause when the endpoint is still down, undefined when it answered. */
  async #probeOnce(): Promise<string | undefined> {
    const exchange = await this.#timed(this.#probe, 1, () => this.#exchange(this.#probe));
    return this.#downCause(exchange);
  }

  async #attempt(prepared: Prepared, attempt: number): Promise<Sent | Refused> {
    let ticket = 0;
    const exchange = await this.#timed(prepared, attempt, (): Promise<Exchange | Refused> => {
      // Asked when the limiters let the request go, so requests queued when an outage begins are refused too.
      const admitted = this.#breaker.admit(prepared.request.description);
      if (admitted instanceof KeywardError) return Promise.resolve({ kind: 'refused', error: admitted });
      ticket = admitted;
      return this.#exchange(prepared);
    });
    if (exchange.kind === 'refused') return exchange;
    const downCause = this.#downCause(exchange);
    if (exchange.kind === 'no-answer') return { kind: 'sent', ticket, result: { error: this.#transportError(prepared.request, exchange.error), downCause } };
    const { response } = exchange;
    const accepted = (response.status >= 200 && response.status < 300) || (prepared.request.accept ?? []).includes(response.status);
    return { kind: 'sent', ticket, result: accepted ? { response } : { error: this.#statusError(prepared, response), downCause } };
  }

  /** Runs `send` through the limiters and tells the observer about every exchange that went out. */
  async #timed<T extends Exchange | Refused>(prepared: Prepared, attempt: number, send: () => Promise<T>): Promise<T> {
    const queuedAt = this.#now();
    let sentAt = queuedAt;
    const exchange = await this.#limiters.schedule(prepared.request.tenant, () => {
      sentAt = this.#now();
      return send();
    });
    if (exchange.kind === 'refused') return exchange;
    this.#observer?.onRequest({
      api: this.#api,
      operation: prepared.request.operation,
      status: exchange.kind === 'answer' ? exchange.response.status : 0,
      durationMs: this.#now() - sentAt,
      limiterWaitMs: sentAt - queuedAt,
      attempt,
    });
    return exchange;
  }

  /** One HTTP exchange; never rejects, so the limiters only ever see settled work. */
  async #exchange({ request, body }: Prepared): Promise<Exchange> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.token !== undefined) Object.assign(headers, this.#authHeaders(request.token.reveal()));
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
    try {
      const res = await this.#http.request<unknown>({
        method: request.method,
        url: request.path,
        headers,
        ...(request.query === undefined ? {} : { params: request.query }),
        ...(body.data === undefined ? {} : { data: body.data }),
      });
      const responseHeaders: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (typeof value === 'string') responseHeaders[name.toLowerCase()] = value;
      }
      const text = typeof res.data === 'string' ? res.data : '';
      return { kind: 'answer', response: { status: res.status, headers: responseHeaders, body: parseJson(text), text } };
    } catch (error) {
      return { kind: 'no-answer', error };
    }
  }

  /** Why an exchange says the endpoint is down, in a few words ("ECONNREFUSED", "HTTP 503"); undefined when it is up. */
  #downCause(exchange: Exchange): string | undefined {
    if (exchange.kind === 'answer') return statusMeansDown(exchange.response.status) ? `HTTP ${String(exchange.response.status)}` : undefined;
    const code = axios.isAxiosError(exchange.error) ? exchange.error.code : undefined;
    return isTimeout(code) ? `no answer within ${String(this.#timeoutMs)} ms` : code ?? 'network error';
  }

  #statusError({ request, secrets }: Prepared, response: HttpResponse): KeywardError {
    const { status } = response;
    const detail = quotable(this.#detail(response), secrets);
    const retryAfterMs = RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(response.headers['retry-after'], this.#now()) : undefined;
    return new KeywardError({
      api: this.#api,
      code: status,
      reason: reasonForStatus(status),
      message: `${request.description}: HTTP ${String(status)}${detail === '' ? '' : ` ${detail}`}`,
      retryable: isRetryableStatus(status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }

  /** The decoder's reading of an error answer; a decoder that throws on a body it did not expect quotes nothing. */
  #detail(response: HttpResponse): string {
    try {
      return this.#decodeError(response);
    } catch {
      return '';
    }
  }

  #transportError(request: HttpRequest, error: unknown): KeywardError {
    const code = axios.isAxiosError(error) ? error.code : undefined;
    const timedOut = isTimeout(code);
    const where = `${this.#label} at ${this.baseUrl}`;
    return new KeywardError({
      api: this.#api,
      code: 0,
      reason: timedOut ? 'Timeout' : 'Unavailable',
      message: timedOut
        ? `${request.description}: no answer from ${where} within ${String(this.#timeoutMs)} ms`
        : `${request.description}: ${where} is unreachable (${code ?? 'network error'})`,
      retryable: true,
    });
  }
}
