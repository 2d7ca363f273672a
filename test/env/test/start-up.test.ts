// A start-up records what it spawns at once and, once abandoned, kills its one-shot commands with everything
// they started and refuses to spawn or wait any more.
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../src/command.js';
import { ManagedProcess } from '../src/process.js';
import { StartUp } from '../src/start-up.js';
import { waitFor } from '../src/wait.js';
import { running } from './support/running.js';

let dir: string;

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'start-up-test-'));
  return dir;
}

describe('a start-up', () => {
  it('records a process the moment it is spawned, before it is ready, and killAll ends it', async () => {
    const logFile = join(freshDir(), 'probe.log');
    const startUp = new StartUp();
    const spawned = await startUp.run(() => Promise.resolve(ManagedProcess.start({ component: 'probe', command: 'sleep', args: ['1000'], logFile }, 'daemon')));
    expect(startUp.processes).toEqual([spawned]);

    startUp.killAll();
    await spawned.exited;
    expect(() => { spawned.assertRunning(); }).toThrow('probe: exited unexpectedly (signal SIGKILL)');
  });

  it('once abandoned, kills a one-shot command with what it started, and spawns and waits no more', async () => {
    const logFile = join(freshDir(), 'probe.log');
    const pidFile = join(dir, 'grandchild.pid');
    const startUp = new StartUp();
    const command = startUp.run(() => runCommand('probe', 'sh', ['-c', `sleep 1000 & echo $! > ${pidFile}; wait`], { logFile }));
    const grandchild = await waitFor(() => Promise.resolve(Number(readFileSync(pidFile, 'utf8')) || undefined), { what: 'the grandchild', timeoutMs: 30_000 });

    startUp.abandon();
    await expect(command).rejects.toThrow('probe: sh -c failed (signal SIGKILL)');
    expect(await waitFor(() => Promise.resolve(running(grandchild) ? undefined : true), { what: 'the grandchild to end', timeoutMs: 10_000 })).toBe(true);

    await expect(startUp.run(() => runCommand('probe', 'true', [], { logFile }))).rejects.toThrow('probe: true not run: the start-up was abandoned');
    expect(() => startUp.run(() => Promise.resolve(ManagedProcess.start({ component: 'probe', command: 'sleep', args: ['1000'], logFile }, 'session'))))
      .toThrow('probe: not started: the start-up was abandoned');
    await expect(startUp.run(() => waitFor(() => Promise.resolve(true), { what: 'anything', timeoutMs: 1_000 })))
      .rejects.toThrow('the start-up was abandoned while waiting for anything');
    expect(startUp.processes).toEqual([]);
  });
});
