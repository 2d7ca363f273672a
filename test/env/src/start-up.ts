import { AsyncLocalStorage } from 'node:async_hooks';
import type { ManagedProcess } from './process.js';

const running = new AsyncLocalStorage<StartUp>();

/**
 * One environment's start-up. Every process spawned while it runs is recorded here the moment it is spawned,
 * not once it is ready, so a start-up that fails or is interrupted half-way can stop all of them, also one that
 * never became ready. ManagedProcess.start, runCommand and waitFor find the start-up through the async context:
 * the component modules need not pass it along. Once abandoned, nothing more is spawned or waited for.
 */
export class StartUp {
  /** Long-running processes, in the order they were spawned. */
  readonly processes: ManagedProcess[] = [];
  /** Process groups of the one-shot commands in flight (keystone-manage, mysql_install_db). */
  readonly #commands = new Set<number>();
  #abandoned = false;

  /** The start-up this code runs in, if any. */
  static current(): StartUp | undefined {
    return running.getStore();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return running.run(this, work);
  }

  get abandoned(): boolean {
    return this.#abandoned;
  }

  /** Records a one-shot command's process group until the returned function is called (when it has ended). */
  recordCommand(pgid: number): () => void {
    this.#commands.add(pgid);
    if (this.#abandoned) killGroup(pgid);
    return () => this.#commands.delete(pgid);
  }

  /** Drops a process that has stopped and helped the start-up only (a one-off server), so it is not listed as a component. */
  forget(stopped: ManagedProcess): void {
    const index = this.processes.indexOf(stopped);
    if (index >= 0) this.processes.splice(index, 1);
  }

  /** Kills the one-shot commands in flight; from now on spawning and waiting in this start-up throw. */
  abandon(): void {
    this.#abandoned = true;
    for (const pgid of this.#commands) killGroup(pgid);
  }

  /** SIGKILLs every process group recorded that still runs. Synchronous, for exit handlers. */
  killAll(): void {
    this.abandon();
    for (const child of this.processes) if (child.running) killGroup(child.pid);
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
