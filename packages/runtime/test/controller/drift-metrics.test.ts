import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { PlanBuilder, coreTypes } from '@keyward/kernel';
import { driftRepairedEvent, type KubernetesAction } from '@keyward/kernel/plan';
import type { PlanResult, StepOutcome } from '@keyward/kernel/interpreter';
import { RuntimeMetrics } from '../../src/controller/metrics.js';
import { controllerMetrics } from '../../src/controller/instrumentation.js';

const secret = (namespace: string, name: string) => ({ type: coreTypes.secret, namespace, name });

/** A plan of two repair events and another Warning event, with the outcome of each step. */
function ranPlan(outcomes: readonly StepOutcome[]) {
  const plan = new PlanBuilder<KubernetesAction>();
  plan.add(driftRepairedEvent(secret('team-a', 'one'), 'one: data'), 'tell people');
  plan.add(driftRepairedEvent(secret('team-b', 'two'), 'two: data'), 'tell people');
  plan.add({ kind: 'k8s.event', regarding: secret('team-a', 'three'), type: 'Warning', reason: 'InvalidSpec', note: 'bad', action: 'Validate' }, 'tell people');
  const built = plan.build();
  const outcome: PlanResult = {
    ok: true,
    steps: built.steps.map((step, index) => ({ id: step.id, kind: step.action.kind, summary: '', reason: step.reason, outcome: outcomes[index] ?? 'applied', durationMs: 1 })),
    compensations: [],
  };
  return { plan: built, outcome };
}

describe('keyward_drift_repairs_total', () => {
  it('counts the DriftRepaired events a plan recorded, by kind and namespace; nothing else, and no event that was not recorded', async () => {
    const metrics = new RuntimeMetrics(new Registry());
    const observer = controllerMetrics(metrics, 'secrets', () => 0);
    const applied = ranPlan(['applied', 'applied', 'applied']);
    observer.onPlan?.('secrets', applied.plan, applied.outcome);
    const failed = ranPlan(['applied', 'failed', 'applied']);
    observer.onPlan?.('secrets', failed.plan, failed.outcome);

    const text = await metrics.registry.metrics();
    expect(text).toContain('keyward_drift_repairs_total{kind="Secret",namespace="team-a"} 2');
    expect(text).toContain('keyward_drift_repairs_total{kind="Secret",namespace="team-b"} 1');
    expect(text).not.toContain('InvalidSpec');
  });
});
