/**
 * The one error shape every handler (Kubernetes, Keystone, later Keycloak) turns its failures into.
 * `message` is for people and never contains a secret: handlers build it from status codes, object names
 * and server reasons, never from request bodies.
 */
export interface KeywardErrorFields {
  /** Which API failed: "kubernetes", "keystone", ... */
  readonly api: string;
  /** HTTP status when there was one; 0 for transport failures (timeout, connection refused). */
  readonly code: number;
  /** Short machine-readable cause: "NotFound", "Conflict", "Unauthorized", "Timeout", "Unavailable", ... */
  readonly reason: string;
  readonly message: string;
  /** Whether the same call may succeed if simply tried again later. */
  readonly retryable: boolean;
  /** How long the server asked callers to wait before trying again (its Retry-After), in ms. */
  readonly retryAfterMs?: number;
}

export class KeywardError extends Error implements KeywardErrorFields {
  readonly api: string;
  readonly code: number;
  readonly reason: string;
  readonly retryable: boolean;
  declare readonly retryAfterMs?: number;

  constructor(fields: KeywardErrorFields) {
    super(fields.message);
    this.name = 'KeywardError';
    this.api = fields.api;
    this.code = fields.code;
    this.reason = fields.reason;
    this.retryable = fields.retryable;
    // Only set when known, so errors without a hint look as they always did (in logs and test matchers).
    if (fields.retryAfterMs !== undefined) this.retryAfterMs = fields.retryAfterMs;
  }
}

/** A reason for an HTTP status, shared by all handlers. */
export function reasonForStatus(status: number): string {
  switch (status) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    default: return status >= 500 ? 'ServerError' : `HTTP${String(status)}`;
  }
}

/** Statuses worth retrying later: throttling and server-side trouble. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
