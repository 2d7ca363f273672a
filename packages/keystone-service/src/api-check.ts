import type { Condition, KubeObject, ObjectRef, PlanBuilder, Sensitive } from '@keyward/kernel';
import type { TokenCheck } from '@keyward/kernel/plan';
import { LABEL_COMPONENT } from './api.js';
import type { StepReport } from './status.js';
import type { KeystoneAction } from './vocabulary.js';

// KeystoneAPIReady as an active check: the bootstrap admin asks the Service for a fresh token on each
// reconcile once bootstrap has completed; what Keystone answered is the condition.

/** How soon the first check follows the bootstrap that made the admin user: the status records it first. */
export const FIRST_CHECK_AFTER_MS = 1_000;

export interface ApiCheck {
  readonly endpoint: string;
  readonly adminUser: string;
  /** The token query's answer; undefined when it was not asked (bootstrap had not completed when it was read). */
  readonly check: TokenCheck | undefined;
  /** Whether bootstrap has completed with the admin password the query reads. */
  readonly bootstrapped: boolean;
}

/** Whether API pods are stopping (a rollout's old ones): the Service may still send a connection to one. */
export function apiPodsStopping(pods: readonly KubeObject[]): boolean {
  return pods.some((pod) => pod.metadata.deletionTimestamp !== undefined && pod.metadata.labels?.[LABEL_COMPONENT] === 'api');
}

/**
 * What KeystoneAPIReady says of the check, the password masked should Keystone ever echo it; undefined (the
 * condition keeps what it said) for a failure while API pods are stopping, since the request may have reached
 * one of them: their removal wakes the reconcile that asks again.
 */
export function apiReport({ endpoint, adminUser, check, bootstrapped }: ApiCheck, password: Sensitive, podsStopping = false): StepReport | undefined {
  if (!bootstrapped) return { status: 'Unknown', reason: 'WaitingForBootstrap', message: `a token is requested from ${endpoint} once bootstrap has set the admin password` };
  if (check === undefined) return { status: 'Unknown', reason: 'Checking', message: `a token is requested from ${endpoint} as ${adminUser} next` };
  if (check.issued) return { status: 'True', reason: 'TokenIssued', message: `${endpoint} issued a token to ${adminUser}` };
  if (podsStopping) return undefined;
  const said = password.reveal() === '' ? check.message : check.message.replaceAll(password.reveal(), '***');
  return {
    status: 'False',
    reason: check.reason === 'Unauthorized' ? 'TokenRefused' : 'TokenRequestFailed',
    message: `${endpoint} issued no token to ${adminUser}: ${check.reason}: ${said}`,
  };
}

/**
 * Adds the Warning event for a failed check whose reason the condition does not have yet, so people are told
 * once per transition, not on every resync; and the reconcile that runs the first check.
 */
export function addApiCheckSteps(plan: PlanBuilder<KeystoneAction>, regarding: ObjectRef & { readonly uid: string | undefined }, current: Condition | undefined, report: StepReport): void {
  if (report.reason === 'Checking') plan.add({ kind: 'control.requeueAfter', afterMs: FIRST_CHECK_AFTER_MS }, 'request a token from the API now that bootstrap is recorded');
  if (report.status !== 'False' || (current?.status === 'False' && current.reason === report.reason)) return;
  plan.add({ kind: 'k8s.event', regarding, type: 'Warning', reason: report.reason, note: report.message, action: 'CheckAPI' }, 'tell people the API issues no tokens');
}
