// How problems are told: which are news (a Warning event), how a failure reads in status, and which
// failures Keycloak's answer makes final for the spec as it stands.
import { findCondition, type Condition, type PlanFailure } from '@keyward/kernel';
import { defaultErrorPolicy, type ErrorPolicy } from '@keyward/kernel/plan';
import type { Readiness } from './readiness.js';

/**
 * Whether `readiness` is news to people: a problem the Ready condition does not state yet for this generation
 * of the spec (it is True, False for another reason, or about an earlier spec). A Warning event is told on
 * such a transition only, not on every retry, wake-up or resync.
 */
export function isNewProblem(current: readonly Condition[] | undefined, readiness: Readiness, generation: number | undefined): boolean {
  if (readiness.state === 'ready') return false;
  const stated = findCondition(current, 'Ready');
  return stated?.status !== 'False' || stated.reason !== readiness.reason || stated.observedGeneration !== generation;
}

/** The reason of a server error Keycloak answered the same way as the last time. */
export const SAME_SERVER_ERROR = 'KeycloakFailsTheSameWay';

/**
 * Where a failed read or step leaves the object: Stalled when only a change can help (Keycloak refused the
 * request), Reconciling while it is retried. A server error with the very message status already states is
 * not passing: Keycloak answers so on every try, and the reason says it.
 */
export function failureReadiness(current: readonly Condition[] | undefined, failure: PlanFailure): Readiness {
  const message = `${failure.step} failed: ${failure.message}`;
  if (!failure.retryable) return { state: 'stalled', reason: failure.reason, message };
  const stated = findCondition(current, 'Ready');
  const again = failure.reason === 'ServerError' && stated?.status === 'False' && stated.message === message && (stated.reason === failure.reason || stated.reason === SAME_SERVER_ERROR);
  return { state: 'reconciling', reason: again ? SAME_SERVER_ERROR : failure.reason, message };
}

/** Reasons of a Keycloak answer that refuses the request as the spec makes it (400, 422): only an edit helps. */
const REFUSED_AS_SPECIFIED = new Set(['BadRequest', 'Invalid']);

/**
 * Whether Keycloak refused a step of the plan as the spec makes it, so sending it again cannot succeed: the
 * failure waits for an edit (keycloakErrorPolicy), and its report records the generation in status.
 */
export function refusedByKeycloak(failure: { readonly action: string; readonly reason: string }): boolean {
  return failure.action.startsWith('keycloak.') && REFUSED_AS_SPECIFIED.has(failure.reason);
}

/**
 * A create's Conflict that the handler's read right after found made meanwhile: the handler makes that one
 * retryable (Keycloak's own 409 is not).
 */
const isCreatedMeanwhile = (error: { readonly api: string; readonly code: number; readonly retryable: boolean }, action: string | undefined): boolean =>
  action === 'keycloak.create' && error.api === 'keycloak' && error.code === 409 && error.retryable;

/**
 * The Keycloak controllers' error policy: a spec Keycloak refused waits for an edit; a create that found its
 * resource made meanwhile (isCreatedMeanwhile) is a stale view, read again at once and not reported (the next
 * reconcile decides by the ownership rules); anything else as by default.
 */
export const keycloakErrorPolicy: ErrorPolicy = (error, action) => {
  if (isCreatedMeanwhile(error, action)) return { next: 'retry', report: false };
  return action !== undefined && refusedByKeycloak({ action, reason: error.reason }) ? { next: 'waitForEdit', report: true } : defaultErrorPolicy(error, action);
};

/** The generation whose spec Keycloak refused, as a KeycloakRealm's or KeycloakClient's status records it. */
export function refusedGeneration(object: { readonly status: { readonly refusedGeneration?: number } }): number | undefined {
  return object.status.refusedGeneration;
}
