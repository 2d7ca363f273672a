// A controller's watches failing all at once (the API server restarting) are one warning when it starts and
// one line when they are all back, not one per watch and retry; one failing watch likewise.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { WatchTroubleLog } from '../../src/controller/watch-trouble.js';

interface Line { readonly level: string; readonly message: string; readonly meta: Record<string, unknown> | undefined }

function recorded(): { lines: Line[]; log: WatchTroubleLog } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, meta?: Record<string, unknown>): void => { lines.push({ level, message, meta }); };
  return { lines, log: new WatchTroubleLog({ warn: at('warn'), info: at('info') }) };
}

const refused = new Error('connect ECONNREFUSED 127.0.0.1:6443');

beforeEach(() => { jest.useFakeTimers(); });
afterEach(() => { jest.useRealTimers(); });

describe('WatchTroubleLog', () => {
  it('tells an API server restart that fails 30 watches, each retried five times, in two lines', () => {
    const { lines, log } = recorded();
    const watches = [...Array.from({ length: 28 }, () => log.watch('secrets')), log.watch('configmaps'), log.watch('keystoneapis')];
    for (let attempt = 0; attempt < 5; attempt++) {
      for (const watch of watches) watch.problem('the watch failed; retrying in 2000 ms', refused, true);
      jest.advanceTimersByTime(2_000);
    }
    for (const watch of watches.slice(1)) watch.recovered();
    expect(lines.map((l) => l.level)).toEqual(['warn']);
    watches[0]?.recovered();

    const resources = { secrets: 28, configmaps: 1, keystoneapis: 1 };
    expect(lines).toEqual([
      { level: 'warn', message: 'many watches failed at once', meta: { watches: 30, resources, problem: 'the watch failed; retrying in 2000 ms', error: refused.message } },
      { level: 'info', message: 'the watches are back', meta: { watches: 30, resources, failedAttempts: 150, afterMs: 9_000 } },
    ]);
    // Over: the next failure is told again.
    watches[0]?.problem('the watch failed; retrying in 200 ms', refused, true);
    jest.advanceTimersByTime(1_000);
    expect(lines).toHaveLength(3);
    log.stop();
  });

  it('tells one failing watch once, and its return', () => {
    const { lines, log } = recorded();
    const watch = log.watch('secrets');
    watch.problem('the list failed; retrying in 200 ms', new Error('forbidden'), true);
    watch.problem('the list failed; retrying in 400 ms', new Error('forbidden'), true);
    expect(lines).toEqual([]);
    jest.advanceTimersByTime(1_000);
    watch.problem('the list failed; retrying in 800 ms', new Error('forbidden'), true);
    jest.advanceTimersByTime(1_000);
    watch.recovered();
    expect(lines.map((l) => [l.level, l.message, l.meta])).toEqual([
      ['warn', 'the list failed; retrying in 200 ms', { resource: 'secrets', error: 'forbidden', failedAttempts: 2 }],
      ['info', 'the watch is back', { watches: 1, resources: { secrets: 1 }, failedAttempts: 3, afterMs: 1_000 }],
    ]);
    log.stop();
  });

  it('tells a one-off problem at once', () => {
    const { lines, log } = recorded();
    log.watch('secrets').problem('a handler threw', new Error('boom'), false);
    expect(lines.map((l) => [l.level, l.message, l.meta])).toEqual([['warn', 'a handler threw', { resource: 'secrets', error: 'boom' }]]);
    log.stop();
  });

  it('reminds once a minute while watches keep failing, and a watch stopped meanwhile is not waited for', () => {
    const { lines, log } = recorded();
    const watches = Array.from({ length: 3 }, () => log.watch('secrets'));
    for (const watch of watches) watch.problem('the watch failed; retrying in 2000 ms', refused, true);
    jest.advanceTimersByTime(61_000);
    expect(lines.map((l) => l.message)).toEqual(['many watches failed at once', 'watches still failing']);
    watches[0]?.release();
    watches[1]?.recovered();
    watches[2]?.recovered();
    expect(lines.map((l) => l.message).at(-1)).toBe('the watches are back');
    jest.advanceTimersByTime(120_000);
    expect(lines).toHaveLength(3);
    log.stop();
  });

  it('does not wait for a watch that was back before the window closed', () => {
    const { lines, log } = recorded();
    const watches = Array.from({ length: 4 }, () => log.watch('secrets'));
    for (const watch of watches) watch.problem('the watch failed; retrying in 200 ms', refused, true);
    watches[3]?.recovered();
    jest.advanceTimersByTime(1_000);
    for (const watch of watches.slice(0, 3)) watch.recovered();
    expect(lines.map((l) => [l.message, l.meta?.['watches']])).toEqual([
      ['many watches failed at once', 4],
      ['the watches are back', 4],
    ]);
    log.stop();
  });
});
