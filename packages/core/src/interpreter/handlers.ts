import { AvailabilityListeners, type AvailabilityListener, type AvailabilitySource } from './availability.js';
import { controlHandlers } from '../apis/control/handlers.js';
import { KeystoneClient, type KeystoneClientOptions } from '../apis/keystone/io/client.js';
import { keystoneHandlers } from '../apis/keystone/io/handlers.js';
import { TokenCache } from '../apis/keystone/io/token-cache.js';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { kubernetesHandlers, type KubernetesHandlerOptions } from '../apis/kubernetes/io/handlers.js';
import type { Handlers } from './types.js';
import { readSecretKey } from '../apis/kubernetes/io/secret-key.js';

export interface StandardHandlerOptions extends KubernetesHandlerOptions {
  readonly kube: KubeClient;
  /** Options for each Keystone endpoint's client (timeouts, limiter, observer); ignored when clients are given. */
  readonly keystone?: Omit<KeystoneClientOptions, 'baseUrl'>;
  /** Share these with the runtime's query runner so reads and actions use the same clients and tokens. */
  readonly keystoneClientFor?: (endpoint: string) => KeystoneClient;
  readonly tokens?: TokenCache;
}

/** Keystone clients by endpoint, created on first use, and the availability changes of them all. */
export interface KeystoneClientPool extends AvailabilitySource {
  (endpoint: string): KeystoneClient;
  /** Stops every client's probing; for a pool that is no longer used. */
  close(): void;
}

/** Keystone clients, one per endpoint, created on first use. */
export function keystoneClientPool(options: Omit<KeystoneClientOptions, 'baseUrl'> = {}): KeystoneClientPool {
  const clients = new Map<string, KeystoneClient>();
  const changes = new AvailabilityListeners();
  const clientFor = (endpoint: string): KeystoneClient => {
    let client = clients.get(endpoint);
    if (client === undefined) {
      client = new KeystoneClient({ ...options, baseUrl: endpoint });
      client.availability.subscribe((change) => { changes.emit(change); });
      clients.set(endpoint, client);
    }
    return client;
  };
  return Object.assign(clientFor, {
    subscribe: (listener: AvailabilityListener) => changes.subscribe(listener),
    close: () => {
      for (const client of clients.values()) client.availability.close();
    },
  });
}

/** The handler table for every built-in action: Kubernetes, Keystone and control. */
export function standardHandlers(options: StandardHandlerOptions): Handlers {
  return {
    ...kubernetesHandlers(options.kube, options),
    ...keystoneHandlers({
      clientFor: options.keystoneClientFor ?? keystoneClientPool(options.keystone),
      tokens: options.tokens ?? new TokenCache(),
      readSecretKey: (ref) => readSecretKey(options.kube, ref),
    }),
    ...controlHandlers,
  };
}
