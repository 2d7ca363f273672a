import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { ComponentError } from './errors.js';
import { killOnExit, signalGroup } from './process.js';
import { StartUp } from './start-up.js';

export interface CommandOptions {
  /** Output is appended here as well as kept for the error message. */
  readonly logFile: string;
  /** Added to this process's environment. Secrets go here, never in `args`: the command line is logged. */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Text fed to standard input. */
  readonly input?: string;
}

/**
 * Runs a one-shot command to completion. Judges success by the exit code only: some tools (keystone-manage)
 * print harmless tracebacks on stderr at exit. The command leads a process group of its own, killed as a whole
 * on timeout, when its start-up is abandoned, or when this process exits: mysql_install_db is a script whose
 * mariadbd child would otherwise outlive it and keep writing to the environment folder.
 */
export function runCommand(component: string, command: string, args: readonly string[], options: CommandOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const startUp = StartUp.current();
    if (startUp?.abandoned === true) throw new ComponentError(component, `${command} not run: the start-up was abandoned`);
    const child = spawn(command, args, { env: { ...process.env, ...options.env }, detached: true, stdio: 'pipe' });
    const forget = child.pid === undefined ? [] : [killOnExit(child.pid), startUp?.recordCommand(child.pid) ?? (() => undefined)];
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    // A command that does not read its input closes the pipe early: not an error of ours.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 120_000);

    let settled = false;
    const finish = (why: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const release of forget) release();
      try {
        appendFileSync(options.logFile, `$ ${command} ${args.join(' ')}\n${stdout}${stderr}\n`);
      } catch {
        // The environment folder is gone: its start-up was abandoned and everything removed.
      }
      if (why === undefined) {
        resolve(stdout);
        return;
      }
      const tail = `${stdout}${stderr}`.trimEnd().split('\n').slice(-20).join('\n');
      reject(new ComponentError(component, `${command} ${args[0] ?? ''} ${why}`, tail));
    };
    child.once('error', (error) => { finish(`failed (${error.message})`); });
    child.once('close', (code, signal) => {
      if (timedOut) finish('timed out');
      else if (code === 0) finish(undefined);
      else finish(`failed (${signal === null ? `exit code ${String(code)}` : `signal ${signal}`})`);
    });
  });
}
