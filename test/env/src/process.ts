import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, fstatSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ComponentError } from './errors.js';
import { StartUp } from './start-up.js';

export interface ProcessSpec {
  /** Name used in messages and log file names ("etcd", "kube-apiserver"). */
  readonly component: string;
  readonly command: string;
  readonly args: readonly string[];
  /** stdout and stderr are appended here. */
  readonly logFile: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** Whether a started process is stopped when this Node process exits ("session") or outlives it ("daemon"). */
export type Ownership = 'session' | 'daemon';

const sessionProcessGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Last resort: whatever happens to this process, the process group led by `pid` does not outlive it (SIGKILL on
 * exit) until the returned function is called. Signals do not run exit hooks: see shutdown.ts for those.
 */
export function killOnExit(pid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of sessionProcessGroups) signalGroup(group, 'SIGKILL');
    });
  }
  sessionProcessGroups.add(pid);
  return () => sessionProcessGroups.delete(pid);
}

/** Sends `signal` to the process group led by `pid`; false if there is none. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The last `lines` lines of a log file (reads at most the last 64 KiB). */
export function logTail(file: string, lines = 25): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Peak resident memory of a live process in MiB (VmHWM), or undefined once it is gone. */
export function peakRssMiB(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * Sends SIGTERM to a process group, waits up to `graceMs` for its leader to go, then SIGKILLs the group.
 * Works for processes this Node process did not start (a daemon environment being stopped).
 */
export async function stopProcessGroup(pid: number, graceMs = 10_000): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  signalGroup(pid, 'SIGKILL');
  sessionProcessGroups.delete(pid);
}

/** A child process in its own process group, with its output in a log file. */
export class ManagedProcess {
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<void>;

  private constructor(
    readonly spec: ProcessSpec,
    readonly pid: number,
    child: ReturnType<typeof spawn>,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        sessionProcessGroups.delete(pid);
        resolve();
      });
    });
  }

  /** Inside an environment's start-up (see StartUp), the process is recorded there as soon as it is spawned. */
  static start(spec: ProcessSpec, ownership: Ownership): ManagedProcess {
    const startUp = StartUp.current();
    if (startUp?.abandoned === true) throw new ComponentError(spec.component, 'not started: the start-up was abandoned');
    const log = openSync(spec.logFile, 'a');
    try {
      const child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: { ...process.env, ...spec.env },
        stdio: ['ignore', log, log],
        detached: true,
      });
      if (child.pid === undefined) {
        // The reason (ENOENT, EACCES) comes as an 'error' event, which must not go unheard.
        child.once('error', () => undefined);
        throw new ComponentError(spec.component, `could not start ${spec.command}`, logTail(spec.logFile));
      }
      if (ownership === 'session') killOnExit(child.pid);
      else child.unref();
      const started = new ManagedProcess(spec, child.pid, child);
      startUp?.processes.push(started);
      return started;
    } finally {
      closeSync(log);
    }
  }

  get running(): boolean {
    return this.#exit === undefined;
  }

  /** Throws a ComponentError with the log tail if the process has exited. */
  assertRunning(): void {
    const exit = this.#exit;
    if (exit === undefined) return;
    const how = exit.signal === null ? `exit code ${String(exit.code)}` : `signal ${exit.signal}`;
    throw new ComponentError(this.spec.component, `exited unexpectedly (${how})`, this.logTail());
  }

  logTail(lines = 25): string {
    return logTail(this.spec.logFile, lines);
  }

  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    await stopProcessGroup(this.pid, graceMs);
    await this.exited;
  }
}
