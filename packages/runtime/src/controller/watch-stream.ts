import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { ObjectMeta } from '@keyward/kernel/plan';
import type { ServerObject } from './object-cache.js';

/** One line of a watch response, checked: objects have metadata with a name, statuses a code. */
export type WatchEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: ServerObject }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string }
  | { readonly type: 'ERROR'; readonly code: number; readonly message: string };

export interface WatchStream {
  /** Ends the request; safe to call at any time and more than once, also before the response arrived. */
  abort(): void;
  /**
   * Settles once the request is over, whatever ended it: `undefined` when the server closed the stream,
   * otherwise the error (an HTTP status shows as `statusCode`; our own abort() as an AbortError).
   */
  readonly closed: Promise<unknown>;
}

/**
 * Opens a watch with @kubernetes/client-node's Watch, whose callbacks receive `any` (and whose errors it
 * swallows) and whose AbortController exists only once the response headers arrived. This wrapper checks each
 * event (one it cannot use becomes an ERROR with code 0), lets abort() be called at once, and settles `closed`
 * also when Watch fails before sending a request, when it never calls its done callback. `onOpen` is told
 * when the server accepted the watch (HTTP 200), before any event.
 */
export function openWatch(
  config: KubeConfig,
  path: string,
  query: Readonly<Record<string, string | number | boolean | undefined>>,
  onEvent: (event: WatchEvent) => void,
  onOpen: () => void = () => undefined,
): WatchStream {
  let aborted = false;
  let ended = false;
  let controller: AbortController | undefined;
  let settle: (reason: unknown) => void = () => undefined;
  const closed = new Promise<unknown>((resolve) => {
    settle = (reason) => {
      ended = true;
      resolve(reason);
    };
  });
  const onLine = (phase: string, object: unknown): void => {
    if (!aborted) onEvent(parseEvent(phase, object));
  };
  new Watch(config).watch(path, { ...query }, onLine, (error: unknown) => {
    settle(error ?? undefined);
  }).then(
    (started) => {
      controller = started;
      if (aborted) started.abort();
      // Watch resolves once the response arrived; an error status or a failed request has called done by then.
      else if (!ended) onOpen();
    },
    // Rejected before any request was sent (the kubeconfig could not be applied): done is never called.
    (error: unknown) => {
      settle(error);
    },
  );
  return {
    abort: () => {
      aborted = true;
      controller?.abort();
    },
    closed,
  };
}

/** The HTTP status of a failed watch request, if it got that far. */
export function watchStatusCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

function parseEvent(phase: string, object: unknown): WatchEvent {
  if (!isRecord(object)) return malformed(`${phase} event without an object`);
  switch (phase) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED': {
      const { metadata } = object;
      if (!isRecord(metadata) || typeof metadata['name'] !== 'string') return malformed(`${phase} event for an object without metadata.name`);
      return { type: phase, object: { ...object, metadata: metadata as ObjectMeta } };
    }
    case 'BOOKMARK': {
      const version = isRecord(object['metadata']) ? object['metadata']['resourceVersion'] : undefined;
      return typeof version === 'string' ? { type: 'BOOKMARK', resourceVersion: version } : malformed('BOOKMARK event without a resourceVersion');
    }
    case 'ERROR': {
      // A Status object: {code: 410, reason: "Expired", message: "too old resource version: 1 (202)"}.
      const code = typeof object['code'] === 'number' ? object['code'] : 0;
      const message = typeof object['message'] === 'string' ? object['message'] : JSON.stringify(object).slice(0, 300);
      return { type: 'ERROR', code, message };
    }
    default:
      return malformed(`unknown watch event type ${phase}`);
  }
}

function malformed(message: string): WatchEvent {
  return { type: 'ERROR', code: 0, message: `malformed watch event: ${message}` };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
