import { PlanBuilder, deepEqual, type DecodeFailure, type KubeObject, type ObjectRef, type Plan, type PlanFailure } from '@keyward/vocabulary';
import type { Readiness } from '../readiness.js';
import { readClientStatus } from './decode.js';
import type { KeycloakClient, KeycloakClientStatus } from './spec.js';
import { addWarning, clientObjectRef, clientRef, reconciling, stalled, statusWith } from './status.js';
import type { ClientAction } from './vocabulary.js';

/**
 * Status and a Warning event for a problem; the event only when status changes, so a retried failure is
 * told once rather than on every retry.
 */
function report(ref: ObjectRef & { readonly uid?: string | undefined }, current: KeycloakClientStatus, generation: number | undefined, readiness: Readiness, now: Date): Plan<ClientAction> {
  const plan = new PlanBuilder<ClientAction>();
  const status = statusWith(current, generation, readiness, now);
  if (deepEqual(current, status)) return plan.build();
  plan.add({ kind: 'k8s.status', ref, status, observed: current }, `report: ${readiness.reason}`);
  addWarning(plan, ref, readiness);
  return plan.build();
}

/** A failed read or step: Reconciling while it is retried, Stalled when only a change can help; the step is named. */
export function reportClientFailure(client: KeycloakClient, failure: PlanFailure, now: Date): Plan<ClientAction> {
  const message = `${failure.step} failed: ${failure.message}`;
  const readiness = failure.retryable ? reconciling(failure.reason, message) : stalled(failure.reason, message);
  return report({ ...clientRef(client), uid: client.metadata.uid }, client.status, client.metadata.generation, readiness, now);
}

/** A spec the codec rejects: Stalled until the spec changes. */
export function reportInvalidClient(object: KubeObject, failure: DecodeFailure, now: Date): Plan<ClientAction> {
  const ref = { ...clientObjectRef(object.metadata.namespace ?? '', object.metadata.name), uid: object.metadata.uid };
  return report(ref, readClientStatus(object['status']), object.metadata.generation, stalled('InvalidSpec', `invalid spec: ${failure.message}`), now);
}
