// CI runs the short version of every fault scenario: each starts its own environment and the real binary,
// injects its faults and reports counted results; a missed target fails here with the scenario's figures.
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FaultResult } from './support/result.js';
import { SCENARIOS } from './scenarios.js';

function runShort(scenario: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const path = fileURLToPath(new URL(`scenarios/${scenario}.ts`, import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keyward/source', path, '--short'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.once('exit', (status) => { resolve({ status, stdout, stderr }); });
  });
}

describe('fault scenarios (short runs)', () => {
  it.each(SCENARIOS)('%s meets every target', async (scenario) => {
    const run = await runShort(scenario);
    const line = run.stdout.trim().split('\n').pop() ?? '';
    expect({ scenario, status: run.status, log: line === '' ? run.stderr.slice(-4_000) : undefined }).toMatchObject({ scenario, log: undefined });
    const output = JSON.parse(line) as FaultResult;
    expect(output.targets.filter((t) => !t.met)).toEqual([]);
    expect(output.passed).toBe(true);
    expect(run.status).toBe(0);
  }, 900_000);
});
