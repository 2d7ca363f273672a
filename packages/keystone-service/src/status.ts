import { setConditions, summaryCondition, type ConditionStatus, type DesiredCondition } from '@keyward/kernel/model';
import { type Condition } from '@keyward/kernel';
import { CONDITION_READY, STEP_CONDITIONS, type StepCondition } from './api.js';

/** What one step of the pipeline says about itself. */
export interface StepReport {
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

export type StepReports = Partial<Readonly<Record<StepCondition, StepReport>>>;

export const READY_MESSAGE = 'Keystone is running and bootstrapped';

/**
 * Every condition for one status write: each step's report (a step the pipeline did not reach keeps what it
 * said before, or is Unknown), then Ready as the worst of them (and of a blocker outside the steps), all
 * with the generation they describe.
 */
export function aggregateConditions(current: readonly Condition[] | undefined, reports: StepReports, generation: number, now: Date, blocker?: StepReport): Condition[] {
  const steps: DesiredCondition[] = STEP_CONDITIONS.map((type) => {
    const report = reports[type];
    if (report !== undefined) return { type, ...report, observedGeneration: generation };
    const previous = current?.find((c) => c.type === type);
    if (previous === undefined) return { type, status: 'Unknown', reason: 'Waiting', message: 'waiting for the steps before it', observedGeneration: generation };
    const { lastTransitionTime: _time, ...stated } = previous;
    return { ...stated, observedGeneration: generation };
  });
  // A blocker (an invalid spec, a failed step) comes first, so Ready carries its reason and message.
  const parts = blocker === undefined ? steps : [{ type: CONDITION_READY, ...blocker }, ...steps];
  const ready = summaryCondition(CONDITION_READY, parts, { reason: 'Ready', message: READY_MESSAGE }, generation);
  return setConditions(current, [ready, ...steps], now);
}
