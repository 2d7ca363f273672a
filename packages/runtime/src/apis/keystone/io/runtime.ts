import { defineApiRuntime, AvailabilityListeners, type ApiRuntime, type AvailabilityListener, type AvailabilitySource, type QueryScope } from '@keyward/kernel/interpreter';
import type { KubeObject, ObjectRef } from '@keyward/kernel';
import type { KubeClient } from '../../kubernetes/io/client.js';
import { readSecretKey } from '../../kubernetes/io/secret-key.js';
import { keystoneApi } from '@keyward/kernel';
import { type KeystoneAction, type KeystoneQuery } from '@keyward/kernel/plan';
import { KeystoneClient, type KeystoneClientOptions } from './client.js';
import { keystoneHandlers } from './handlers.js';
import { keystoneQueries } from './queries.js';
import { TokenCache } from './token-cache.js';

/** Keystone clients by endpoint, created on first use, and the availability changes of them all. */
export interface KeystoneClientPool extends AvailabilitySource {
  (endpoint: string): KeystoneClient;
  /** Stops every client's probing; for a pool that is no longer used. */
  close(): void;
}

/** Keystone clients, one per endpoint (so each has its own limiter and breaker), created on first use. */
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

/** An object from the watches of the objects the controller's primaries refer to, when one covers it. */
function readWatched(scope: QueryScope, ref: ObjectRef): Promise<KubeObject | undefined> | undefined {
  const watched = ref.namespace === undefined ? undefined : scope.referenced?.get(ref.type, ref.namespace, ref.name);
  return watched === undefined ? undefined : Promise.resolve(watched.object);
}

export interface KeystoneRuntimeOptions {
  /** Reads the passwords that authenticate actions and token queries name by Secret. */
  readonly kube: KubeClient;
  /** Options of each endpoint's client (timeouts, limiter, request observer); ignored when `clients` is given. */
  readonly client?: Omit<KeystoneClientOptions, 'baseUrl'>;
  /** A pool to share (with a test, say); by default one is created. */
  readonly clients?: KeystoneClientPool;
  readonly tokens?: TokenCache;
}

/**
 * The Keystone API module's runtime: a client per endpoint, the actions' tokens reused until shortly before
 * they expire, and the token query answered by a fresh login.
 */
export function keystoneRuntime(options: KeystoneRuntimeOptions): ApiRuntime<KeystoneAction, KeystoneQuery> & { readonly clients: KeystoneClientPool } {
  const clients = options.clients ?? keystoneClientPool(options.client);
  return {
    ...defineApiRuntime<KeystoneAction, KeystoneQuery>({
      api: keystoneApi,
      handlers: keystoneHandlers({ clientFor: clients, tokens: options.tokens ?? new TokenCache(), readSecretKey: (ref, context) => readSecretKey(options.kube, ref, context.readObject) }),
      // A password Secret the controller watches by reference is read from that watch's cache.
      queries: (scope) => keystoneQueries({ clientFor: clients, readSecretKey: (ref) => readSecretKey(options.kube, ref, (secret) => readWatched(scope, secret) ?? options.kube.get(secret)) }),
      availability: clients,
      close: () => { clients.close(); },
    }),
    clients,
  };
}
