// The closing summary of scripts/test: how long each phase took, the slowest test files, a warning for any
// file that costs more than its share of the budget, and the "N passed, N failed" line CI reads last.
// Usage: node --import tsx scripts/test-summary.ts PHASES_TSV JEST_JSON
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The suite's budget on a 2-core machine: scripts/test on a clean clone, cold and warm caches. */
export const BUDGET_SECONDS = { cold: 50 * 60, warm: 25 * 60 } as const;

/** A test file that alone takes more than this share of the warm budget is named in a warning. */
export const FILE_SHARE_WARNING = 0.08;

export interface Phase {
  readonly name: string;
  readonly seconds: number;
  /** A phase whose command failed; the summary marks it. */
  readonly failed?: boolean;
}

/** The parts of jest's --json output the summary reads. */
export interface JestReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
  /** Files that crashed before running a test. */
  readonly numRuntimeErrorTestSuites: number;
  readonly testResults: readonly { readonly name: string; readonly startTime: number; readonly endTime: number }[];
}

export interface FileTime {
  readonly file: string;
  readonly seconds: number;
}

const format = (seconds: number): string => seconds.toFixed(0).padStart(5);

/** Phases as scripts/test records them: one "name<TAB>seconds<TAB>ok|failed" line each. */
export function parsePhases(text: string): Phase[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name = '', seconds = '', outcome = 'ok'] = line.split('\t');
      return { name, seconds: Number(seconds), failed: outcome === 'failed' };
    });
}

/** Every test file's wall time, slowest first, with paths relative to `root`. */
export function fileTimes(report: JestReport, root: string): FileTime[] {
  return report.testResults
    .map((result) => ({ file: relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** The line CI reads: files that crashed before running count as failures, skipped tests are shown. */
export function countLine(report: JestReport | undefined): string {
  if (report === undefined) return '0 passed, 1 failed';
  const failed = report.numFailedTests + report.numRuntimeErrorTestSuites;
  const skipped = report.numPendingTests + report.numTodoTests;
  return `${String(report.numPassedTests)} passed, ${String(failed)} failed${skipped > 0 ? `, ${String(skipped)} skipped` : ''}`;
}

/** The summary's lines, the count line last. */
export function summary(phases: readonly Phase[], report: JestReport | undefined, root: string, slowest = 10): string[] {
  const total = phases.reduce((sum, phase) => sum + phase.seconds, 0);
  const lines = ['== summary', 'phases (s):'];
  for (const phase of phases) lines.push(`${format(phase.seconds)}  ${phase.name}${phase.failed === true ? ' (failed)' : ''}`);
  lines.push(`${format(total)}  total (budget: ${String(BUDGET_SECONDS.warm)} warm, ${String(BUDGET_SECONDS.cold)} cold)`);
  if (report !== undefined) {
    const files = fileTimes(report, root);
    lines.push(`slowest of ${String(files.length)} test files (s):`);
    for (const { file, seconds } of files.slice(0, slowest)) lines.push(`${format(seconds)}  ${file}`);
    const limit = FILE_SHARE_WARNING * BUDGET_SECONDS.warm;
    for (const { file, seconds } of files.filter((f) => f.seconds > limit)) {
      lines.push(`warning: ${file} took ${seconds.toFixed(0)} s, over ${String(FILE_SHARE_WARNING * 100)}% of the ${String(BUDGET_SECONDS.warm / 60)}-minute budget (${limit.toFixed(0)} s)`);
    }
  }
  lines.push(countLine(report));
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [phasesFile = '', jestFile = ''] = process.argv.slice(2);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const phases = existsSync(phasesFile) ? parsePhases(readFileSync(phasesFile, 'utf8')) : [];
  const report = existsSync(jestFile) ? (JSON.parse(readFileSync(jestFile, 'utf8')) as JestReport) : undefined;
  process.stdout.write(`${summary(phases, report, root).join('\n')}\n`);
}
