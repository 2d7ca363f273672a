import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { addApplyIfChanged, holdsStated } from '../../src/apis/kubernetes/stated.js';
import type { ApplyAction, KubeObject } from '../../src/apis/kubernetes/actions.js';
import { coreTypes } from '../../src/model/refs.js';
import { sensitive } from '../../src/model/sensitive.js';
import { applyMergePatch } from '../../src/plan/merge-patch.js';
import { PlanBuilder } from '../../src/plan/plan.js';
import { outputRef, type Json } from '../../src/plan/values.js';

const ref = { type: coreTypes.configMap, namespace: 'ns', name: 'settings' };
const stored: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'ns', uid: 'u1', resourceVersion: '7', labels: { app: 'x', other: 'kept' } },
  data: { a: '1', b: '2' },
};

describe('holdsStated', () => {
  it('holds what is stated, whatever else the object has', () => {
    expect(holdsStated(stored, { metadata: { labels: { app: 'x' } }, data: { a: '1' } })).toBe(true);
  });

  it('does not hold a changed or missing value', () => {
    expect(holdsStated(stored, { data: { a: '2' } })).toBe(false);
    expect(holdsStated(stored, { data: { c: '3' } })).toBe(false);
  });

  it('compares lists element by element and by length, elements as subsets (the server fills defaults in)', () => {
    const deployment = { spec: { containers: [{ name: 'api', image: 'i:1', imagePullPolicy: 'IfNotPresent' }] } };
    expect(holdsStated(deployment, { spec: { containers: [{ name: 'api', image: 'i:1' }] } })).toBe(true);
    expect(holdsStated(deployment, { spec: { containers: [{ name: 'api', image: 'i:2' }] } })).toBe(false);
    expect(holdsStated(deployment, { spec: { containers: [] } })).toBe(false);
  });

  it('compares sensitive values revealed, stringData as the base64 data it is stored as, and never holds a later output', () => {
    const secret = { data: { key: Buffer.from('s3cret').toString('base64') } };
    expect(holdsStated(secret, { data: { key: sensitive(Buffer.from('s3cret').toString('base64')) } })).toBe(true);
    expect(holdsStated(secret, { stringData: { key: sensitive('s3cret') } })).toBe(true);
    expect(holdsStated(secret, { stringData: { key: 'other' } })).toBe(false);
    expect(holdsStated(secret, { data: { key: outputRef('s1', 'secret') } })).toBe(false);
  });

  it('holds whatever a merge of the stated fields into any object leaves', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
      object: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(fc.property(json.object, json.object, (before, desired) => {
      expect(holdsStated(applyMergePatch(before, desired as Json), desired as Json)).toBe(true);
    }));
  });
});

describe('addApplyIfChanged', () => {
  it('adds nothing when the object holds what is stated, and an apply otherwise', () => {
    const quiet = new PlanBuilder<ApplyAction>();
    expect(addApplyIfChanged(quiet, ref, stored, { data: { a: '1' } }, 'keep settings')).toBe(false);
    expect(quiet.size).toBe(0);

    const changed = new PlanBuilder<ApplyAction>();
    expect(addApplyIfChanged(changed, ref, stored, { data: { a: '9' } }, 'change a setting', { force: true })).toBe(true);
    expect(changed.build().steps.map((step) => [step.action.kind, step.action.force])).toEqual([['k8s.apply', true]]);

    const missing = new PlanBuilder<ApplyAction>();
    expect(addApplyIfChanged(missing, ref, undefined, {}, 'create it')).toBe(true);
  });
});
