import { describe, expect, it } from '@jest/globals';
import { KeyedBackoff } from '../../src/controller/backoff.js';
import { RecoveryWakeups } from '../../src/controller/recovery-wakeups.js';
import { WorkQueue, type Clock } from '../../src/controller/work-queue.js';

const keystoneDown = { api: 'keystone', retryable: true };

function wakeups() {
  const woken: string[] = [];
  return { woken, subject: new RecoveryWakeups((key) => woken.push(key)) };
}

/** Records `failure` (undefined: success) as the outcome of an attempt of `key` that began now. */
function attempt(subject: RecoveryWakeups, key: string, failure?: { api: string; retryable: boolean }): void {
  subject.settled(key, subject.mark(), failure);
}

describe('RecoveryWakeups', () => {
  it('wakes, once, the keys whose last failure was a retryable error of the API that recovered', () => {
    const { subject, woken } = wakeups();
    attempt(subject, 'ns/a', keystoneDown);
    attempt(subject, 'ns/b', keystoneDown);

    expect(subject.recovered('keystone')).toBe(2);
    expect(subject.recovered('keystone')).toBe(0);
    expect(woken).toEqual(['ns/a', 'ns/b']);
  });

  it.each([
    ['succeeded since', undefined],
    ['failed for good', { api: 'keystone', retryable: false }],
    ['failed on Kubernetes', { api: 'kubernetes', retryable: true }],
    ['failed on another API', { api: 'keycloak', retryable: true }],
  ])('does not wake a key that %s', (_what, last) => {
    const { subject, woken } = wakeups();
    attempt(subject, 'ns/a', keystoneDown);
    attempt(subject, 'ns/a', last);

    expect(subject.recovered('keystone')).toBe(0);
    expect(woken).toEqual([]);
  });

  it('does not wake a key whose object is gone', () => {
    const { subject, woken } = wakeups();
    attempt(subject, 'ns/a', keystoneDown);
    subject.forget('ns/a');

    subject.recovered('keystone');

    expect(woken).toEqual([]);
    expect(subject.waiting()).toBe(0);
  });

  it('wakes at once a key whose attempt failed while the API recovered (its failure may predate the recovery)', () => {
    const { subject, woken } = wakeups();
    const mark = subject.mark();
    subject.recovered('keystone');

    subject.settled('ns/a', mark, keystoneDown);

    expect(woken).toEqual(['ns/a']);
    expect(subject.waiting()).toBe(0);
  });

  it('lets a key that began after the recovery wait for the next one', () => {
    const { subject, woken } = wakeups();
    subject.recovered('keystone');
    attempt(subject, 'ns/a', keystoneDown);
    subject.recovered('keycloak');

    expect(woken).toEqual([]);
    expect(subject.recovered('keystone')).toBe(1);
  });

  it('cuts short the backoff the queue holds the woken key in', async () => {
    const clock = manualQueueClock();
    const queue = new WorkQueue({ clock, backoff: new KeyedBackoff({ baseMs: 60_000 }) });
    const subject = new RecoveryWakeups((key) => { queue.add(key); });
    const processed: string[] = [];
    queue.start((key) => {
      processed.push(key);
      return Promise.resolve();
    });
    queue.addRateLimited('ns/a');
    attempt(subject, 'ns/a', keystoneDown);

    subject.recovered('keystone');
    await new Promise((resolve) => setImmediate(resolve));

    expect(processed).toEqual(['ns/a']);
    expect(queue.scheduled()).toBe(0);
    await queue.shutdown();
  });
});

/** A queue clock that never fires on its own: whatever runs was added, not due. */
function manualQueueClock(): Clock {
  let handles = 0;
  return { now: () => 0, setTimeout: () => ++handles, clearTimeout: () => undefined };
}
