import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { KubeClient } from '@keyward/runtime/io';
import {
  ApiServerReachability,
  RuntimeMetrics,
  controllerMetrics,
  endpointAvailabilityLog,
  endpointAvailabilityMetrics,
  kubeRequestMetrics,
  type KeyOwnership,
  type ResyncLoops,
  type RuntimeLogger,
  type Runnable,
  type SharedInformers,
  type WatchTroubleLog,
} from '@keyward/runtime/controller';
import { kubeRateLimit } from './api-modules/kubernetes.js';
import { operatorApis, type OperatorApis } from './apis.js';
import type { ConnectionConfig, ModuleSettings } from './config.js';
import type { OperatorModule } from './controllers.js';
import { loadKubeConfig } from './kubeconfig.js';

/** This process, as events and the Lease name it: the pod (host) name and a random suffix. */
export function instanceIdentity(): string {
  return `${hostname()}-${randomBytes(3).toString('hex')}`;
}

/** The API server a kubeconfig points at. */
export function apiServer(kubeConfig: KubeConfig): string {
  return kubeConfig.getCurrentCluster()?.server ?? 'none';
}

/** Everything the controllers share: one Kubernetes client, the API modules (Keystone clients, tokens) and metrics. */
export interface Wiring {
  readonly kube: KubeClient;
  readonly apis: OperatorApis;
  readonly metrics: RuntimeMetrics;
  readonly identity: string;
  /** Says when the API server cannot be reached; there when wire() was given a logger. */
  readonly reachability?: ApiServerReachability;
  /** Stops the API modules' background work and closes the Kubernetes client. */
  close(): void;
}

/**
 * `logger`, when given, is told when an endpoint of an API goes down and when it answers again, the
 * Kubernetes API server's included. Rejects with a KubeconfigError, one line, when the kubeconfig cannot be
 * used.
 */
export async function wire(config: ConnectionConfig, logger?: RuntimeLogger): Promise<Wiring> {
  const metrics = new RuntimeMetrics();
  const kubeConfig = await loadKubeConfig(config.kubeconfig, { context: config.context });
  const reachability = logger === undefined ? undefined : new ApiServerReachability(logger, { server: apiServer(kubeConfig) });
  const requestMetrics = kubeRequestMetrics(metrics);
  const kube = new KubeClient(kubeConfig, {
    onRequest: reachability === undefined ? requestMetrics : (info) => {
      requestMetrics(info);
      reachability.onRequest(info);
    },
    rateLimit: kubeRateLimit(config),
  });
  const identity = instanceIdentity();
  // Each API module makes its clients with the settings its options name, their metrics on this registry.
  const apis = operatorApis({ kube, identity, metrics, settings: config });
  apis.availability.subscribe(endpointAvailabilityMetrics(metrics));
  if (logger !== undefined) apis.availability.subscribe(endpointAvailabilityLog(logger));
  return {
    kube,
    apis,
    metrics,
    identity,
    ...(reachability === undefined ? {} : { reachability }),
    close: () => {
      apis.close();
      kube.close();
    },
  };
}

export interface ControllerSettings {
  readonly namespace: string | undefined;
  readonly concurrency: number;
  readonly maxRetryDelayMs: number;
  /** The operator's settings; each module takes its own fields (see moduleConfig). */
  readonly settings: ModuleSettings;
  /** Shared by the controllers of one term of leadership. */
  readonly informers: SharedInformers;
  /** With sharding: which objects are this replica's. */
  readonly shard?: KeyOwnership;
  /** The term's resync loops: the controllers that spread their resync share one per period (else each has its own). */
  readonly resyncLoops?: ResyncLoops;
  /** The process's log of watch trouble: an API server restart is told once for every controller. */
  readonly watchTrouble?: WatchTroubleLog;
  readonly logger: RuntimeLogger;
}

/** The controller of a module, wired to the shared clients and metrics. */
export function buildController(module: OperatorModule<OperatorApis>, wiring: Wiring, settings: ControllerSettings): Runnable & { queueDepth(): number } {
  const name = module.definition.name;
  let depth = (): number => 0;
  const controller = module.controller(wiring.apis, settings.settings, {
    kube: wiring.kube,
    namespace: settings.namespace,
    concurrency: settings.concurrency,
    backoff: { maxMs: settings.maxRetryDelayMs },
    informers: settings.informers,
    ...(settings.shard === undefined ? {} : { shard: settings.shard }),
    ...(settings.resyncLoops === undefined ? {} : { resyncLoops: settings.resyncLoops }),
    ...(settings.watchTrouble === undefined ? {} : { watchTrouble: settings.watchTrouble }),
    logger: settings.logger,
    ...(wiring.reachability === undefined ? {} : { reachability: wiring.reachability }),
    observer: controllerMetrics(wiring.metrics, name, () => depth()),
  });
  depth = () => controller.queueState().depth;
  return { name: controller.name, requires: controller.requires, start: () => controller.start(), stop: () => controller.stop(), queueDepth: depth };
}
