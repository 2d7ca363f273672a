import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Runs a host command to completion, synchronously: the tier's clean-up must also work from an exit handler, where
 * nothing asynchronous runs. Returns its output; throws with its error output when it fails.
 */
export function host(command: string, args: readonly string[], input?: string): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe', timeout: 30_000, ...(input === undefined ? {} : { input }) });
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : String(error);
    throw new Error(`${command} ${args.join(' ')}: ${detail}`, { cause: error });
  }
}

/** A live process's command line, arguments separated by spaces; undefined once it has ended. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** Pids of live processes whose command line mentions `text` (every process of an environment names its folder). */
export function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map(Number)
    .filter((pid) => commandLine(pid)?.includes(text) === true);
}

/** Blocks this thread for `ms` (for the few short waits of a synchronous clean-up). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
