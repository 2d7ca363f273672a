import { defineApiRuntime, type ApiRuntime } from '@keyward/kernel/interpreter';
import { kubernetesApi } from '@keyward/kernel';
import { type KubernetesAction, type KubernetesQuery } from '@keyward/kernel/plan';
import type { KubeClient } from './client.js';
import { kubernetesHandlers, type KubernetesHandlerOptions } from './handlers.js';
import { kubernetesQueries } from './queries.js';

/** The Kubernetes API module's runtime: its actions through `kube`, its reads from the controller's caches first. */
export function kubernetesRuntime(kube: KubeClient, options: KubernetesHandlerOptions): ApiRuntime<KubernetesAction, KubernetesQuery> {
  return defineApiRuntime({
    api: kubernetesApi,
    handlers: kubernetesHandlers(kube, options),
    queries: (scope) => kubernetesQueries(kube, scope),
  });
}
