import type { KeywardErrorFields } from './errors.js';

/** What to do after a reconcile failed. */
export type FailureResponse =
  /** A view behind a write (a Kubernetes Conflict): try again soon; nothing is wrong, so status is left alone. */
  | { readonly next: 'retry'; readonly report: false }
  /** May succeed later: report it, and retry with the key's growing backoff. */
  | { readonly next: 'backoff'; readonly report: true }
  /** The API said when to come back (Retry-After): report it, and retry then. */
  | { readonly next: 'requeueAfter'; readonly afterMs: number; readonly report: true }
  /** Cannot succeed as the object stands: report it, and wait for the object (or what it watches) to change. */
  | { readonly next: 'waitForChange'; readonly report: true }
  /**
   * Cannot succeed until the object itself is edited (a new generation): report it, and send nothing for this
   * generation again, whatever wakes the object, after a restart too. Its report records the generation in
   * status, where the definition's heldGeneration reads it back; without heldGeneration this is waitForChange.
   */
  | { readonly next: 'waitForEdit'; readonly report: true };

/**
 * Decides what follows a failure: `error`, raised by a step whose action kind is `action` ("observe" when
 * reading the current state failed). A controller definition may bring its own.
 */
export type ErrorPolicy = (error: KeywardErrorFields, action?: string) => FailureResponse;

/** Statuses that say the request itself is wrong: sending it again cannot help. */
const INVALID_REQUEST = new Set([400, 422]);

/**
 * The default: a Kubernetes Conflict is a stale view, retried without touching status; a Retry-After is
 * honoured; a retryable error backs off; an invalid request or a bug in a handler (InternalError) waits for a
 * change instead of being retried forever. Other refusals (401, 403, 404, another API's 409) back off: they
 * depend on state outside the object (a user created later, a role granted), which nothing here watches.
 */
export const defaultErrorPolicy: ErrorPolicy = (error) => {
  if (error.api === 'kubernetes' && error.reason === 'Conflict') return { next: 'retry', report: false };
  if (error.reason === 'InternalError' || INVALID_REQUEST.has(error.code)) return { next: 'waitForChange', report: true };
  if (error.retryAfterMs !== undefined) return { next: 'requeueAfter', afterMs: error.retryAfterMs, report: true };
  return { next: 'backoff', report: true };
};
