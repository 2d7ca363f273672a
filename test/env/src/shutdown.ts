import { constants } from 'node:os';

/**
 * How to stop one thing this process owns (an environment, a child process) when the process has to go.
 * Node dies from SIGINT, SIGTERM and SIGHUP without running any exit hook unless someone listens for them,
 * and then whatever it started lives on; so an owner registers here before it starts anything.
 */
export interface Cleanup {
  /** On the first signal (or shutDown): stops in order. Newest registration first. */
  readonly graceful: (reason: string) => Promise<void>;
  /** On a second signal, or when the process exits with this still registered: at once and synchronously. */
  readonly immediate: (reason: string) => void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const cleanups: Cleanup[] = [];
let listening = false;
let exiting: Promise<never> | undefined;

function onSignal(signal: NodeJS.Signals): void {
  const status = 128 + constants.signals[signal];
  if (exiting === undefined) {
    void shutDown(status, signal);
    return;
  }
  runImmediate(`${signal} again`);
  process.exit(status);
}

function runImmediate(reason: string): void {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      cleanup.immediate(reason);
    } catch {
      // The others must still run.
    }
  }
}

function onExit(code: number): void {
  runImmediate(`exit ${String(code)}`);
}

function listen(on: boolean): void {
  if (listening === on) return;
  listening = on;
  for (const signal of SIGNALS) {
    if (on) process.on(signal, onSignal);
    else process.removeListener(signal, onSignal);
  }
  if (on) process.on('exit', onExit);
  else process.removeListener('exit', onExit);
}

/**
 * Registers a cleanup and returns its release (for when the thing is stopped or handed off). While anything is
 * registered, SIGINT, SIGTERM and SIGHUP run every graceful cleanup and then exit with 128 + the signal's number
 * (130, 143, 129); a second signal meanwhile runs the immediate ones and exits at once. With nothing registered,
 * Node's default handling is back.
 */
export function onShutdown(cleanup: Cleanup): () => void {
  listen(true);
  cleanups.push(cleanup);
  return () => {
    remove(cleanup);
    if (cleanups.length === 0 && exiting === undefined) listen(false);
  };
}

function remove(cleanup: Cleanup): void {
  const index = cleanups.indexOf(cleanup);
  if (index >= 0) cleanups.splice(index, 1);
}

/**
 * Runs every graceful cleanup, newest first, then exits with `status`. A cleanup that fails stays registered, so
 * its immediate half runs as the process exits. Called again (or on a signal) while running: joins the first call.
 */
export function shutDown(status: number, reason = `exit ${String(status)}`): Promise<never> {
  listen(true);
  exiting ??= (async () => {
    for (const cleanup of [...cleanups].reverse()) {
      try {
        await cleanup.graceful(reason);
        remove(cleanup);
      } catch {
        // Its immediate half runs at exit.
      }
    }
    process.exit(status);
  })();
  return exiting;
}
