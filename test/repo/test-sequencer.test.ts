// The order in which jest hands out test files (test/env/jest-sequencer.cjs), and the comment lines it reads.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Facts {
  readonly failed: boolean;
  readonly ms: number;
  readonly size: number;
  readonly exclusive: string | undefined;
}
interface Sequencer {
  spread(queue: readonly string[], facts: ReadonlyMap<string, Facts>): string[];
}
const LongestFirst = createRequire(import.meta.url)('../env/jest-sequencer.cjs') as new (options: { globalConfig: { maxWorkers: number } }) => Sequencer;

const file = (ms: number, exclusive?: string): Facts => ({ failed: false, ms, size: 0, exclusive });

describe('the test sequencer', () => {
  it('hands out no file while another that needs the same resource is expected to run, and keeps the rest longest first', () => {
    const facts = new Map([
      ['pods', file(260_000, 'workload tier')],
      ['tier', file(175_000, 'workload tier')],
      ['faults', file(150_000)],
      ['realm', file(120_000)],
      ['unit', file(100)],
    ]);
    const twoWorkers = new LongestFirst({ globalConfig: { maxWorkers: 2 } });
    // Two workers: pods and faults start; faults ends first (150 s) with pods still running (260 s), so realm
    // goes next; it ends at 270 s, after pods, and the tier's own file starts then.
    expect(twoWorkers.spread(['pods', 'tier', 'faults', 'realm', 'unit'], facts)).toEqual(['pods', 'faults', 'realm', 'tier', 'unit']);
    const threeWorkers = new LongestFirst({ globalConfig: { maxWorkers: 3 } });
    expect(threeWorkers.spread(['pods', 'tier', 'faults', 'realm', 'unit'], facts)).toEqual(['pods', 'faults', 'realm', 'unit', 'tier']);
  });

  it('keeps the order of files that need nothing exclusive', () => {
    const facts = new Map([['a', file(3)], ['b', file(2)], ['c', file(1)]]);
    expect(new LongestFirst({ globalConfig: { maxWorkers: 2 } }).spread(['a', 'b', 'c'], facts)).toEqual(['a', 'b', 'c']);
  });

  it('is told by every test file that holds a machine-wide resource which one it holds', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.test.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) => f !== '');
    const holders = files.filter((f) => /holdForThisFile\(|workloadEnvironment\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(holders.length).toBeGreaterThan(0);
    expect(holders.filter((f) => !/^\/\/ jest-exclusive: .+$/m.test(readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
});
