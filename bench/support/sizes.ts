// How many objects a benchmark runs with: its defaults, or what its command line asks for (`--crs 2000`,
// `--crs=2000`), so the same code measures the everyday size and ten times it.
import { parseArgs } from 'node:util';

/**
 * `defaults` with the values the command line gives for their names, each a positive whole number. Options
 * a benchmark does not take are left to the others (`pnpm bench appcred --crs 2000` runs two benchmarks
 * that both take `--crs`); a value that is not a positive whole number stops the benchmark.
 */
export function sizes<K extends string>(defaults: Readonly<Record<K, number>>, argv: readonly string[] = process.argv.slice(2)): Readonly<Record<K, number>> {
  const names = Object.keys(defaults) as K[];
  const { values } = parseArgs({ args: [...argv], options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])), strict: false, allowPositionals: true });
  const chosen: Record<K, number> = { ...defaults };
  for (const name of names) {
    const given = values[name];
    if (given === undefined) continue;
    const value = Number(given);
    if (typeof given !== 'string' || !Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number, not ${String(given)}`);
    chosen[name] = value;
  }
  return chosen;
}
