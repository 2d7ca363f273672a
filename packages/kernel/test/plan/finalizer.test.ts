import { describe, expect, it } from '@jest/globals';
import { coreTypes } from '../../src/model/refs.js';
import { PlanBuilder } from '../../src/plan/plan.js';
import type { KubeObject, KubernetesAction } from '../../src/apis/kubernetes/actions.js';
import { cleanUp, finalizersAdding, withFinalizer, type Finalizer } from '../../src/apis/kubernetes/finalizer.js';

const ref = { type: coreTypes.configMap, namespace: 'ns', name: 'guarded' };
const finalizer: Finalizer = { ref, name: 'example.com/cleanup', purpose: 'keep it until its copy is gone' };

function object(metadata: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'guarded', namespace: 'ns', resourceVersion: '7', ...metadata } };
}

const RELEASED = 'the copy is deleted';

/** The steps withFinalizer plans, as "kind reason"; apply and cleanup add a step each, cleanup releases with `released`. */
function planned(target: KubeObject, released: string | undefined): string[] {
  const plan = new PlanBuilder<KubernetesAction>();
  withFinalizer(plan, target, finalizer, {
    apply: () => { plan.add({ kind: 'k8s.event', regarding: ref, type: 'Normal', reason: 'Applied', note: 'applied', action: 'Apply' }, 'apply'); },
    cleanup: () => {
      plan.add({ kind: 'k8s.delete', ref: { ...ref, name: 'copy' } }, 'clean up');
      return released;
    },
  });
  return plan.build().steps.map((step) => `${step.action.kind} ${step.reason}`);
}

describe('withFinalizer', () => {
  it('adds the finalizer first, alone', () => {
    expect(planned(object(), RELEASED)).toEqual(['k8s.addFinalizer keep it until its copy is gone']);
  });

  it('adds it from the finalizers seen, guarded by the resourceVersion, when asked to', () => {
    const plan = new PlanBuilder<KubernetesAction>();
    withFinalizer(plan, object({ finalizers: ['other'] }), { ...finalizer, guarded: true }, { apply: () => undefined, cleanup: () => undefined });
    expect(plan.build().steps[0]?.action).toEqual({ kind: 'k8s.addFinalizer', ref, finalizer: finalizer.name, observed: { resourceVersion: '7', finalizers: ['other'] } });
  });

  it('lets apply add it in its own first write when apply says it does, and alone when it does not', () => {
    const runs = (adds: boolean): string[] => {
      const plan = new PlanBuilder<KubernetesAction>();
      const target = object({ finalizers: ['other'] });
      withFinalizer(plan, target, finalizer, {
        apply: () => { plan.add({ kind: 'k8s.patch', ref, patch: { type: 'merge', body: { metadata: { finalizers: finalizersAdding(target, finalizer) } } }, precondition: { resourceVersion: '7' } }, 'apply'); },
        cleanup: () => undefined,
        addsFinalizer: () => adds,
      });
      return plan.build().steps.map((step) => step.action.kind);
    };
    expect(runs(true)).toEqual(['k8s.patch']);
    expect(runs(false)).toEqual(['k8s.addFinalizer']);
  });

  it('reconciles an object that holds it', () => {
    expect(planned(object({ finalizers: [finalizer.name] }), RELEASED)).toEqual(['k8s.event apply']);
  });

  it('on deletion runs the cleanup, then removes the finalizer, after the cleanup\'s steps', () => {
    expect(planned(object({ finalizers: [finalizer.name], deletionTimestamp: '2026-03-01T12:00:00Z' }), RELEASED)).toEqual(['k8s.delete clean up', 'k8s.removeFinalizer the copy is deleted']);
  });

  it('keeps the finalizer when the cleanup cannot proceed', () => {
    expect(planned(object({ finalizers: [finalizer.name], deletionTimestamp: '2026-03-01T12:00:00Z' }), undefined)).toEqual(['k8s.delete clean up']);
  });

  it('does nothing for a deleted object that no longer holds it', () => {
    expect(planned(object({ finalizers: ['other'], deletionTimestamp: '2026-03-01T12:00:00Z' }), RELEASED)).toEqual([]);
  });
});

describe('finalizersAdding', () => {
  it('appends the finalizer to those the object holds, and says nothing when it holds it', () => {
    expect(finalizersAdding(object({ finalizers: ['other'] }), finalizer)).toEqual(['other', finalizer.name]);
    expect(finalizersAdding(object(), finalizer)).toEqual([finalizer.name]);
    expect(finalizersAdding(object({ finalizers: [finalizer.name] }), finalizer)).toBeUndefined();
  });
});

describe('cleanUp', () => {
  it('releases an object that holds the finalizer, and never adds it', () => {
    const held = new PlanBuilder<KubernetesAction>();
    cleanUp(held, object({ finalizers: [finalizer.name] }), finalizer, () => 'handed over');
    expect(held.build().steps.map((step) => step.action)).toEqual([{ kind: 'k8s.removeFinalizer', ref, finalizer: finalizer.name }]);

    const free = new PlanBuilder<KubernetesAction>();
    cleanUp(free, object(), finalizer, () => 'handed over');
    expect(free.build().steps).toEqual([]);
  });
});
