import { findCondition, readConditions } from '../../model/conditions.js';
import type { ObjectRef } from '../../model/refs.js';
import type { EventAction } from './actions.js';

/**
 * The reason of the Warning event a controller records when a reconcile repaired drift: what it manages was
 * changed out of band while the object's spec stayed as it was. The runtime counts these events
 * (keyward_drift_repairs_total), so every controller that reports drift this way is measured alike.
 */
export const DRIFT_REPAIRED = 'DriftRepaired';

/** What convergedOnSpec reads of an object: its generation and the status its controller wrote. */
export interface ConvergedView {
  readonly metadata: { readonly generation?: number | undefined };
  readonly status?: { readonly conditions?: unknown; readonly observedGeneration?: number | undefined } | undefined;
}

/**
 * Whether the object had converged on its current spec: Ready=True, recorded for its current generation. A
 * write planned for such an object is not the spec's doing: something else changed what it manages.
 */
export function convergedOnSpec(object: ConvergedView): boolean {
  const generation = object.metadata.generation;
  const ready = findCondition(readConditions(object.status?.conditions), 'Ready');
  return generation !== undefined && ready?.status === 'True' && object.status?.observedGeneration === generation && (ready.observedGeneration ?? generation) === generation;
}

/** The Warning event recording a repair of drift; `note` names what was repaired (never values). */
export function driftRepairedEvent(regarding: ObjectRef & { readonly uid?: string | undefined }, note: string): EventAction {
  return { kind: 'k8s.event', regarding, type: 'Warning', reason: DRIFT_REPAIRED, note, action: 'Repair' };
}

/** Whether a plan's action is the event that records a repair of drift. */
export function isDriftRepairedEvent(action: { readonly kind: string }): action is EventAction {
  return action.kind === 'k8s.event' && (action as EventAction).reason === DRIFT_REPAIRED;
}
