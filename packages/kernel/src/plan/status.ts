import type { ObjectRef } from '../model/refs.js';
import { deepEqual } from './equality.js';
import type { PlanSteps } from './plan.js';
import type { ObjectTemplate, PatchAction, Precondition, StatusAction } from '../apis/kubernetes/actions.js';

/**
 * Adds a status write only when the desired status differs from the observed one, so a reconcile that
 * changes nothing writes nothing.
 */
export function addStatusIfChanged(
  plan: PlanSteps<StatusAction>,
  ref: ObjectRef,
  observed: Readonly<Record<string, unknown>> | undefined,
  desired: ObjectTemplate,
  reason = 'record the observed state',
  precondition?: Precondition,
): void {
  if (deepEqual(observed ?? {}, desired)) return;
  plan.add({ kind: 'k8s.status', ref, status: desired, observed, ...(precondition === undefined ? {} : { precondition }) }, reason);
}

/**
 * A step that changes nothing but fails with Conflict unless the object still has `resourceVersion`: put it
 * before irreversible steps (revoking, deleting) so a plan made from a stale cache stops before doing harm.
 */
export function addFreshnessGuard(plan: PlanSteps<PatchAction>, ref: ObjectRef, resourceVersion: string | undefined, reason = 'make sure the decision was made from the current object'): void {
  plan.add({ kind: 'k8s.patch', ref, patch: { type: 'merge', body: {} }, precondition: { resourceVersion: resourceVersion ?? '' } }, reason);
}
