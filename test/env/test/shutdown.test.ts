// The process-wide shutdown: a second signal does at once what the first does in order, an exit runs what is
// still registered, and with nothing registered signals have their default effect.
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../src/wait.js';
import { running } from './support/running.js';

const probe = fileURLToPath(new URL('fixtures/shutdown-probe.ts', import.meta.url));
const folders: string[] = [];
const probes: number[] = [];

afterEach(() => {
  for (const pid of probes.splice(0)) if (running(pid)) process.kill(pid, 'SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

interface Probe {
  readonly pid: number;
  /** What the probe owns: a child process group and a folder. */
  readonly owned: { readonly child: number; readonly folder: string };
  nextLine(): Promise<string | undefined>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startProbe(mode: 'hang' | 'exit' | 'release'): Promise<Probe> {
  const child = spawn(process.execPath, ['--import', 'tsx', probe, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  probes.push(child.pid ?? 0);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => { resolve({ code, signal }); });
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string | undefined> => (await lines.next()).value as string | undefined;
  const owned = JSON.parse((await nextLine()) ?? '{}') as Probe['owned'];
  folders.push(owned.folder);
  return { pid: child.pid ?? 0, owned, nextLine, exited };
}

async function gone(pid: number): Promise<boolean> {
  // A SIGKILLed process is gone a moment after the signal.
  return waitFor(() => Promise.resolve(running(pid) ? undefined : true), { what: `process ${String(pid)} to end`, timeoutMs: 10_000 });
}

describe('shutdown', () => {
  it('kills and removes at once on a second signal while the graceful cleanup still runs', async () => {
    const probe = await startProbe('hang');
    process.kill(probe.pid, 'SIGTERM');
    expect(await probe.nextLine()).toBe('stopping');
    expect(running(probe.owned.child)).toBe(true);

    process.kill(probe.pid, 'SIGTERM');
    expect(await probe.exited).toEqual({ code: 143, signal: null });
    expect(await gone(probe.owned.child)).toBe(true);
    expect(existsSync(probe.owned.folder)).toBe(false);
  });

  it('runs the immediate cleanup of what is still registered when the process exits', async () => {
    const probe = await startProbe('exit');
    expect(await probe.exited).toEqual({ code: 3, signal: null });
    expect(await gone(probe.owned.child)).toBe(true);
    expect(existsSync(probe.owned.folder)).toBe(false);
  });

  it('leaves signals their default effect once nothing is registered', async () => {
    const probe = await startProbe('release');
    process.kill(probe.pid, 'SIGINT');
    expect(await probe.exited).toEqual({ code: null, signal: 'SIGINT' });
  });
});
