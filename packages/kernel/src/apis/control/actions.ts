/** Asks the runtime to reconcile this object again after a delay (a rotation date, a retry of a wait). */
export interface RequeueAfterAction {
  readonly kind: 'control.requeueAfter';
  readonly afterMs: number;
}

export type ControlAction = RequeueAfterAction;

/** The kind of a requeue, which the runtime reads from plans itself. */
export const REQUEUE_AFTER = 'control.requeueAfter';
