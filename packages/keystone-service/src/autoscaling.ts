import * as t from 'io-ts';
import { integerInRange, withDefault } from '@keyward/kernel/model';
import type { KubeObject } from '@keyward/kernel';
import { refine } from './codec-helpers.js';
import { numberAt } from './read.js';

// C5C3's autoscaling: a HorizontalPodAutoscaler on the API Deployment, which then owns its replicas. The codec,
// the CRD's schema of the same rules, and how many replicas the Deployment states.

export const MAX_REPLICAS = 1_000;
export const DEFAULT_CPU_UTILIZATION = 80;
export const MIN_ABOVE_MAX = 'minReplicas cannot be above maxReplicas';

export const AutoscalingCodec = refine(
  t.intersection([
    t.type({ maxReplicas: integerInRange(1, MAX_REPLICAS), targetCPUUtilizationPercentage: withDefault(integerInRange(1, 100), DEFAULT_CPU_UTILIZATION) }),
    t.partial({ minReplicas: integerInRange(1, MAX_REPLICAS) }),
  ]),
  (a) => ((a.minReplicas ?? 1) > a.maxReplicas ? MIN_ABOVE_MAX : undefined),
);
export type AutoscalingSpec = t.TypeOf<typeof AutoscalingCodec>;

export const autoscalingSchema = {
  type: 'object',
  required: ['maxReplicas'],
  description: 'A HorizontalPodAutoscaler on the API pods, scaling on CPU use against resources.requests.cpu (which it needs to measure); it owns the replicas then, and spec.replicas is the floor when minReplicas is not given.',
  properties: {
    minReplicas: { type: 'integer', minimum: 1, maximum: MAX_REPLICAS, description: 'Fewest API pods; default spec.replicas.' },
    maxReplicas: { type: 'integer', minimum: 1, maximum: MAX_REPLICAS, description: 'Most API pods.' },
    targetCPUUtilizationPercentage: { type: 'integer', minimum: 1, maximum: 100, default: DEFAULT_CPU_UTILIZATION, description: `Average CPU use, in percent of the request, the autoscaler keeps the pods at; default ${String(DEFAULT_CPU_UTILIZATION)}.` },
  },
  'x-kubernetes-validations': [{ rule: '!has(self.minReplicas) || self.minReplicas <= self.maxReplicas', message: MIN_ABOVE_MAX }],
};

/** The fewest API pods: the autoscaler's floor, or the replicas the spec states. */
export function minimumReplicas(replicas: number, autoscaling: AutoscalingSpec | undefined): number {
  return autoscaling === undefined ? replicas : Math.min(autoscaling.minReplicas ?? replicas, autoscaling.maxReplicas);
}

/**
 * The replicas the Deployment states: the spec's, or with an autoscaler the number it runs now (which the
 * autoscaler set), so that applying the Deployment never takes a scale back; the floor until it exists.
 */
export function statedReplicas(replicas: number, autoscaling: AutoscalingSpec | undefined, deployment: KubeObject | undefined): number {
  if (autoscaling === undefined) return replicas;
  const live = numberAt(deployment, 'spec', 'replicas');
  return live > 0 ? live : minimumReplicas(replicas, autoscaling);
}
