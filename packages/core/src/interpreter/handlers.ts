import { controlHandlers } from './control.js';
import { KeystoneClient, type KeystoneClientOptions } from './keystone/client.js';
import { keystoneHandlers } from './keystone/handlers.js';
import { TokenCache } from './keystone/token-cache.js';
import type { KubeClient } from './kubernetes/client.js';
import { kubernetesHandlers, type KubernetesHandlerOptions } from './kubernetes/handlers.js';
import type { Handlers } from './types.js';

export interface StandardHandlerOptions extends KubernetesHandlerOptions {
  readonly kube: KubeClient;
  /** Options for each Keystone endpoint's client (timeouts, limiter, observer). */
  readonly keystone?: Omit<KeystoneClientOptions, 'baseUrl'>;
}

/** Keystone clients, one per endpoint, created on first use. */
export function keystoneClientPool(options: Omit<KeystoneClientOptions, 'baseUrl'> = {}): (endpoint: string) => KeystoneClient {
  const clients = new Map<string, KeystoneClient>();
  return (endpoint) => {
    let client = clients.get(endpoint);
    if (client === undefined) {
      client = new KeystoneClient({ ...options, baseUrl: endpoint });
      clients.set(endpoint, client);
    }
    return client;
  };
}

/** The handler table for every built-in action: Kubernetes, Keystone and control. */
export function standardHandlers(options: StandardHandlerOptions): Handlers {
  return {
    ...kubernetesHandlers(options.kube, options),
    ...keystoneHandlers({ clientFor: keystoneClientPool(options.keystone), tokens: new TokenCache() }),
    ...controlHandlers,
  };
}
