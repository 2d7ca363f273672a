import { PlanBuilder, type KubeObject, type Plan, type PlanFailure } from '@keyward/kernel';
import { addStatusIfChanged } from '@keyward/kernel/plan';
import { type DecodeFailure } from '@keyward/kernel/model';
import { readRealmStatus } from './decode.js';
import { stalled } from './readiness.js';
import { failureReadiness, refusedByKeycloak } from '../problems.js';
import type { KeycloakRealm } from './spec.js';
import { realmRef, realmStatus, reportProblem } from './status.js';
import type { KeycloakRealmAction } from './vocabulary.js';

/**
 * A failed read or step: Ready=False naming the step and why. Reconciling while the failure is retried
 * (5xx, network), Stalled when it waits for someone to change something (a 4xx Keycloak refused); a Warning
 * event for each new problem.
 */
export function reportFailure(cr: KeycloakRealm, failure: PlanFailure, now: Date): Plan<KeycloakRealmAction> {
  const plan = new PlanBuilder<KeycloakRealmAction>();
  // A spec Keycloak refused records its generation, which holds it (heldGeneration): nothing sends it again,
  // after a restart neither, until it changes.
  const refused = refusedByKeycloak(failure) ? { refusedGeneration: cr.metadata.generation } : {};
  reportProblem(plan, cr, failureReadiness(cr.status.conditions, failure), now, refused);
  return plan.build();
}

/** A spec the codec rejects: Stalled with the fields it names, and a Warning event. */
export function reportInvalid(object: KubeObject, failure: DecodeFailure, now: Date): Plan<KeycloakRealmAction> {
  const plan = new PlanBuilder<KeycloakRealmAction>();
  const status = readRealmStatus(object['status']);
  const message = `invalid spec: ${failure.message}`;
  const ref = realmRef(object);
  addStatusIfChanged(plan, ref, status, realmStatus(status, stalled('InvalidSpec', message), object.metadata.generation, now), 'report the invalid spec');
  plan.add({ kind: 'k8s.event', regarding: { ...ref, uid: object.metadata.uid }, type: 'Warning', reason: 'InvalidSpec', note: message, action: 'Validate' }, 'tell people why nothing happens');
  return plan.build();
}
