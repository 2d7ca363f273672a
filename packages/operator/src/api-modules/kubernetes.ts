import { kubernetesApi } from '@keyward/kernel';
import { parsePositiveInteger } from '@keyward/kernel/model';
import { kubernetesRuntime, type TokenBucketLimit } from '@keyward/runtime/io';
import { defineApiModule, numberSetting, type ApiOption, type Settings } from './module.js';

// controller-runtime's client defaults: a resync of thousands of objects queues here, not in the API server.
const qps: ApiOption<number> = {
  flags: '--kube-api-qps <n>',
  env: 'KEYWARD_KUBE_API_QPS',
  description: 'requests per second sent to the Kubernetes API at most, watches excepted',
  default: 20,
  defaultText: '20',
  parse: parsePositiveInteger,
  helm: { path: 'kubernetesApi.qps', type: 'number', comment: 'requests per second to the Kubernetes API at most, watches excepted. Empty: 20.' },
};
const burst: ApiOption<number> = {
  flags: '--kube-api-burst <n>',
  env: 'KEYWARD_KUBE_API_BURST',
  description: 'requests sent to the Kubernetes API at once above that rate after a quiet spell',
  default: 30,
  defaultText: '30',
  parse: parsePositiveInteger,
  helm: { path: 'kubernetesApi.burst', type: 'number', comment: 'requests to the Kubernetes API at once above that rate after a quiet spell. Empty: 30.' },
};

/** The client-side limit of the one Kubernetes client every API module shares (see wire). */
export function kubeRateLimit(settings: Settings): TokenBucketLimit {
  return { ratePerSecond: numberSetting(settings, 'kubeApiQps', qps), burst: numberSetting(settings, 'kubeApiBurst', burst) };
}

/** Kubernetes: events name this process; the client's rate limit is the module's options. */
export const kubernetesApiModule = defineApiModule({
  api: kubernetesApi,
  options: { kubeApiQps: qps, kubeApiBurst: burst },
  runtime: ({ kube, identity }) => kubernetesRuntime(kube, { reportingController: 'keyward.dev/operator', reportingInstance: identity }),
});
