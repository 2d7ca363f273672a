import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { KeywardErrorFields } from '@keyward/kernel/interpreter';
import { KeyedBackoff } from '../../src/controller/backoff.js';
import { RepeatedFailures } from '../../src/controller/repeated-failures.js';
import { WorkQueue } from '../../src/controller/work-queue.js';

const serverError = (message = 'HTTP 500: unknown_error'): KeywardErrorFields => ({ api: 'keycloak', code: 500, reason: 'ServerError', message, retryable: true });
const outage: KeywardErrorFields = { api: 'keycloak', code: 0, reason: 'Unavailable', message: 'ECONNREFUSED', retryable: true };

/**
 * A queue whose every run of `a` fails with the next of `failures` (the last one again once they run out) and
 * is retried with backoff (1 s doubling), as the controller does; a change of what `a` watches goes through
 * RepeatedFailures. Returns the times (ms since the start) of the runs.
 */
function world(failures: readonly KeywardErrorFields[]) {
  const queue = new WorkQueue({ backoff: new KeyedBackoff({ baseMs: 1_000, maxMs: 60_000 }) });
  const repeats = new RepeatedFailures(queue);
  const start = Date.now();
  const runs: number[] = [];
  queue.start((key) => {
    const failure = failures[Math.min(runs.length, failures.length - 1)];
    runs.push(Date.now() - start);
    queue.addRateLimited(key);
    repeats.settled(key, failure);
    return Promise.resolve();
  });
  return { queue, repeats, runs };
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('a change of what a failing key watches', () => {
  it('waits out the backoff of a server error answered the same way twice', async () => {
    const { queue, repeats, runs } = world([serverError()]);
    queue.add('a');
    await jest.advanceTimersByTimeAsync(1_500);
    expect(runs).toEqual([0, 1_000]);
    expect(repeats.repeating('a')).toBe(true);
    // Its next try is due at 3 s; changes before then do not bring it forward.
    for (let i = 0; i < 5; i++) {
      repeats.changed('a');
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(runs).toEqual([0, 1_000]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([0, 1_000, 3_000]);
    await queue.shutdown();
  });

  it.each([
    ['a first server error', [serverError()], 500, [0, 500]],
    ['a server error other than the last', [serverError('HTTP 500: one'), serverError('HTTP 500: two')], 1_500, [0, 1_000, 1_500]],
    ['an outage, however often', [outage], 1_500, [0, 1_000, 1_500]],
  ])('retries at once after %s', async (_what, failures, changedAt, expected) => {
    const { queue, repeats, runs } = world(failures);
    queue.add('a');
    await jest.advanceTimersByTimeAsync(changedAt);
    repeats.changed('a');
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(expected);
    await queue.shutdown();
  });

  it('is retried at once again once a run ends otherwise', async () => {
    const { queue, repeats, runs } = world([serverError()]);
    queue.add('a');
    await jest.advanceTimersByTimeAsync(1_500);
    repeats.settled('a', undefined);
    repeats.changed('a');
    await jest.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([0, 1_000, 1_500]);
    await queue.shutdown();
  });
});
