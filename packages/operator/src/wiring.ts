import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, TokenCache, keystoneClientPool, standardHandlers, type Handlers, type KeystoneClientPool } from '@keyward/core/interpreter';
import {
  Controller,
  RuntimeMetrics,
  controllerMetrics,
  endpointAvailabilityLog,
  endpointAvailabilityMetrics,
  keystoneRequestMetrics,
  kubeRequestMetrics,
  type RuntimeLogger,
  type Runnable,
} from '@keyward/core/runtime';
import { appCredController, defaultAppCredConfig } from '@keyward/keystone-appcred';
import { apiKeyController } from '@keyward/apikey-enforcement';
import type { ConnectionConfig } from './config.js';
import type { ControllerName } from './controllers.js';

/** The kubeconfig: the --kubeconfig file, else the usual places (KUBECONFIG, ~/.kube/config, in-cluster). */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path === undefined) kubeConfig.loadFromDefault();
  else kubeConfig.loadFromFile(path);
  return kubeConfig;
}

/** This process, as events and the Lease name it: the pod (host) name and a random suffix. */
export function instanceIdentity(): string {
  return `${hostname()}-${randomBytes(3).toString('hex')}`;
}

/** Everything the controllers share: one Kubernetes client, Keystone clients, tokens, handlers and metrics. */
export interface Wiring {
  readonly kube: KubeClient;
  readonly handlers: Handlers;
  readonly keystone: { readonly keystoneClientFor: KeystoneClientPool; readonly tokens: TokenCache };
  readonly metrics: RuntimeMetrics;
  readonly identity: string;
}

/** `logger`, when given, is told when a Keystone endpoint goes down and when it answers again. */
export function wire(config: ConnectionConfig, logger?: RuntimeLogger): Wiring {
  const metrics = new RuntimeMetrics();
  const kube = new KubeClient(loadKubeConfig(config.kubeconfig), { onRequest: kubeRequestMetrics(metrics) });
  const keystoneClientFor = keystoneClientPool({ observer: keystoneRequestMetrics(metrics) });
  keystoneClientFor.subscribe(endpointAvailabilityMetrics(metrics));
  if (logger !== undefined) keystoneClientFor.subscribe(endpointAvailabilityLog(logger));
  const keystone = { keystoneClientFor, tokens: new TokenCache() };
  const identity = instanceIdentity();
  const handlers = standardHandlers({ kube, ...keystone, reportingController: 'keyward.dev/operator', reportingInstance: identity });
  return { kube, handlers, keystone, metrics, identity };
}

export interface ControllerSettings {
  readonly namespace: string | undefined;
  readonly concurrency: number;
  readonly keystoneUrl: string | undefined;
  readonly revokeOnDelete: boolean;
  readonly maxRetryDelayMs: number;
  readonly enforcementNamespace: string;
  readonly logger: RuntimeLogger;
}

/** One controller of the given name, wired to the shared clients and metrics. */
export function buildController(name: ControllerName, wiring: Wiring, settings: ControllerSettings): Runnable & { queueDepth(): number } {
  const common = {
    kube: wiring.kube,
    handlers: wiring.handlers,
    keystone: wiring.keystone,
    namespace: settings.namespace,
    concurrency: settings.concurrency,
    backoff: { maxMs: settings.maxRetryDelayMs },
    // A Keystone endpoint that answers again retries at once what waited for it.
    recoveries: wiring.keystone.keystoneClientFor,
    logger: settings.logger,
  };
  let depth = (): number => 0;
  const observer = controllerMetrics(wiring.metrics, name, () => depth());
  const controller =
    name === 'keystone-appcred'
      ? new Controller(appCredController, {
          ...common,
          observer,
          config: { ...defaultAppCredConfig, keystoneUrl: settings.keystoneUrl, revokeOnDelete: settings.revokeOnDelete },
        })
      : new Controller(apiKeyController, { ...common, observer, config: { enforcementNamespace: settings.enforcementNamespace } });
  depth = () => controller.queueState().depth;
  return { name: controller.name, start: () => controller.start(), stop: () => controller.stop(), queueDepth: depth };
}
