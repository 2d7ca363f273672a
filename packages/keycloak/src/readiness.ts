import { setConditions, type DesiredCondition } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';

/**
 * Where a KeycloakRealm or KeycloakClient stands, as its conditions say it (kstatus style): Ready, or
 * Reconciling while work is under way (it will go on by itself), or Stalled when it cannot go on until
 * someone changes something (an invalid spec, a conflict of ownership, a missing grant).
 */
export type Readiness =
  | { readonly state: 'ready'; readonly reason: string; readonly message: string }
  | { readonly state: 'reconciling'; readonly reason: string; readonly message: string }
  | { readonly state: 'stalled'; readonly reason: string; readonly message: string };

/** The Ready, Reconciling and Stalled conditions for `readiness`; transition times change only with status. */
export function readinessConditions(current: readonly Condition[] | undefined, readiness: Readiness, generation: number | undefined, now: Date): Condition[] {
  const observedGeneration = generation === undefined ? {} : { observedGeneration: generation };
  const condition = (type: string, on: boolean): DesiredCondition => ({
    type,
    status: on ? 'True' : 'False',
    reason: on ? readiness.reason : type === 'Ready' ? readiness.reason : 'None',
    message: on || type === 'Ready' ? readiness.message : '',
    ...observedGeneration,
  });
  return setConditions(current, [
    condition('Ready', readiness.state === 'ready'),
    condition('Reconciling', readiness.state === 'reconciling'),
    condition('Stalled', readiness.state === 'stalled'),
  ], now);
}
