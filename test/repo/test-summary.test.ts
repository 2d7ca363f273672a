import { describe, expect, it } from '@jest/globals';
import { BUDGET_SECONDS, FILE_SHARE_WARNING, countLine, parsePhases, summary, type JestReport } from '../../scripts/test-summary.js';

const root = '/repo';
const limitSeconds = FILE_SHARE_WARNING * BUDGET_SECONDS.warm;

function report(files: Record<string, number>, counts: Partial<JestReport> = {}): JestReport {
  return {
    numPassedTests: 10,
    numFailedTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    numRuntimeErrorTestSuites: 0,
    testResults: Object.entries(files).map(([file, seconds]) => ({ name: `${root}/${file}`, startTime: 1_000, endTime: 1_000 + seconds * 1000 })),
    ...counts,
  };
}

describe('the test summary', () => {
  it('lists the phases with their total, then the slowest files, slowest first, and ends with the count line', () => {
    const phases = parsePhases('setup\t30\ntypecheck and lint\t95\ntests\t900\n');
    const lines = summary(phases, report({ 'a.test.ts': 2, 'b.int.test.ts': 40, 'c.int.test.ts': 7 }), root, 2);
    expect(lines).toEqual([
      '== summary',
      'phases (s):',
      '   30  setup',
      '   95  typecheck and lint',
      '  900  tests',
      ` 1025  total (budget: ${String(BUDGET_SECONDS.warm)} warm, ${String(BUDGET_SECONDS.cold)} cold)`,
      'slowest of 3 test files (s):',
      '   40  b.int.test.ts',
      '    7  c.int.test.ts',
      '10 passed, 0 failed',
    ]);
  });

  it('names every file over its share of the budget in a warning, and only those', () => {
    const lines = summary([], report({ 'heavy.int.test.ts': limitSeconds + 1, 'fine.int.test.ts': limitSeconds - 1 }), root);
    const warnings = lines.filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('heavy.int.test.ts');
  });

  it('marks the phases that failed, and only those', () => {
    const phases = parsePhases('setup\t30\tok\ntypecheck, lint and API reports\t60\tfailed\ntests\t900\tok\n');
    expect(summary(phases, undefined, root).slice(2, 5)).toEqual(['   30  setup', '   60  typecheck, lint and API reports (failed)', '  900  tests']);
  });

  it('counts files that crashed before running as failures, and shows skipped tests', () => {
    expect(countLine(report({}, { numFailedTests: 1, numRuntimeErrorTestSuites: 2, numPendingTests: 1, numTodoTests: 1 }))).toBe('10 passed, 3 failed, 2 skipped');
  });

  it('reports a failure when jest left no report', () => {
    expect(summary([{ name: 'setup', seconds: 3 }], undefined, root).at(-1)).toBe('0 passed, 1 failed');
  });
});
