// How the jest integration run runs a fault scenario: its short version as a process of its own (it starts the
// real binary and injects faults), whose last stdout line is the scenario's counted result.
import { expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FaultResult } from './result.js';

function runShort(scenario: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const path = fileURLToPath(new URL(`../scenarios/${scenario}.ts`, import.meta.url));
  return new Promise((resolve) => {
    // The child inherits KEYWARD_ENV_FILE: a scenario that leaves its environment whole runs in the run's.
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keyward/source', path, '--short'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.once('exit', (status) => { resolve({ status, stdout, stderr }); });
  });
}

/** Runs the scenario's short version; a missed target fails with the scenario's figures. */
export async function expectScenarioMeetsEveryTarget(scenario: string): Promise<void> {
  const run = await runShort(scenario);
  const line = run.stdout.trim().split('\n').pop() ?? '';
  expect({ scenario, status: run.status, log: line === '' ? run.stderr.slice(-4_000) : undefined }).toMatchObject({ scenario, log: undefined });
  const output = JSON.parse(line) as FaultResult;
  // Timing targets are reported in the scenario's line, not asserted (see Target.timing).
  expect(output.targets.filter((t) => !t.met && t.timing !== true)).toEqual([]);
  expect(output.passed).toBe(true);
  expect(run.status).toBe(0);
}
