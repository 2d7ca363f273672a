import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { findCondition, readConditions, setCondition, setConditions, summaryCondition, type Condition, type DesiredCondition } from '../../src/model/conditions.js';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const t1 = new Date('2026-01-02T03:04:05.678Z');
const ready = (status: Condition['status'], reason = 'R', message = 'm'): DesiredCondition => ({ type: 'Ready', status, reason, message });

describe('setCondition', () => {
  it('stamps a new condition with now, to the second', () => {
    expect(setCondition(undefined, ready('True'), t1)).toEqual([{ ...ready('True'), lastTransitionTime: '2026-01-02T03:04:05Z' }]);
  });

  it('keeps lastTransitionTime when only reason or message change', () => {
    const before = setCondition([], ready('False', 'A', 'first'), t0);
    const after = setCondition(before, ready('False', 'B', 'second'), t1);
    expect(after).toEqual([{ ...ready('False', 'B', 'second'), lastTransitionTime: '2026-01-01T00:00:00Z' }]);
  });

  it('moves lastTransitionTime when the status flips', () => {
    const after = setCondition(setCondition([], ready('False'), t0), ready('True'), t1);
    expect(after[0]?.lastTransitionTime).toBe('2026-01-02T03:04:05Z');
  });

  it('keeps the order of other conditions', () => {
    const list = setConditions([], [ready('True'), { type: 'B', status: 'True', reason: 'x', message: '' }], t0);
    expect(setCondition(list, ready('False'), t1).map((c) => c.type)).toEqual(['Ready', 'B']);
  });

  it('is idempotent: applying the same desired condition twice changes nothing', () => {
    const status = fc.constantFrom<Condition['status']>('True', 'False', 'Unknown');
    fc.assert(
      fc.property(status, status, fc.string(), (s1, s2, reason) => {
        const once = setCondition(setCondition([], ready(s1), t0), ready(s2, reason), t1);
        expect(setCondition(once, ready(s2, reason), new Date('2030-01-01T00:00:00Z'))).toEqual(once);
      }),
    );
  });
});

describe('user text in conditions', () => {
  it('reason and message are stored with controls and bidi overrides escaped', () => {
    const [condition] = setCondition([], ready('False', 'Bad\u202E', 'Secret "a\u202Eterces" not found\nby x'), t0);
    expect(condition).toMatchObject({ reason: 'Bad\\u{202E}', message: 'Secret "a\\u{202E}terces" not found\\u{000A}by x' });
  });

  it('setting the same hostile message again is a fixed point, so a reconcile that changes nothing writes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (message) => {
        const once = setCondition([], ready('False', 'R', message), t0);
        const stored = findCondition(once, 'Ready');
        expect(setCondition(once, ready('False', 'R', stored?.message ?? ''), t1)).toEqual(once);
        expect(setCondition(once, ready('False', 'R', message), t1)).toEqual(once);
      }),
    );
  });
});

describe('readConditions', () => {
  const good = { type: 'Ready', status: 'True', reason: 'Ready', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' };

  it.each([[undefined], [null], ['Ready'], [{ type: 'Ready' }], [42]])('reads %j as no conditions', (raw) => {
    expect(readConditions(raw)).toEqual([]);
  });

  it('keeps well-formed entries with fields of other controllers, drops what is no condition', () => {
    const foreign = { ...good, type: 'DBReady', severity: 'Info' };
    expect(readConditions([null, 'x', good, { type: 5, status: 'True' }, { type: 'A', status: 'Maybe', lastTransitionTime: '' }, foreign])).toEqual([good, foreign]);
  });

  it('reads a condition without reason or message (openstack operators omit them) with empty ones', () => {
    expect(readConditions([{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }])).toEqual([{ type: 'Ready', status: 'True', reason: '', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }]);
  });

  it('never throws, and what it returns works with every condition helper', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const conditions = readConditions(raw);
        expect(() => setConditions(conditions, [ready('False')], t0)).not.toThrow();
      }),
    );
  });
});

describe('summaryCondition', () => {
  const part = (type: string, status: Condition['status'], message = type): DesiredCondition => ({ type, status, reason: `${type}Reason`, message });

  it('is True with the given reason when every part is True', () => {
    expect(summaryCondition('Ready', [part('A', 'True'), part('B', 'True')], { reason: 'Ok', message: 'all good' }, 3)).toEqual({
      type: 'Ready', status: 'True', reason: 'Ok', message: 'all good', observedGeneration: 3,
    });
  });

  it('takes the worst part, False over Unknown, first among equals', () => {
    const summary = summaryCondition('Ready', [part('A', 'Unknown'), part('B', 'False'), part('C', 'False')], { reason: 'Ok', message: '' });
    expect(summary).toEqual({ type: 'Ready', status: 'False', reason: 'BReason', message: 'B' });
  });
});
