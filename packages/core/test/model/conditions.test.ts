import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { setCondition, setConditions, summaryCondition, type Condition, type DesiredCondition } from '../../src/model/conditions.js';

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
