import { SHARD_LEASE_PREFIX } from '@keyward/runtime/controller';
import type { OperatorConfig } from './config.js';
import type { BindAddress } from './values.js';

/** The address as the Manager takes it: "127.0.0.1:8080", ":8080" for every interface, "0" for none. */
export function listenAddress(bind: BindAddress | 'disabled'): string {
  if (bind === 'disabled') return '0';
  return `${hostPart(bind.host ?? '')}:${String(bind.port)}`;
}

/** Where a server listens as a URL to paste: "https://127.0.0.1:8080/metrics", "*" for every interface. */
export function servedUrl(bind: BindAddress | 'disabled', scheme: 'http' | 'https', path: string): string {
  if (bind === 'disabled') return 'disabled';
  return `${scheme}://${hostPart(bind.host ?? '*')}:${String(bind.port)}${path}`;
}

function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** What the start line tells beside the configuration: facts of the running process. */
export interface StartFacts {
  readonly version: string;
  /** The API server, from the kubeconfig. */
  readonly server: string;
  readonly identity: string;
  /** Whether the metrics are served over HTTPS (see metricsSecurity). */
  readonly metricsOverHttps: boolean;
}

/**
 * The fields of the operator's "starting" line: what runs, which version, against which API server, and where
 * to reach its metrics and probes. One address for both is one server: the probes then share the metrics' scheme.
 */
export function startDetails(config: OperatorConfig, facts: StartFacts): Record<string, unknown> {
  const metricsScheme = facts.metricsOverHttps ? 'https' : 'http';
  const shared = listenAddress(config.healthBindAddress) === listenAddress(config.metricsBindAddress);
  const { leaderElection } = config;
  return {
    version: facts.version,
    controllers: config.controllers,
    namespaces: config.namespaces,
    server: facts.server,
    metrics: servedUrl(config.metricsBindAddress, metricsScheme, '/metrics'),
    health: servedUrl(config.healthBindAddress, shared ? metricsScheme : 'http', '/healthz'),
    leaderElection: config.sharding ? 'off' : leaderElection.enabled ? `${leaderElection.leaseNamespace}/${leaderElection.leaseName}` : 'off',
    ...(config.sharding ? { sharding: `${leaderElection.leaseNamespace}/${SHARD_LEASE_PREFIX}*` } : {}),
    identity: facts.identity,
  };
}
