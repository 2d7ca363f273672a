import { setConditions, summaryCondition, type DesiredCondition } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';
import { CONDITION_AC_READY, CONDITION_KEYSTONE_API_READY, CONDITION_READY } from './api.js';

export const KEYSTONE_API_READY: DesiredCondition = { type: CONDITION_KEYSTONE_API_READY, status: 'True', reason: 'Ready', message: 'KeystoneAPI ready' };
export const CREDENTIAL_READY_MESSAGE = 'ApplicationCredential ready';

export function keystoneApiNotReady(reason: string, message: string): DesiredCondition {
  return { type: CONDITION_KEYSTONE_API_READY, status: 'False', reason, message };
}

export function credentialCondition(status: DesiredCondition['status'], reason: string, message: string): DesiredCondition {
  return { type: CONDITION_AC_READY, status, reason, message };
}

/**
 * The three conditions in upstream's order. Ready reflects the worst of the other two (with its message);
 * when both are True it says "Setup complete", plus any note (consumers holding old credentials).
 */
export function conditionsFor(current: readonly Condition[] | undefined, keystoneApi: DesiredCondition, credential: DesiredCondition, now: Date, note?: string): Condition[] {
  const ready = summaryCondition(CONDITION_READY, [keystoneApi, credential], {
    reason: 'Ready',
    message: note === undefined ? 'Setup complete' : `Setup complete; ${note}`,
  });
  return setConditions(current, [ready, keystoneApi, credential], now);
}
