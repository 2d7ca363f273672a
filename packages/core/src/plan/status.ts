import type { ObjectRef } from '../model/refs.js';
import { deepEqual } from './equality.js';
import type { PlanBuilder } from './plan.js';
import type { ObjectTemplate, Precondition } from './kubernetes.js';

/**
 * Adds a status write only when the desired status differs from the observed one, so a reconcile that
 * changes nothing writes nothing.
 */
export function addStatusIfChanged(
  plan: PlanBuilder,
  ref: ObjectRef,
  observed: Readonly<Record<string, unknown>> | undefined,
  desired: ObjectTemplate,
  reason = 'record the observed state',
  precondition?: Precondition,
): void {
  if (deepEqual(observed ?? {}, desired)) return;
  plan.add({ kind: 'k8s.status', ref, status: desired, observed, ...(precondition === undefined ? {} : { precondition }) }, reason);
}
