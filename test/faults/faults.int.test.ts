// jest-cost: 115 s
// CI runs the short version of every fault scenario that leaves its environment whole, one after another in
// the run's shared environment: each starts the real binary, injects its faults and reports counted results.
import { describe, it } from '@jest/globals';
import { OWN_ENVIRONMENT_SCENARIOS, SCENARIOS } from './scenarios.js';
import { expectScenarioMeetsEveryTarget } from './support/short-run.js';

describe('fault scenarios in the shared environment (short runs)', () => {
  it.each(SCENARIOS.filter((s) => !OWN_ENVIRONMENT_SCENARIOS.includes(s)))('%s meets every target', expectScenarioMeetsEveryTarget, 900_000);
});
