// One reconcile of a Keycloak object through the kernel's driver, as its controller runs it, with what it
// reads given: for what the driver decides besides the pure reconcile (a generation Keycloak refused is held).
import { runReconcile, type AnyAction, type ControllerDefinition, type KubeObject, type Observed } from '@keyward/kernel';
import type { Queries } from '@keyward/kernel/plan';
import type { ReconcileOutcome } from '@keyward/kernel/interpreter';
import { fixedEntropy } from '@keyward/kernel/testing';

export interface Driven<P, A extends AnyAction> {
  readonly outcome: ReconcileOutcome<P, A>;
  /** How many times it read the current state. */
  readonly reads: number;
  /** The action kinds of every plan it ran, in order (each taken to succeed). */
  readonly steps: readonly string[];
}

export async function driven<P extends KubeObject, Q extends Queries, C, A extends AnyAction>(
  definition: ControllerDefinition<P, Q, C, A>,
  object: KubeObject,
  observed: Observed<Q>,
  options: { readonly config: C; readonly now: Date },
): Promise<Driven<P, A>> {
  let reads = 0;
  const steps: string[] = [];
  const outcome = await runReconcile(definition, object, {
    read: () => {
      reads++;
      return Promise.resolve(observed);
    },
    run: (plan) => {
      steps.push(...plan.steps.map((step) => step.action.kind));
      return Promise.resolve({ ok: true, steps: [], compensations: [] });
    },
    config: options.config,
    now: options.now,
    entropy: fixedEntropy(0),
  });
  return { outcome, reads, steps };
}
