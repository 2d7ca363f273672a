import type { AnyAction, ObjectRef, Plan } from '@keyward/kernel';
import type { PlanResult } from '@keyward/kernel/interpreter';

/** How long a cached object older than the controller's own write to it is waited out, at most. */
export const OWN_WRITE_WAIT_MS = 5_000;
/** How soon a key whose cached object is older than its own write looks again, if no watch event came first. */
export const OWN_WRITE_RECHECK_MS = 250;

/** The actions that change the object they name. */
const OBJECT_WRITES: ReadonlySet<string> = new Set(['k8s.status', 'k8s.addFinalizer', 'k8s.removeFinalizer', 'k8s.patch', 'k8s.apply']);

function names(action: AnyAction, ref: ObjectRef): boolean {
  const target = (action as { readonly ref?: ObjectRef }).ref;
  return target?.type.group === ref.type.group && target.type.plural === ref.type.plural && (target.namespace ?? '') === (ref.namespace ?? '') && target.name === ref.name;
}

/** Whether a plan that ran changed the object at `ref` (its status, finalizers or metadata). */
export function wroteTo(plan: Plan, result: PlanResult, ref: ObjectRef): boolean {
  const written = new Set(result.steps.filter((step) => step.outcome === 'applied').map((step) => step.id));
  return plan.steps.some((step) => written.has(step.id) && OBJECT_WRITES.has(step.action.kind) && names(step.action, ref));
}

/**
 * The resourceVersion each key's object had when a reconcile that wrote to it began. The cache may still hold
 * that copy when the key runs again (the write's watch event not in yet, another wake-up first): a reconcile
 * from it would act on a past the object has left, a status it replaced, and write again what is written. Such
 * a copy is waited out, for OWN_WRITE_WAIT_MS at most (a write that changed nothing brings no event).
 */
export class OwnWrites {
  readonly #from = new Map<string, { readonly resourceVersion: string; readonly at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A reconcile of `key` that began from `resourceVersion` wrote to its object. */
  wrote(key: string, resourceVersion: string | undefined): void {
    if (resourceVersion !== undefined && resourceVersion !== '') this.#from.set(key, { resourceVersion, at: this.#now() });
  }

  /** Whether the cached copy at `resourceVersion` is older than the key's last own write, and still waited out. */
  olderThanOwnWrite(key: string, resourceVersion: string | undefined): boolean {
    const mark = this.#from.get(key);
    if (mark === undefined) return false;
    if (mark.resourceVersion === resourceVersion && this.#now() - mark.at < OWN_WRITE_WAIT_MS) return true;
    this.#from.delete(key);
    return false;
  }

  forget(key: string): void {
    this.#from.delete(key);
  }
}
