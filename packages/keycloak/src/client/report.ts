import { PlanBuilder, type KubeObject, type ObjectRef, type Plan, type PlanFailure } from '@keyward/kernel';
import { deepEqual } from '@keyward/kernel/plan';
import { type DecodeFailure } from '@keyward/kernel/model';
import { failureReadiness, isNewProblem, refusedByKeycloak } from '../problems.js';
import type { Readiness } from '../readiness.js';
import { readClientStatus } from './decode.js';
import type { KeycloakClient, KeycloakClientStatus } from './spec.js';
import { addWarning, clientObjectRef, clientRef, stalled, statusWith, type StatusChanges } from './status.js';
import type { ClientAction } from './vocabulary.js';

type Regarding = ObjectRef & { readonly uid?: string | undefined };

/** Status for `readiness`, when it changes, and a Warning event when `warn` says so. */
function report(ref: Regarding, current: KeycloakClientStatus, generation: number | undefined, readiness: Readiness, now: Date, warn: (changed: boolean) => boolean, changes: StatusChanges = {}): Plan<ClientAction> {
  const plan = new PlanBuilder<ClientAction>();
  const status = statusWith(current, generation, readiness, now, changes);
  const changed = !deepEqual(current, status);
  if (changed) plan.add({ kind: 'k8s.status', ref, status, observed: current }, `report: ${readiness.reason}`);
  if (warn(changed)) addWarning(plan, ref, readiness);
  return plan.build();
}

/**
 * A failed read or step: Reconciling while it is retried, Stalled when only a change can help; the step is
 * named. A Warning event tells each new problem once, not every retry. A spec Keycloak refused records its
 * generation, which holds it (heldGeneration): nothing sends it again (after a restart either) until the spec
 * changes.
 */
export function reportClientFailure(client: KeycloakClient, failure: PlanFailure, now: Date): Plan<ClientAction> {
  const readiness = failureReadiness(client.status.conditions, failure);
  const refused = refusedByKeycloak(failure) ? { refusedGeneration: client.metadata.generation } : {};
  const news = isNewProblem(client.status.conditions, readiness, client.metadata.generation);
  return report({ ...clientRef(client), uid: client.metadata.uid }, client.status, client.metadata.generation, readiness, now, () => news, refused);
}

/** A spec the codec rejects: Stalled until the spec changes, told by an event whenever status changes. */
export function reportInvalidClient(object: KubeObject, failure: DecodeFailure, now: Date): Plan<ClientAction> {
  const ref = { ...clientObjectRef(object.metadata.namespace ?? '', object.metadata.name), uid: object.metadata.uid };
  return report(ref, readClientStatus(object['status']), object.metadata.generation, stalled('InvalidSpec', `invalid spec: ${failure.message}`), now, (changed) => changed);
}
