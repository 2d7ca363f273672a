import { findCondition, type KubeObject } from '@keyward/kernel';
import { readConditions, type ConditionStatus } from '@keyward/kernel/model';

/** The condition every Keyward controller sums an object's state up in. */
const READY = 'Ready';

/** An object's Ready condition as a plan shows it. */
export interface ReadyCondition {
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** The Ready condition of `object`'s status, if it has one. */
export function readyCondition(object: KubeObject | undefined): ReadyCondition | undefined {
  const status = object?.['status'];
  const conditions = typeof status === 'object' && status !== null && 'conditions' in status ? status.conditions : undefined;
  const ready = findCondition(readConditions(conditions), READY);
  return ready === undefined ? undefined : { status: ready.status, reason: ready.reason, message: ready.message };
}

/** `Ready=False PasswordKeyNotFound: ...`, as `kubectl get` columns would tell it. */
export function conditionText(condition: ReadyCondition, withMessage = true): string {
  const reason = condition.reason === '' ? '' : ` ${condition.reason}`;
  const message = withMessage && condition.message !== '' ? `: ${condition.message}` : '';
  return `${READY}=${condition.status}${reason}${message}`;
}
