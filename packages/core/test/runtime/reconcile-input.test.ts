import { describe, expect, it } from '@jest/globals';
import { reconcileInput } from '../../src/runtime/reconcile-input.js';

describe('reconcileInput', () => {
  const fields = { primary: { name: 'a' }, observed: {}, now: new Date(0), config: null };

  it('draws entropy only when the reconcile reads it', () => {
    let draws = 0;
    const input = reconcileInput(fields, () => { draws += 1; return new Uint8Array(32); });
    const { primary, now } = input;
    expect([primary, now, draws]).toEqual([fields.primary, fields.now, 0]);
  });

  it('draws once: every read of one input sees the same bytes', () => {
    let draws = 0;
    const input = reconcileInput(fields, () => { draws += 1; return Uint8Array.of(draws); });
    expect([input.entropy, input.entropy, draws]).toEqual([Uint8Array.of(1), Uint8Array.of(1), 1]);
  });
});
