// What every fault scenario prints: its figures and, for each target, whether it was met.

export interface Target {
  /** What is measured, in words ("orphaned credentials"). */
  readonly name: string;
  /** The target as people read it ("0", "<= 4 per CR"). */
  readonly target: string;
  readonly actual: number | string;
  readonly met: boolean;
  /**
   * A bound on elapsed time: reported, but it neither fails the scenario nor the build, since on a shared
   * machine it measures the load as much as Keyward. Counts and outcomes are what a scenario passes on.
   */
  readonly timing?: true;
}

export interface FaultResult {
  readonly scenario: string;
  /** The bounded version CI runs, or the full one. */
  readonly mode: 'short' | 'full';
  readonly durationS: number;
  readonly figures: Readonly<Record<string, unknown>>;
  readonly targets: readonly Target[];
  /** Every target met, timing targets aside. */
  readonly passed: boolean;
}

/** A target on a count: met when `actual` is at most `max`. */
export function atMost(name: string, actual: number, max: number): Target {
  return { name, target: `<= ${String(max)}`, actual, met: actual <= max };
}

/** A target on elapsed seconds: at most `max`, reported and never failing the scenario (see Target.timing). */
export function withinSeconds(name: string, actualS: number, maxS: number): Target {
  return { ...atMost(name, actualS, maxS), timing: true };
}

/** A target on a count that must be exactly `expected`. */
export function exactly(name: string, actual: number, expected: number): Target {
  return { name, target: String(expected), actual, met: actual === expected };
}

/** Prints `output` as the scenario's one line of stdout; the process fails when a target was missed. */
export function report(output: FaultResult): void {
  process.stdout.write(`${JSON.stringify(output)}\n`);
  process.exitCode = output.passed ? 0 : 1;
}

export function result(scenario: string, mode: FaultResult['mode'], startedMs: number, figures: Record<string, unknown>, targets: readonly Target[]): FaultResult {
  return { scenario, mode, durationS: Math.round((performance.now() - startedMs) / 100) / 10, figures, targets, passed: targets.every((t) => t.met || t.timing === true) };
}
