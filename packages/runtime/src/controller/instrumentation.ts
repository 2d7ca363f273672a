import { isDriftRepairedEvent } from '@keyward/kernel/plan';
import { type Plan } from '@keyward/kernel';
import type { AvailabilityListener, PlanResult } from '@keyward/kernel/interpreter';
import type { KubeRequestInfo } from '../apis/kubernetes/io/client.js';
import type { HttpRequestObserver } from '../io/http/types.js';
import type { ControllerObserver, RuntimeLogger } from './controller.js';
import type { RuntimeMetrics } from './metrics.js';

/** Feeds a controller's reconciles, steps and queue into the Prometheus metrics. */
export function controllerMetrics(metrics: RuntimeMetrics, controller: string, queueDepth: () => number): ControllerObserver {
  return {
    onReconcile: (_name, result, durationMs) => {
      metrics.reconciles.inc({ controller, result });
      metrics.reconcileDuration.observe({ controller }, durationMs / 1000);
      metrics.queueDepth.set({ controller }, queueDepth());
    },
    onStep: (_name, step) => {
      metrics.actions.inc({ controller, kind: step.kind, outcome: step.outcome });
    },
    queue: {
      onAdd: () => {
        metrics.queueAdds.inc({ controller });
        metrics.queueDepth.set({ controller }, queueDepth());
      },
      onRetry: () => { metrics.queueRetries.inc({ controller }); },
      onQueueWait: (_key, ms) => { metrics.queueWait.observe({ controller }, ms / 1000); },
    },
    onBurstWatches: (_name, namespaces) => { metrics.burstWatches.set({ controller }, namespaces); },
    onPlan: (_name, plan, outcome) => { countDriftRepairs(metrics, plan, outcome); },
    onInformerProblem: (resource, message) => {
      metrics.informerRestarts.inc({ resource, kind: message.includes('410') || message.includes('relist') ? 'relist' : 'watch' });
    },
  };
}

/** Counts the DriftRepaired events a plan recorded: each stands for one repair of one object. */
function countDriftRepairs(metrics: RuntimeMetrics, plan: Plan, outcome: PlanResult): void {
  for (const { id, action } of plan.steps) {
    if (!isDriftRepairedEvent(action) || outcome.steps.find((step) => step.id === id)?.outcome !== 'applied') continue;
    metrics.driftRepairs.inc({ kind: action.regarding.type.kind, namespace: action.regarding.namespace ?? '' });
  }
}

/** Counts requests to the Kubernetes API by verb/resource and status. */
export function kubeRequestMetrics(metrics: RuntimeMetrics): (info: KubeRequestInfo) => void {
  return (info) => {
    const operation = `${info.verb} ${info.resource}`;
    metrics.externalRequests.inc({ api: 'kubernetes', operation, status: String(info.status) });
    metrics.externalRequestDuration.observe({ api: 'kubernetes', operation }, info.durationMs / 1000);
  };
}

/** Counts requests to an HTTP API other than Kubernetes, labelled by the API, and the time they waited behind its limiters. */
export function httpRequestMetrics(metrics: RuntimeMetrics): HttpRequestObserver {
  return {
    onRequest: (info) => {
      const { api, operation } = info;
      metrics.externalRequests.inc({ api, operation, status: String(info.status) });
      metrics.externalRequestDuration.observe({ api, operation }, info.durationMs / 1000);
      metrics.limiterWait.observe({ api }, info.limiterWaitMs / 1000);
    },
  };
}

/** Keystone's requests name their API like any other's; kept for callers written before httpRequestMetrics. */
export const keystoneRequestMetrics = httpRequestMetrics;

/** Sets keyward_endpoint_available on each change of an endpoint's availability. */
export function endpointAvailabilityMetrics(metrics: RuntimeMetrics): AvailabilityListener {
  return ({ api, endpoint, available }) => { metrics.endpointAvailable.set({ api, endpoint }, available ? 1 : 0); };
}

/** Logs each change of an endpoint's availability: a warning when it goes down, info when it answers again. */
export function endpointAvailabilityLog(logger: RuntimeLogger, now: () => number = Date.now): AvailabilityListener {
  return ({ api, endpoint, available, since, cause }) => {
    const meta = { api, endpoint, cause, since: new Date(since).toISOString() };
    if (available) logger.info('endpoint answers again', { ...meta, downForS: Math.round((now() - since) / 100) / 10 });
    else logger.warn('endpoint unavailable: requests to it fail at once until a probe gets an answer', meta);
  };
}
