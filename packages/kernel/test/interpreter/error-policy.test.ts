import { describe, expect, it } from '@jest/globals';
import { defaultErrorPolicy } from '../../src/interpreter/error-policy.js';
import type { KeywardErrorFields } from '../../src/interpreter/errors.js';
import { toKeywardError } from '../../src/interpreter/interpret.js';

function error(fields: Partial<KeywardErrorFields> & Pick<KeywardErrorFields, 'api' | 'code' | 'reason'>): KeywardErrorFields {
  return { message: 'test', retryable: false, ...fields };
}

describe('defaultErrorPolicy', () => {
  it('retries a Kubernetes Conflict (a stale view) without reporting it, whatever else the error says', () => {
    expect(defaultErrorPolicy(error({ api: 'kubernetes', code: 409, reason: 'Conflict', retryable: true }))).toEqual({ next: 'retry', report: false });
    expect(defaultErrorPolicy(error({ api: 'kubernetes', code: 409, reason: 'Conflict', retryAfterMs: 5_000 }))).toEqual({ next: 'retry', report: false });
  });

  it('reports another API\'s Conflict, and a Kubernetes 409 that is not a Conflict, and backs off', () => {
    expect(defaultErrorPolicy(error({ api: 'keystone', code: 409, reason: 'Conflict', retryable: true }))).toEqual({ next: 'backoff', report: true });
    expect(defaultErrorPolicy(error({ api: 'kubernetes', code: 409, reason: 'AlreadyExists' }))).toEqual({ next: 'backoff', report: true });
  });

  it('waits for a change after a bug in a handler (an InternalError), which trying again would repeat', () => {
    const bug = toKeywardError(new Error('cannot read properties of undefined'));
    expect(bug).toMatchObject({ api: 'keyward', reason: 'InternalError', retryable: false, message: 'cannot read properties of undefined' });
    expect(defaultErrorPolicy(bug)).toEqual({ next: 'waitForChange', report: true });
  });

  it('waits for a change after a request the API calls invalid (400, 422), even when it asks to come back later', () => {
    for (const code of [400, 422]) {
      expect(defaultErrorPolicy(error({ api: 'kubernetes', code, reason: 'Invalid' }))).toEqual({ next: 'waitForChange', report: true });
      expect(defaultErrorPolicy(error({ api: 'keystone', code, reason: 'BadRequest', retryAfterMs: 1_000 }))).toEqual({ next: 'waitForChange', report: true });
    }
  });

  it('honours a Retry-After: reported, and requeued after exactly that delay', () => {
    expect(defaultErrorPolicy(error({ api: 'keystone', code: 429, reason: 'TooManyRequests', retryable: true, retryAfterMs: 30_000 })))
      .toEqual({ next: 'requeueAfter', afterMs: 30_000, report: true });
    expect(defaultErrorPolicy(error({ api: 'keystone', code: 503, reason: 'ServerError', retryable: true, retryAfterMs: 0 })))
      .toEqual({ next: 'requeueAfter', afterMs: 0, report: true });
  });

  it('backs off, reported, from everything else: retryable trouble and refusals that depend on state outside the object', () => {
    const others: KeywardErrorFields[] = [
      error({ api: 'keystone', code: 503, reason: 'ServerError', retryable: true }),
      error({ api: 'keystone', code: 0, reason: 'Unavailable', retryable: true }),
      error({ api: 'keystone', code: 401, reason: 'Unauthorized' }),
      error({ api: 'kubernetes', code: 403, reason: 'Forbidden' }),
      error({ api: 'kubernetes', code: 404, reason: 'NotFound' }),
    ];
    for (const other of others) expect([other.reason, defaultErrorPolicy(other)]).toEqual([other.reason, { next: 'backoff', report: true }]);
  });
});
