// How a scenario is run: `--short` is the bounded version CI runs; the default is the full run docs/faults.md reports.

export interface ScenarioOptions {
  readonly mode: 'short' | 'full';
  /** Seed for every random choice (kill moments, generated objects), printed so a run can be repeated. */
  readonly seed: number;
}

export function scenarioOptions(argv: readonly string[] = process.argv.slice(2)): ScenarioOptions {
  const seedArgument = argv.find((a) => a.startsWith('--seed='));
  const seed = seedArgument === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(seedArgument.slice('--seed='.length));
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${String(seedArgument)}`);
  return { mode: argv.includes('--short') ? 'short' : 'full', seed };
}

/** A small seeded generator (mulberry32): the same seed gives the same kill moments and objects. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
