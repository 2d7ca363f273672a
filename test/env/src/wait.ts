import { setTimeout as sleep } from 'node:timers/promises';
import { StartUp } from './start-up.js';

export interface WaitOptions {
  /** What we are waiting for, for the timeout message ("kube-apiserver /readyz"). */
  readonly what: string;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Called before each probe; throws to abort early (for example because the process died). */
  readonly abortIf?: () => void;
}

/**
 * Polls `probe` until it returns a value other than `undefined`. Probe errors count as "not yet";
 * the last one is reported if the wait times out, so a timeout always says what went wrong. Inside an
 * environment's start-up that has been abandoned (a signal, another component failed), it throws.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastProblem = 'no answer yet';
  for (;;) {
    if (StartUp.current()?.abandoned === true) throw new Error(`the start-up was abandoned while waiting for ${options.what}`);
    options.abortIf?.();
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${String(options.timeoutMs / 1000)}s waiting for ${options.what} (last: ${lastProblem})`);
    }
    await sleep(options.intervalMs ?? 250);
  }
}
