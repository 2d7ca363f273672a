// Keycloak requests as the runtime's HTTP observer sees them (every attempt, retries included), by operation
// name and answer, split into admin reads, admin writes, token requests and the breaker's probes.
import { performance } from 'node:perf_hooks';
import type { HttpRequestInfo, HttpRequestObserver } from '@keyward/runtime/io';
import { difference, type Counts } from '../support/counts.js';

/** Operation names of the admin reads (io/queries.ts, lookups.ts, roles.ts, reads.ts). */
const READ_PREFIXES = ['get_', 'list_', 'find_'];
/** Not admin requests: logins (the token bucket) and the breaker's probes (no limiter at all). */
const NOT_ADMIN = new Set(['token', 'probe']);

export type RequestKind = 'read' | 'write' | 'token' | 'probe';

export function kindOf(operation: string): RequestKind {
  if (operation === 'token' || operation === 'probe') return operation;
  return READ_PREFIXES.some((prefix) => operation.startsWith(prefix)) ? 'read' : 'write';
}

export interface KeycloakRequests {
  readonly reads: number;
  readonly writes: number;
  readonly tokens: number;
  readonly probes: number;
  /** Answers 0 (no answer), 4xx and 5xx, which the controller retries or reports. */
  readonly failed: number;
  /** "<operation> <status>". */
  readonly byRequest: Counts;
}

export function summary(byRequest: Counts): KeycloakRequests {
  const sum = (test: (operation: string, status: number) => boolean): number =>
    Object.entries(byRequest).reduce((n, [key, count]) => {
      const [operation = '', status = '0'] = key.split(' ');
      return test(operation, Number(status)) ? n + count : n;
    }, 0);
  return {
    reads: sum((operation) => kindOf(operation) === 'read'),
    writes: sum((operation) => kindOf(operation) === 'write'),
    tokens: sum((operation) => operation === 'token'),
    probes: sum((operation) => operation === 'probe'),
    failed: sum((_, status) => status === 0 || status >= 400),
    byRequest,
  };
}

/** Counts every attempt; with `timestamps`, also the moment of every admin request (performance.now(), ms). */
export class KeycloakTally {
  readonly #counts = new Map<string, number>();
  readonly #adminAt: number[] = [];

  readonly observer: HttpRequestObserver = {
    onRequest: (info: HttpRequestInfo) => {
      const key = `${info.operation} ${String(info.status)}`;
      this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
      // The observer is told when the answer is in; the request left durationMs earlier.
      if (!NOT_ADMIN.has(info.operation)) this.#adminAt.push(performance.now() - info.durationMs);
    },
  };

  snapshot(): Counts {
    return Object.fromEntries(this.#counts);
  }

  /** When each admin request was sent, in the order the answers came. */
  adminSentAt(): readonly number[] {
    return this.#adminAt;
  }
}

/** What was counted between two snapshots. */
export function requestsBetween(after: Counts, before: Counts): KeycloakRequests {
  return summary(difference(after, before));
}
