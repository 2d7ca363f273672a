// jest-cost: 150 s
// CI runs the short version of every fault scenario that stops a component of its environment (the API
// server): each starts an environment of its own, so it has a file of its own and runs beside the others.
import { describe, it } from '@jest/globals';
import { OWN_ENVIRONMENT_SCENARIOS } from './scenarios.js';
import { expectScenarioMeetsEveryTarget } from './support/short-run.js';

describe('fault scenarios with an environment of their own (short runs)', () => {
  it.each(OWN_ENVIRONMENT_SCENARIOS)('%s meets every target', expectScenarioMeetsEveryTarget, 900_000);
});
