// jest-cost: 60 s
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startEnvironment, type EnvironmentInfo } from '../src/environment.js';
import { ComponentError } from '../src/errors.js';
import { waitFor } from '../src/wait.js';

const fixtures = fileURLToPath(new URL('fixtures/', import.meta.url));
/**
 * A safety net, not a bound: a start with Keycloak takes 30 s on an idle machine and over 90 s at a load of 15,
 * when other test files start theirs beside it.
 */
const START_UP_LIMIT_MS = 600_000;

/** Command lines of live processes that mention `text` (an environment folder appears in every component's flags). */
function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (commandLine.includes(text)) found.push(`${pid}: ${commandLine}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function startInChildProcess(args: readonly string[]): Promise<{ info: EnvironmentInfo; child: ReturnType<typeof spawn> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(fixtures, 'run-environment.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) return { info: JSON.parse(line) as EnvironmentInfo, child };
  throw new Error('the environment process ended without reporting its environment');
}

describe('the environment stops everything it started', () => {
  it.each([
    ['SIGINT', ['--keystone', '--keycloak']],
    ['SIGTERM', []],
  ] as const)('when its owner gets %s', async (signal, args) => {
    const { info, child } = await startInChildProcess(args);
    expect(processesMentioning(info.dir).length).toBeGreaterThanOrEqual(info.components.length);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { resolve(code); }));
    child.kill(signal);
    expect(await exited).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(processesMentioning(info.dir)).toEqual([]);
  }, START_UP_LIMIT_MS);

  it('when start-up fails halfway, and says which part failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyward-env-failing-'));
    const start = startEnvironment({ dir, ownership: 'session', keystone: false, crdFolders: [join(fixtures, 'broken-crds')], log: () => undefined });
    const error = await start.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ComponentError);
    expect((error as ComponentError).component).toBe('CRDs');
    expect((error as ComponentError).message).toContain('wrong-name.smoke.keyward.dev');
    const leftovers = await waitFor(async () => Promise.resolve(processesMentioning(dir).length === 0 ? [] : undefined), {
      what: 'no process of the failed environment to remain',
      timeoutMs: 15_000,
    });
    expect(leftovers).toEqual([]);
  }, 120_000);
});
