import { KeywardError } from '@keyward/kernel/interpreter';
import type { KubeRequestInfo } from '../apis/kubernetes/io/client.js';
import type { RuntimeLogger } from './controller.js';
import { watchStatusCode } from './watch-stream.js';

/** What the runtime tells about requests to the API server: one that got no answer, and one that got any. */
export interface ReachabilityReporter {
  /** A request got no answer (refused, reset, timed out); `cause` says how it failed. */
  unanswered(cause: string): void;
  /** A request got an answer, whatever its status. */
  answered(): void;
}

export interface ApiServerReachabilityOptions {
  /** The API server's address, as the lines name it. */
  readonly server: string;
  /** After the first warning, the next while the server stays away; each later one waits twice as long. Default 10 s. */
  readonly firstRepeatMs?: number;
  /** The longest wait between two warnings. Default 5 minutes. */
  readonly maxRepeatMs?: number;
  readonly now?: () => number;
}

const DEFAULT_FIRST_REPEAT_MS = 10_000;
const DEFAULT_MAX_REPEAT_MS = 5 * 60_000;

/**
 * Says when the Kubernetes API server cannot be reached, at a bounded rate: a warning at the first request
 * without an answer, then, while requests keep failing so, one after 10 s, 20 s, 40 s, ... (at most every 5
 * minutes) with how long it has been away, and one line when a request gets an answer again. Every request
 * of the client (onRequest) and every watch (reported by the informers) feeds it, so an outage at start and
 * one later read the same; the components that retry say their own failures of this kind at debug level.
 */
export class ApiServerReachability implements ReachabilityReporter {
  readonly #logger: RuntimeLogger;
  readonly #server: string;
  readonly #firstRepeatMs: number;
  readonly #maxRepeatMs: number;
  readonly #now: () => number;
  #outage: { readonly since: number; failures: number; repeatMs: number; nextReportAt: number } | undefined;

  constructor(logger: RuntimeLogger, options: ApiServerReachabilityOptions) {
    this.#logger = logger;
    this.#server = options.server;
    this.#firstRepeatMs = options.firstRepeatMs ?? DEFAULT_FIRST_REPEAT_MS;
    this.#maxRepeatMs = options.maxRepeatMs ?? DEFAULT_MAX_REPEAT_MS;
    this.#now = options.now ?? Date.now;
  }

  /** For KubeClientOptions.onRequest: status 0 is a request the server did not answer. */
  readonly onRequest = (info: KubeRequestInfo): void => {
    if (info.status === 0) this.unanswered(info.error ?? `${info.verb} ${info.resource} got no answer`);
    else this.answered();
  };

  unanswered(cause: string): void {
    const now = this.#now();
    const outage = this.#outage;
    if (outage === undefined) {
      this.#outage = { since: now, failures: 1, repeatMs: this.#firstRepeatMs, nextReportAt: now + this.#firstRepeatMs };
      this.#logger.warn('cannot reach the Kubernetes API server; retrying', { server: this.#server, error: cause });
      return;
    }
    outage.failures++;
    if (now < outage.nextReportAt) return;
    outage.repeatMs = Math.min(outage.repeatMs * 2, this.#maxRepeatMs);
    outage.nextReportAt = now + outage.repeatMs;
    this.#logger.warn('still cannot reach the Kubernetes API server; retrying', {
      server: this.#server,
      error: cause,
      downForS: seconds(now - outage.since),
      failedRequests: outage.failures,
      nextReportInS: seconds(outage.repeatMs),
    });
  }

  answered(): void {
    const outage = this.#outage;
    if (outage === undefined) return;
    this.#outage = undefined;
    this.#logger.info('the Kubernetes API server answers again', { server: this.#server, downForS: seconds(this.#now() - outage.since), failedRequests: outage.failures });
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/**
 * Whether a request to the API server failed without an answer: the connection was refused, reset or closed,
 * and, unless `timeouts` is false, it timed out. A list's KeywardError with code 0, or a watch's system or
 * stream error (ECONNREFUSED, ERR_STREAM_PREMATURE_CLOSE).
 */
export function unansweredKubeRequest(error: unknown, { timeouts }: { readonly timeouts: boolean }): boolean {
  if (error instanceof KeywardError) return error.code === 0 && (error.reason === 'Unavailable' || (timeouts && error.reason === 'Timeout'));
  return watchStatusCode(error) === undefined && typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string';
}
