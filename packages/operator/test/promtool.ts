// Runs the pinned promtool for the tests of the chart's alerts (`promtool test rules`).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promtoolBinary } from '@keyward/test-env';
import type { HelmOutcome } from './helm-chart.js';

/** The pinned promtool binary; throws with the command that builds it when it is missing. */
export function promtool(): string {
  const binary = promtoolBinary();
  if (!existsSync(binary)) {
    throw new Error(`the pinned promtool is not built (expected at ${binary}): run scripts/setup, or tools/build.sh promtool`);
  }
  return binary;
}

export function runPromtool(args: readonly string[], cwd?: string): HelmOutcome {
  const result = spawnSync(promtool(), [...args], { encoding: 'utf8', ...(cwd === undefined ? {} : { cwd }) });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `promtool test rules` of `testFile`, whose `rule_files` names rules.yaml, with `groups` (a PrometheusRule's
 * spec.groups) as that rules.yaml.
 */
export function promtoolTestRules(groups: unknown, testFile: string): HelmOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-promtool-'));
  try {
    // JSON is YAML: promtool reads the rule groups exactly as rendered.
    writeFileSync(join(dir, 'rules.yaml'), JSON.stringify({ groups }));
    copyFileSync(testFile, join(dir, basename(testFile)));
    return runPromtool(['test', 'rules', basename(testFile)], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
