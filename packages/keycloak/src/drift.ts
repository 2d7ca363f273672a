import { convergedOnSpec, driftRepairedEvent, type ConvergedView, type EventAction, type PlanSteps } from '@keyward/kernel/plan';
import { type ObjectRef, type Plan } from '@keyward/kernel';
import type { KeycloakAction } from './apis/keycloak/actions.js';
import { describeHolder, describeResource } from './apis/keycloak/api.js';

/**
 * Fields whose value comes from a Secret (the SMTP password, a provided client secret): the Secret changing is
 * not drift, so a write of these alone is not reported as one.
 */
const SECRET_SOURCED = new Set(['smtpServer.password', 'secret']);

/**
 * What a Keycloak write of a plan repairs, in a few words; undefined for a write that is no repair (a secret
 * regeneration is asked for by the spec or its rotation period; a new secret from a Secret is the Secret's).
 */
function repairOf(action: KeycloakAction): string | undefined {
  switch (action.kind) {
    case 'keycloak.create':
      return `recreated ${describeResource(action.resource)}`;
    case 'keycloak.update': {
      const fields = action.changed.filter((field) => !SECRET_SOURCED.has(field));
      return fields.length === 0 ? undefined : `set back ${describeResource(action.resource)} (${fields.join(', ')})`;
    }
    case 'keycloak.delete':
      // A rotated secret is invalidated when its grace period ends, as planned.
      return action.resource.type === 'rotatedClientSecret' ? undefined : `removed ${describeResource(action.resource)}`;
    case 'keycloak.grantRoles':
      return `granted roles again to ${describeHolder(action.holder)}`;
    case 'keycloak.revokeRoles':
      return `revoked roles added to ${describeHolder(action.holder)}`;
    case 'keycloak.regenerateClientSecret':
      return undefined;
  }
}

function isKeycloakAction(action: { readonly kind: string }): action is KeycloakAction {
  return action.kind.startsWith('keycloak.');
}

/** The repairs a plan makes in Keycloak, in plan order. */
export function repairsIn(plan: Plan<{ readonly kind: string }>): string[] {
  return plan.steps.flatMap(({ action }) => {
    const repair = isKeycloakAction(action) ? repairOf(action) : undefined;
    return repair === undefined ? [] : [repair];
  });
}

/**
 * For an object that had converged on its spec (Ready at its generation) whose plan still writes to Keycloak:
 * someone changed Keycloak out of band, and the plan sets it back. Adds a DriftRepaired Warning event after
 * the writes, so it is recorded only when the repair went through; the runtime counts these events. Adds
 * nothing to any other plan.
 */
export function addDriftReport(plan: PlanSteps<EventAction> & { build(): Plan }, object: ConvergedView & { readonly metadata: { readonly uid?: string | undefined } }, ref: ObjectRef, what: string): void {
  if (!convergedOnSpec(object)) return;
  const repairs = repairsIn(plan.build());
  if (repairs.length === 0) return;
  plan.add(driftRepairedEvent({ ...ref, uid: object.metadata.uid }, `${what} was changed in Keycloak out of band; ${repairs.join('; ')}`), 'tell people Keycloak was changed outside the spec and set back');
}
