// The keyward binary as its own process, for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { testLogFile } from '@keyward/test-env';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface OperatorProcess {
  readonly child: ChildProcess;
  /** Everything it has printed so far, stdout and stderr interleaved. */
  output(): string;
}

export interface Command {
  readonly command: string;
  readonly args: readonly string[];
}

/** `keyward <args>` from the TypeScript sources, through tsx. */
export function fromSources(args: readonly string[]): Command {
  return { command: process.execPath, args: ['--import', 'tsx', '--conditions=@keyward/source', main, ...args] };
}

/**
 * Starts `keyward <args>`, from the TypeScript sources unless `how` says otherwise (the image's bundle:
 * image-entrypoint.ts). Its output goes to a test log file, which the end-of-run secret scan reads.
 */
export function startKeyward(args: readonly string[], logName: string, how: (args: readonly string[]) => Command = fromSources): OperatorProcess {
  const { command, args: commandArgs } = how(args);
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  const file = testLogFile(logName);
  const chunks: string[] = [];
  const collect = (chunk: Buffer): void => {
    chunks.push(chunk.toString('utf8'));
    appendFileSync(file, chunk);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return { child, output: () => chunks.join('') };
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => { resolve({ code, signal }); });
  });
}

/** SIGTERM, then waits for the exit. */
export async function stopKeyward(operator: OperatorProcess): Promise<void> {
  operator.child.kill('SIGTERM');
  await exited(operator.child);
}
