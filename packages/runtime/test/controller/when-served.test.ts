import { describe, expect, it } from '@jest/globals';
import { KeywardError } from '@keyward/kernel/interpreter';
import type { ResourceType } from '@keyward/kernel';
import type { Runnable } from '../../src/controller/manager.js';
import { whenServed, type WhenServedOptions } from '../../src/controller/when-served.js';

const gadgets: ResourceType = { group: 'example.com', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true };

/** A runnable that records what happens to it, in order, in `log`. */
function recorded(log: string[]): Runnable & { readonly started: Promise<void> } {
  let resolveStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => { resolveStarted = resolve; });
  return {
    name: 'gadget-controller',
    started,
    start: () => {
      log.push('started');
      resolveStarted();
      return Promise.resolve();
    },
    stop: () => {
      log.push('stopped');
      return Promise.resolve();
    },
  };
}

/** Options that answer from `answers` in turn (the last one for ever) and record what they are told in `log`. */
function options(log: string[], answers: readonly (boolean | KeywardError)[]): WhenServedOptions {
  let asked = 0;
  return {
    isServed: () => {
      const answer = answers[Math.min(asked++, answers.length - 1)];
      log.push(`checked: ${answer instanceof KeywardError ? answer.reason : String(answer)}`);
      return answer instanceof KeywardError ? Promise.reject(answer) : Promise.resolve(answer === true);
    },
    recheckMs: 1,
    onMissing: (type) => log.push(`missing ${type.plural}`),
    onServed: () => log.push('served'),
    onProblem: (message) => log.push(`problem: ${message}`),
  };
}

const unavailable = new KeywardError({ api: 'kubernetes', code: 0, reason: 'Unavailable', message: 'connect ECONNREFUSED', retryable: true });
const forbidden = new KeywardError({ api: 'kubernetes', code: 403, reason: 'Forbidden', message: 'forbidden', retryable: false });

describe('whenServed', () => {
  it('starts at once when every required type is served', async () => {
    const log: string[] = [];
    await whenServed(recorded(log), [gadgets], options(log, [true])).start();
    expect(log).toEqual(['checked: true', 'started']);
  });

  it('says once that a type is missing, does not start, holds nothing up, and starts when the type is served', async () => {
    const log: string[] = [];
    const runnable = recorded(log);
    const guarded = whenServed(runnable, [gadgets], options(log, [false, false, false, true]));
    await guarded.start();
    // start() came back without starting it: readiness and the other runnables do not wait for it.
    expect(log).toEqual(['checked: false', 'missing gadgets']);
    await runnable.started;
    expect(log).toEqual(['checked: false', 'missing gadgets', 'checked: false', 'checked: false', 'checked: true', 'served', 'started']);
    await guarded.stop();
    expect(log.at(-1)).toBe('stopped');
  });

  it('asks again while the API server does not answer, and starts once it says the type is served', async () => {
    const log: string[] = [];
    await whenServed(recorded(log), [gadgets], options(log, [unavailable, unavailable, true])).start();
    expect(log).toEqual(['checked: Unavailable', 'checked: Unavailable', 'checked: true', 'started']);
  });

  it('starts anyway when the check is refused, saying so: its own requests report the refusal as before', async () => {
    const log: string[] = [];
    await whenServed(recorded(log), [gadgets], options(log, [forbidden])).start();
    expect(log).toEqual(['checked: Forbidden', 'problem: could not tell whether gadgets are served; starting gadget-controller anyway', 'started']);
  });

  it('never starts once stopped while it waits, and does not stop what it never started', async () => {
    const log: string[] = [];
    const guarded = whenServed(recorded(log), [gadgets], { ...options(log, [false]), recheckMs: 60_000 });
    await guarded.start();
    await guarded.stop();
    expect(log).toEqual(['checked: false', 'missing gadgets']);
  });

  it('stops waiting for an answer when stopped', async () => {
    const log: string[] = [];
    const guarded = whenServed(recorded(log), [gadgets], options(log, [unavailable]));
    const starting = guarded.start();
    await guarded.stop();
    await starting;
    expect(log).not.toContain('started');
  });
});
