import { describe, expect, it } from '@jest/globals';
import { coreTypes, type KubernetesAction, type ObjectRef, type Plan } from '@keyward/kernel';
import type { PlanResult, StepResult } from '@keyward/kernel/interpreter';
import { OWN_WRITE_WAIT_MS, OwnWrites, wroteTo } from '../../src/controller/own-writes.js';

const ref: ObjectRef = { type: coreTypes.configMap, namespace: 'ns', name: 'source' };
const other: ObjectRef = { ...ref, name: 'copy' };

const plan: Plan<KubernetesAction> = {
  steps: [
    { id: 's1', action: { kind: 'k8s.create', ref: other, object: {} }, reason: 'make the copy' },
    { id: 's2', action: { kind: 'k8s.status', ref, status: {} }, reason: 'report' },
    { id: 's3', action: { kind: 'k8s.addFinalizer', ref: other, finalizer: 'example.com/f' }, reason: 'hold the copy' },
  ],
};

function result(outcomes: Record<string, StepResult['outcome']>): PlanResult {
  return { ok: true, compensations: [], steps: Object.entries(outcomes).map(([id, outcome]) => ({ id, kind: '', summary: '', reason: '', outcome, durationMs: 0 })) };
}

describe('wroteTo', () => {
  it('is true for a write to the object that was applied, and only then', () => {
    expect(wroteTo(plan, result({ s1: 'applied', s2: 'applied', s3: 'applied' }), ref)).toBe(true);
    expect(wroteTo(plan, result({ s1: 'applied', s2: 'failed' }), ref)).toBe(false);
    expect(wroteTo(plan, result({ s1: 'applied', s2: 'skipped', s3: 'applied' }), ref)).toBe(false);
    expect(wroteTo(plan, result({ s1: 'applied', s2: 'applied' }), { ...ref, namespace: 'elsewhere' })).toBe(false);
  });
});

describe('OwnWrites', () => {
  it('holds the copy from before a write of its own, until a newer copy is there or the wait is over', () => {
    let now = 1_000;
    const writes = new OwnWrites(() => now);
    expect(writes.olderThanOwnWrite('ns/source', '7')).toBe(false);
    writes.wrote('ns/source', '7');
    expect(writes.olderThanOwnWrite('ns/source', '7')).toBe(true);
    expect(writes.olderThanOwnWrite('ns/other', '7')).toBe(false);
    now += OWN_WRITE_WAIT_MS - 1;
    expect(writes.olderThanOwnWrite('ns/source', '7')).toBe(true);
    // The write's own copy is in: the mark is gone, even if an older copy came back.
    expect(writes.olderThanOwnWrite('ns/source', '8')).toBe(false);
    expect(writes.olderThanOwnWrite('ns/source', '7')).toBe(false);

    writes.wrote('ns/source', '9');
    now += OWN_WRITE_WAIT_MS;
    expect(writes.olderThanOwnWrite('ns/source', '9')).toBe(false);
    writes.wrote('ns/source', '9');
    writes.forget('ns/source');
    expect(writes.olderThanOwnWrite('ns/source', '9')).toBe(false);
  });
});
