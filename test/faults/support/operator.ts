// The keyward binary as its own process, started, killed with SIGKILL and started again by a scenario.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentInfo } from '@keyward/test-env';
import { inRepository } from './environment.js';

export interface OperatorProcess {
  readonly child: ChildProcess;
  /** The file its stdout and stderr go to. */
  readonly logPath: string;
  /** Resolves when the process has exited, however it ended. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
}

let started = 0;

/**
 * `keyward run <args>` against the environment as cluster admin (RBAC is proven elsewhere; faults are the
 * subject here), run from the sources as the tests do. Its log goes to the environment's folder, which the
 * environment's secret scan reads.
 */
export function startOperator(env: EnvironmentInfo, args: readonly string[]): OperatorProcess {
  started++;
  const logPath = join(env.dir, `operator-${String(started)}.log`);
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, [
    '--import', 'tsx', '--conditions=@keyward/source', inRepository('packages/operator/src/main.ts'),
    'run', '--kubeconfig', env.kubeconfig, '--log-format', 'json', ...args,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => { resolve({ code, signal }); });
  });
  return { child, logPath, exited };
}

/** kill -9, and wait until it is gone. */
export async function killHard(operator: OperatorProcess): Promise<void> {
  operator.child.kill('SIGKILL');
  await operator.exited;
}

/** SIGTERM, and wait until it is gone. */
export async function stopGently(operator: OperatorProcess): Promise<void> {
  operator.child.kill('SIGTERM');
  await operator.exited;
}
