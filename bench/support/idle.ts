// Waiting for a controller to run out of work.
import { setTimeout as sleep } from 'node:timers/promises';

export interface QueueView {
  queueState(): { depth: number; inFlight: number };
}

/** Resolves once nothing is queued or running (keys scheduled for later do not count). */
export async function waitIdle(controller: QueueView, pollMs = 50): Promise<void> {
  for (;;) {
    const state = controller.queueState();
    if (state.depth === 0 && state.inFlight === 0) return;
    await sleep(pollMs);
  }
}

/**
 * Idle, and still idle after `echoMs`: a controller's own writes come back as watch events and are reconciled
 * once more, so the first idle moment is not the end of its work.
 */
export async function waitSettled(controller: QueueView, echoMs = 2_000): Promise<void> {
  await waitIdle(controller);
  await sleep(echoMs);
  await waitIdle(controller);
}
