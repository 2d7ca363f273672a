// The operator run as a Deployment runs it: started again whenever it exits, each exit counted as either the
// designed exit on lost leadership (status 1 right after "lost leadership") or a crash.
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnvironmentInfo } from '@keyward/test-env';
import { progress } from './environment.js';
import { startOperator, stopGently, type OperatorProcess } from './operator.js';

export interface Crash {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The process's last log lines, to tell what happened. */
  readonly lastLines: readonly string[];
}

export interface SupervisorCounts {
  /** Times the process was started again after it exited on its own. */
  readonly restarts: number;
  readonly lostLeadershipExits: number;
  readonly crashes: readonly Crash[];
}

/** Log lines kept per process for a crash report. */
const TAIL = 10;
const LOST_LEADERSHIP = 'lost leadership';
/**
 * About how soon the kubelet restarts a container after its first exit. Its CrashLoopBackOff (10 s, 20 s, ...
 * until the container has run 10 minutes) is left out: outages a minute apart are this scenario's doing, not
 * a cluster's, and the second means nothing then. The pause also keeps a process that dies at once from spinning.
 */
const RESTART_AFTER_MS = 1_000;

export class Supervisor {
  readonly #env: EnvironmentInfo;
  readonly #args: readonly string[];
  #current: OperatorProcess | undefined;
  #stopping = false;
  #restarts = 0;
  #lostLeadershipExits = 0;
  readonly #crashes: Crash[] = [];

  constructor(env: EnvironmentInfo, args: readonly string[]) {
    this.#env = env;
    this.#args = args;
  }

  start(): void {
    const operator = startOperator(this.#env, this.#args);
    this.#current = operator;
    const tail: string[] = [];
    let partial = '';
    // The operator logs JSON lines to stderr; a second reader next to the pipe into its log file.
    operator.child.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      tail.push(...lines);
      tail.splice(0, Math.max(0, tail.length - TAIL));
    });
    void operator.exited.then(({ code, signal }) => {
      if (this.#stopping) return;
      if (code === 1 && tail.some(isLostLeadership)) this.#lostLeadershipExits++;
      else this.#crashes.push({ code, signal, lastLines: [...tail, partial].filter((line) => line !== '') });
      this.#restarts++;
      progress(`the operator exited (${signal ?? `status ${String(code)}`}); starting it again`);
      void sleep(RESTART_AFTER_MS).then(() => {
        if (!this.#stopping) this.start();
      });
    });
  }

  /** Stops the running process with SIGTERM, as a rollout does, without starting it again. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#current !== undefined) await stopGently(this.#current);
  }

  counts(): SupervisorCounts {
    return { restarts: this.#restarts, lostLeadershipExits: this.#lostLeadershipExits, crashes: [...this.#crashes] };
  }
}

function isLostLeadership(line: string): boolean {
  try {
    const record: unknown = JSON.parse(line);
    return typeof record === 'object' && record !== null && 'msg' in record && record.msg === LOST_LEADERSHIP;
  } catch {
    return false;
  }
}
