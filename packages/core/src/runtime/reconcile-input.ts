import type { ReconcileInput } from '../plan/controller.js';
import type { Queries } from '../plan/queries.js';

/**
 * A reconcile's input whose `entropy` is drawn on first read and then stays the same: most reconciles never
 * read it, and drawing 32 random bytes for each of thousands of reconciles is measurable.
 */
export function reconcileInput<P, Q extends Queries, C>(fields: Omit<ReconcileInput<P, Q, C>, 'entropy'>, draw: () => Uint8Array): ReconcileInput<P, Q, C> {
  let drawn: Uint8Array | undefined;
  return {
    ...fields,
    get entropy(): Uint8Array {
      drawn ??= draw();
      return drawn;
    },
  };
}
