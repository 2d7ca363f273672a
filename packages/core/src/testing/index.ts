export { FakeClock, fixedEntropy } from './clock.js';
export { actionKinds, actionsOf, isQuiet } from './matchers.js';
export { InMemoryWorld } from './world.js';
export { interpret, dryRun } from '../interpreter/interpret.js';
export type { PlanResult, StepResult } from '../interpreter/types.js';
