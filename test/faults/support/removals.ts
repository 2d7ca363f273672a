// How long after a moment (an API server's return) each of some objects was first seen gone, and what that
// came to over the rounds of a scenario.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Removals {
  /** Milliseconds from `since` to the first look that found the object gone, per object. */
  readonly latencyMs: ReadonlyMap<string, number>;
  /** Objects still there `withinMs` after `since`. */
  readonly missed: readonly string[];
}

/**
 * Looks every `intervalMs` (so a latency is late by at most that) which of `expected` are still `present`,
 * until none is or `withinMs` have passed since `since` (a `performance.now()`). A look that fails (the
 * client's connection did not survive the restart) counts as not knowing yet.
 */
export async function timeRemovals(
  expected: readonly string[],
  present: () => Promise<ReadonlySet<string>>,
  since: number,
  { withinMs, intervalMs = 200 }: { readonly withinMs: number; readonly intervalMs?: number },
): Promise<Removals> {
  const latencyMs = new Map<string, number>();
  let waiting = [...expected];
  while (waiting.length > 0 && performance.now() - since <= withinMs) {
    const found = await present().catch(() => undefined);
    const at = performance.now();
    if (found !== undefined) {
      for (const id of waiting.filter((name) => !found.has(name))) latencyMs.set(id, Math.max(0, Math.round(at - since)));
      waiting = waiting.filter((name) => found.has(name));
    }
    if (waiting.length > 0) await sleep(intervalMs);
  }
  return { latencyMs, missed: waiting };
}

/** What became of the objects one round of a fault deleted. */
export interface Removed {
  readonly deleted: number;
  /** Still stored when the fault began: the removals it interrupted or kept from starting. */
  readonly pendingAtFault: number;
  /** Per object, ms from the moment until it was seen gone (about 0 for those gone before). */
  readonly removalMs: readonly number[];
  readonly missed: readonly string[];
}

export function removed(deleted: number, pendingAtFault: number, { latencyMs, missed }: Removals): Removed {
  return { deleted, pendingAtFault, removalMs: [...latencyMs.values()], missed };
}

/** Totals over the rounds, and the spread of the removal latencies. */
export function totals(removals: readonly Removed[]): Record<string, unknown> {
  const latencies = removals.flatMap((r) => r.removalMs);
  return {
    deleted: removals.reduce((sum, r) => sum + r.deleted, 0),
    pendingAtFault: removals.reduce((sum, r) => sum + r.pendingAtFault, 0),
    missed: removals.reduce((sum, r) => sum + r.missed.length, 0),
    removalMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), max: Math.max(0, ...latencies) },
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
