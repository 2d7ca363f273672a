import type { ObjectRef } from '../../model/refs.js';
import type { PlanSteps } from '../../plan/plan.js';
import type { AddFinalizerAction, KubeObject, RemoveFinalizerAction } from './actions.js';

/** The finalizer a controller keeps on its objects while deleting one leaves something to clean up. */
export interface Finalizer {
  /** The object that carries it. */
  readonly ref: ObjectRef;
  readonly name: string;
  /** Why it is added: what it keeps the object for. */
  readonly purpose: string;
  /**
   * Add it from the finalizers the plan saw, guarded by the object's resourceVersion: no read unless the view
   * was stale (a 409, then a fresh read).
   */
  readonly guarded?: boolean;
  /**
   * Annotations recorded in the same patch as the finalizer, only when the finalizer is added: what the object
   * must name before anything the finalizer guards exists (where a later reconcile finds it).
   */
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * A deleted object's cleanup: it adds its steps and says why the finalizer may then go, or undefined to keep it
 * (the cleanup cannot proceed yet, and reports why).
 */
export type Cleanup = () => string | undefined;

type FinalizerSteps = PlanSteps<AddFinalizerAction | RemoveFinalizerAction>;

function holds(object: KubeObject, finalizer: Finalizer): boolean {
  return object.metadata.finalizers?.includes(finalizer.name) === true;
}

/**
 * The deletion half of withFinalizer: when the object holds the finalizer, the cleanup's steps, then the
 * finalizer's removal unless the cleanup keeps it. A failed step stops the plan, so the finalizer stays and the
 * cleanup is retried. Nothing when the finalizer is gone already.
 */
export function cleanUp(plan: FinalizerSteps, object: KubeObject, finalizer: Finalizer, cleanup: Cleanup): void {
  if (!holds(object, finalizer)) return;
  const released = cleanup();
  // After the cleanup's steps: a plan stops at its first failure, so this runs only once they all succeeded.
  if (released !== undefined) plan.add({ kind: 'k8s.removeFinalizer', ref: finalizer.ref, finalizer: finalizer.name }, released);
}

/**
 * The finalizers to write for an object that lacks `finalizer`: those it holds, then `finalizer`; undefined when
 * it holds it already. For a reconcile that adds the finalizer in a metadata patch it makes anyway (see
 * withFinalizer's `addsFinalizer`): the patch must carry the object's resourceVersion as a precondition, so that
 * it cannot drop a finalizer written since.
 */
export function finalizersAdding(object: KubeObject, finalizer: Finalizer): readonly string[] | undefined {
  return holds(object, finalizer) ? undefined : [...(object.metadata.finalizers ?? []), finalizer.name];
}

/**
 * Runs a reconcile behind a finalizer, as kube-rs's `finalizer()` does: an object being deleted is cleaned up
 * (see cleanUp); one without the finalizer gets it, alone (the change wakes the next reconcile, which works
 * from the object that holds it), unless `addsFinalizer` says that `apply` adds it in its own first write (see
 * finalizersAdding), before anything the finalizer must guard; one that holds it is reconciled by `apply`.
 */
export function withFinalizer(
  plan: FinalizerSteps,
  object: KubeObject,
  finalizer: Finalizer,
  steps: { readonly apply: () => void; readonly cleanup: Cleanup; readonly addsFinalizer?: () => boolean },
): void {
  if (object.metadata.deletionTimestamp !== undefined) {
    cleanUp(plan, object, finalizer, steps.cleanup);
    return;
  }
  if (!holds(object, finalizer) && steps.addsFinalizer?.() !== true) {
    const { resourceVersion } = object.metadata;
    const observed = finalizer.guarded === true && resourceVersion !== undefined ? { observed: { resourceVersion, finalizers: object.metadata.finalizers ?? [] } } : {};
    const annotations = finalizer.annotations === undefined ? {} : { annotations: finalizer.annotations };
    plan.add({ kind: 'k8s.addFinalizer', ref: finalizer.ref, finalizer: finalizer.name, ...observed, ...annotations }, finalizer.purpose);
    return;
  }
  steps.apply();
}
