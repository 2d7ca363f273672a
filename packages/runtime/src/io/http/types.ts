import type { Sensitive } from '@keyward/kernel';
import type { BreakerSettings } from '@keyward/kernel/interpreter';

export type HttpMethod = 'GET' | 'HEAD' | 'PUT' | 'DELETE' | 'POST' | 'PATCH';

/** Takes turns between tenants: resolves when a request charged to `tenant` may go, or rejects with a KeywardError. */
export interface TenantRateLimiter {
  acquire(tenant: string): Promise<void>;
}

/** How hard requests may press an endpoint. */
export interface HttpLimiterOptions {
  /** Requests in flight at the same time (default 10). */
  readonly maxConcurrent?: number;
  /** Least time between the starts of two requests, in ms (default 0: no spacing). */
  readonly minTimeMs?: number;
}

/** When and how often a failed request is tried again. */
export interface HttpRetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  readonly maxAttempts?: number;
  /** Pause before the first retry, in ms (default 200); it doubles before each further retry. */
  readonly baseDelayMs?: number;
  /** Longest pause between two attempts, in ms (default 5 000). */
  readonly maxDelayMs?: number;
  /**
   * Longest Retry-After (of a 429 or 503) waited for before the next attempt, in ms (default 30 000). A longer
   * one is not waited for: the request fails at once and its error carries the hint as retryAfterMs.
   */
  readonly retryAfterCapMs?: number;
}

/** One HTTP attempt as metrics see it. Every attempt is reported, retries and probes included. */
export interface HttpRequestInfo {
  /** Which API: "keystone", "keycloak", ... */
  readonly api: string;
  /** Low-cardinality name of the call, e.g. "create_application_credential"; "probe" for the breaker's probes. */
  readonly operation: string;
  /** HTTP status; 0 when there was no answer (timeout, connection refused). */
  readonly status: number;
  /** Time on the wire, from sending the request to the end of the answer or the failure. */
  readonly durationMs: number;
  /** Time the attempt queued in the limiters (its tenant's, then the endpoint's) before it was sent. */
  readonly limiterWaitMs: number;
  /** 1 for the first attempt of a request, 2 for its first retry, ... */
  readonly attempt: number;
}

export interface HttpRequestObserver {
  /** Called synchronously after each attempt; must not throw. */
  onRequest(info: HttpRequestInfo): void;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON; undefined when the body was empty or not JSON. */
  readonly body: unknown;
  /** The body as received. */
  readonly text: string;
}

/**
 * The server's own words about a failed request ("Unauthorized: The request you have made requires
 * authentication."), or '' when its answer has none. The transport masks the request's secrets in it and
 * shortens it before quoting it in the error.
 */
export type HttpErrorDecoder = (response: HttpResponse) => string;

export interface HttpTransportOptions {
  /** Which API, for errors and metrics: "keystone", "keycloak". */
  readonly api: string;
  /** The API as people name it in messages: "Keystone" (default: `api`). */
  readonly label?: string;
  /** Requests' paths are relative to this URL; a trailing slash is dropped. */
  readonly baseUrl: string;
  /** Per-attempt timeout in ms (default 10 000). */
  readonly timeoutMs?: number;
  /** The endpoint's limiter, shared by all requests. */
  readonly limiter?: HttpLimiterOptions;
  /**
   * Where a request charged to a tenant waits for its turn before the endpoint's limiter (a FairRateLimiter,
   * which may be shared by the transports of several endpoints); each attempt waits again. Without it tenants
   * are ignored.
   */
  readonly tenantLimiter?: TenantRateLimiter;
  readonly retry?: HttpRetryOptions;
  readonly observer?: HttpRequestObserver;
  /** How an unavailable endpoint is probed (see EndpointBreaker). */
  readonly breaker?: BreakerSettings;
  /** The probe the breaker sends: a GET of this path, without a token (default '': the base URL itself). */
  readonly probePath?: string;
  /** Turns error answers into their detail (default: defaultErrorDetail). */
  readonly decodeError?: HttpErrorDecoder;
  /** The headers that carry a request's token (default: Authorization: Bearer). */
  readonly authHeaders?: (token: string) => Readonly<Record<string, string>>;
  /**
   * Reuse connections (default false: a fresh connection per request, since servers that close idle
   * connections early make the next request on them fail with "socket hang up").
   */
  readonly keepAlive?: boolean;
  /** Milliseconds since the epoch, for durations and Retry-After dates; injectable for tests. */
  readonly now?: () => number;
  /** Waits between attempts; injectable so tests need not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Form fields; Sensitive values are revealed only when the form is sent. */
export type HttpForm = Readonly<Record<string, string | Sensitive>>;

export interface HttpRequest {
  readonly method: HttpMethod;
  /** Relative to the base URL, starting with "/"; path segments already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Metric label, see HttpRequestInfo.operation. */
  readonly operation: string;
  /** What failed, for people: "create application credential for user 3f1c". Never contains a secret. */
  readonly description: string;
  /** Extra headers; never a secret (use `token`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent in the transport's auth headers; masked in errors. */
  readonly token?: Sensitive;
  /** JSON body. Sensitive values in it are revealed when it is sent and masked in errors. */
  readonly body?: unknown;
  /** A form body (application/x-www-form-urlencoded) instead of JSON; Sensitive values as in `body`. */
  readonly form?: HttpForm;
  /** Further secrets to mask in any server text quoted in an error (servers may echo input). */
  readonly secrets?: readonly Sensitive<unknown>[];
  /** Non-2xx statuses that are an answer rather than a failure (a delete's 404: already gone). */
  readonly accept?: readonly number[];
  /**
   * Whether a retryable failure is tried again. Default: for GET, HEAD, PUT and DELETE, which can be repeated
   * safely, and not for POST and PATCH; true for a POST the server treats as idempotent, false to try once.
   */
  readonly retry?: boolean;
  /** The tenant this request is charged to; see HttpTransportOptions.tenantLimiter. */
  readonly tenant?: string;
}
