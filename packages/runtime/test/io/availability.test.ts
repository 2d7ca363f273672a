import { describe, expect, it } from '@jest/globals';
import { EndpointBreaker, statusMeansDown, KeywardError, type AvailabilityChange } from '@keyward/kernel/interpreter';
import { ManualClock } from './manual-clock.js';

const ENDPOINT = 'http://keystone.example.test/v3';

/** Lets the promise callbacks of a probe that settled run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A breaker whose probes answer as `answers` says (undefined: the endpoint answered), recording when each ran. */
function breaker(answers: (string | undefined)[] = []) {
  const clock = new ManualClock();
  const start = clock.now();
  const probes: number[] = [];
  const changes: AvailabilityChange[] = [];
  const subject = new EndpointBreaker({
    api: 'keystone',
    label: 'Keystone',
    endpoint: ENDPOINT,
    clock,
    probe: () => {
      probes.push(clock.now() - start);
      return Promise.resolve(answers.length > 0 ? answers.shift() : 'ECONNREFUSED');
    },
  });
  subject.subscribe((change) => changes.push(change));
  return { clock, start, probes, changes, subject };
}

/** Moves the clock one step at a time so each probe's outcome is in before the next is due. */
async function run(clock: ManualClock, ms: number, stepMs = 500): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) {
    clock.advance(stepMs);
    await settle();
  }
}

function refusal(subject: EndpointBreaker): KeywardError {
  const admitted = subject.admit('create application credential x');
  if (!(admitted instanceof KeywardError)) throw new Error(`expected a refusal, got ticket ${String(admitted)}`);
  return admitted;
}

describe('EndpointBreaker', () => {
  it('admits requests while the endpoint answers, and does not probe', () => {
    const { subject, clock, changes } = breaker();

    const ticket = subject.admit('list');
    subject.report(ticket as number, undefined);

    expect(typeof ticket).toBe('number');
    expect(subject.available).toBe(true);
    expect(clock.pending()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('after one request found the endpoint down, refuses requests with a retryable error naming the endpoint and since when', () => {
    const { subject, clock, changes, start } = breaker();

    clock.advance(250);
    subject.report(subject.admit('create') as number, 'ECONNREFUSED');
    const error = refusal(subject);

    expect(subject.available).toBe(false);
    expect(error).toMatchObject({ api: 'keystone', code: 0, reason: 'Unavailable', retryable: true });
    expect(error.message).toBe(
      `create application credential x: Keystone at ${ENDPOINT} is unavailable since 2026-01-01T00:00:00.250Z (ECONNREFUSED); not sent, retried once it answers again`,
    );
    expect(changes).toEqual([{ api: 'keystone', endpoint: ENDPOINT, available: false, since: start + 250, cause: 'ECONNREFUSED' }]);
  });

  it('probes after 1 s, then doubling up to 10 s, while the endpoint stays down', async () => {
    const { subject, clock, probes } = breaker();

    subject.report(subject.admit('create') as number, 'HTTP 503');
    await run(clock, 60_000);

    expect(probes).toEqual([1_000, 3_000, 7_000, 15_000, 25_000, 35_000, 45_000, 55_000]);
    expect(subject.available).toBe(false);
  });

  it('keeps the first cause through the outage, so refusals read the same', async () => {
    const { subject, clock } = breaker(['HTTP 502', 'ETIMEDOUT']);

    subject.report(subject.admit('create') as number, 'ECONNRESET');
    const before = refusal(subject).message;
    await run(clock, 5_000);

    expect(refusal(subject).message).toBe(before);
  });

  it('is available again once a probe is answered, tells its listeners, and stops probing', async () => {
    const { subject, clock, probes, changes, start } = breaker(['ECONNREFUSED', undefined]);

    subject.report(subject.admit('create') as number, 'ECONNREFUSED');
    await run(clock, 20_000);

    expect(probes).toEqual([1_000, 3_000]);
    expect(subject.available).toBe(true);
    expect(typeof subject.admit('create')).toBe('number');
    expect(changes.map((c) => [c.available, c.since - start, c.cause])).toEqual([
      [false, 0, 'ECONNREFUSED'],
      [true, 0, 'ECONNREFUSED'],
    ]);
    expect(clock.pending()).toEqual([]);
  });

  it('starts a new outage with the first probe delay', async () => {
    const { subject, clock, probes } = breaker([undefined]);

    subject.report(subject.admit('create') as number, 'ECONNREFUSED');
    await run(clock, 2_000);
    subject.report(subject.admit('create') as number, 'ECONNREFUSED');
    await run(clock, 2_000);

    expect(probes).toEqual([1_000, 3_000]);
  });

  it('ignores outcomes of requests admitted before the last change', async () => {
    const { subject, clock, changes } = breaker([undefined]);
    const sentBeforeOutage = subject.admit('list') as number;
    subject.report(subject.admit('create') as number, 'ECONNREFUSED');

    // Sent before the outage began: its late success says nothing about the endpoint now.
    subject.report(sentBeforeOutage, undefined);
    expect(subject.available).toBe(false);

    await run(clock, 1_000);
    expect(subject.available).toBe(true);
    // Nor does its timeout, ending after the recovery.
    subject.report(sentBeforeOutage, 'no answer within 10000 ms');
    expect(subject.available).toBe(true);
    expect(changes.map((c) => c.available)).toEqual([false, true]);
  });

  it('stops probing once closed', () => {
    const { subject, clock, probes } = breaker();

    subject.report(subject.admit('create') as number, 'ECONNREFUSED');
    subject.close();
    clock.advance(60_000);

    expect(probes).toEqual([]);
    expect(clock.pending()).toEqual([]);
  });

  it('rejects a probe schedule that cannot work', () => {
    const probe = (): Promise<undefined> => Promise.resolve(undefined);
    const options = { api: 'keystone', label: 'Keystone', endpoint: ENDPOINT, probe };
    expect(() => new EndpointBreaker({ ...options, firstProbeMs: 0 })).toThrow('firstProbeMs must be > 0');
    expect(() => new EndpointBreaker({ ...options, firstProbeMs: 2_000, maxProbeMs: 1_000 })).toThrow('maxProbeMs must be >= firstProbeMs');
  });
});

describe('statusMeansDown', () => {
  it.each([
    [0, true],
    [502, true],
    [503, true],
    [504, true],
    [500, false],
    [429, false],
    [401, false],
    [404, false],
    [200, false],
  ])('HTTP %d: %s', (status, down) => {
    expect(statusMeansDown(status)).toBe(down);
  });
});
