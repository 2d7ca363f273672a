// The read-back of a plan within its reconcile (ControllerDefinition.readsBack): the plan runs without its
// status write, the reconcile that reads back states the status, and one status write says where it stands.
import type { KubeObject, StatusAction } from '../apis/kubernetes/actions.js';
import type { ResourceType } from '../model/refs.js';
import type { AnyAction } from '../plan/actions.js';
import type { Plan, Step } from '../plan/plan.js';
import { isFullyKnown, resolveTemplate } from '../plan/values.js';

type StatusStep<A extends AnyAction> = Step<A> & { readonly action: StatusAction };

/** A plan to read back: the steps that run first, and the status write left to the read-back. */
export interface Deferred<A extends AnyAction> {
  readonly first: Plan<A>;
  readonly status: StatusStep<A>;
}

function isStatusOf(type: ResourceType, object: KubeObject) {
  return <A extends AnyAction>(step: Step<A>): step is StatusStep<A> => {
    const { action } = step as Step;
    if (action.kind !== 'k8s.status') return false;
    const { ref } = action as StatusAction;
    return ref.type.group === type.group && ref.type.plural === type.plural && ref.namespace === object.metadata.namespace && ref.name === object.metadata.name;
  };
}

/** The plan without the primary's status write, when it has exactly one and it is known before the plan runs. */
export function deferStatus<A extends AnyAction>(plan: Plan<A>, type: ResourceType, object: KubeObject): Deferred<A> | undefined {
  const writes = plan.steps.filter(isStatusOf(type, object));
  const status = writes[0];
  if (writes.length !== 1 || status === undefined || !isFullyKnown(status.action.status)) return undefined;
  return { first: { steps: plan.steps.filter((step) => step !== status) }, status };
}

/** The object as the first plan leaves it: with the status it states, not yet written. */
export function withDeferredStatus<A extends AnyAction>(object: KubeObject, deferred: Deferred<A>): KubeObject {
  return { ...object, status: resolveTemplate(deferred.status.action.status, () => undefined) };
}

/**
 * The read-back's plan as it runs: its status write patches the status stored (the one the first plan saw),
 * not the deferred one it was planned from; when it states none, the deferred write is made at its end.
 */
export function readBackPlan<A extends AnyAction>(plan: Plan<A>, type: ResourceType, object: KubeObject, deferred: Deferred<A>): Plan<A> {
  const isStatus = isStatusOf(type, object);
  const stored = deferred.status.action.observed;
  const steps = plan.steps.map((step) => (isStatus(step) ? { ...step, action: { ...step.action, observed: stored } } : step));
  if (steps.some(isStatus)) return { steps };
  return { steps: [...steps, { ...deferred.status, id: `s${String(steps.length + 1)}` }] };
}
