import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { ComponentError } from './errors.js';

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
 * print harmless tracebacks on stderr at exit.
 */
export function runCommand(component: string, command: string, args: readonly string[], options: CommandOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        appendFileSync(options.logFile, `$ ${command} ${args.join(' ')}\n${stdout}${stderr}\n`);
        if (error === null) {
          resolve(stdout);
          return;
        }
        const tail = `${stdout}${stderr}`.trimEnd().split('\n').slice(-20).join('\n');
        const why = error.killed ? 'timed out' : `failed (${error.message.split('\n')[0] ?? ''})`;
        reject(new ComponentError(component, `${command} ${args[0] ?? ''} ${why}`, tail));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
