import type { ResourceType, KubeObject } from '@keyward/kernel';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { Informer, type InformerEvent, type InformerOptions } from './informer.js';

/** Which objects an informer holds: a type, in one namespace or all, narrowed by labels. */
export interface InformerScope {
  readonly type: ResourceType;
  readonly namespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
}

/** What one user of a shared informer is told about, besides the objects. */
export interface InformerUser {
  readonly onProblem?: (message: string, error?: unknown, retrying?: boolean) => void;
  readonly onRecovered?: () => void;
}

/** One user's handle on a shared informer. */
export interface SharedInformer {
  /**
   * Tells `handler` about every change from now on. When the informer has already listed, the objects it
   * holds are replayed as 'added' first, so a late user starts from the same picture as the first one.
   */
  subscribe(handler: (event: InformerEvent) => void): void;
  /** Resolves once the first list is in the cache. */
  start(): Promise<void>;
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(namespace?: string): KubeObject[];
  keys(): string[];
  /** This user is done: its handlers stop, and the last user to release stops the watch. */
  release(): Promise<void>;
}

interface Entry {
  readonly informer: Informer;
  readonly users: Set<InformerUser>;
}

function scopeKey({ type, namespace, labels }: InformerScope): string {
  const selector = Object.entries(labels ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
  return `${type.group}/${type.version}/${type.plural}|${namespace ?? '*'}|${selector}`;
}

/**
 * Informers shared by every controller of a manager: one list and watch per type, namespace and label
 * selector, whichever controllers ask for it, as controller-runtime's shared cache does.
 */
export class SharedInformers {
  readonly #kube: KubeClient;
  readonly #options: Pick<InformerOptions, 'silenceTimeoutMs' | 'watchTimeoutSeconds' | 'backoff' | 'reconnectMaxMs'>;
  readonly #entries = new Map<string, Entry>();

  constructor(kube: KubeClient, options: Pick<InformerOptions, 'silenceTimeoutMs' | 'watchTimeoutSeconds' | 'backoff' | 'reconnectMaxMs'> = {}) {
    this.#kube = kube;
    this.#options = options;
  }

  /** Watches in use: one per distinct scope. */
  get size(): number {
    return this.#entries.size;
  }

  /** A handle on the informer of `scope`, created (not started) on first use. */
  acquire(scope: InformerScope, user: InformerUser = {}): SharedInformer {
    const key = scopeKey(scope);
    const entry = this.#entries.get(key) ?? this.#create(key, scope);
    entry.users.add(user);
    const unsubscribes: (() => void)[] = [];
    return {
      subscribe: (handler) => {
        if (entry.informer.hasSynced()) for (const object of entry.informer.list()) handler({ type: 'added', object });
        unsubscribes.push(entry.informer.subscribe(handler));
      },
      start: () => entry.informer.start(),
      get: (namespace, name) => entry.informer.get(namespace, name),
      list: (namespace) => entry.informer.list(namespace),
      keys: () => entry.informer.keys(),
      release: async () => {
        for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
        entry.users.delete(user);
        if (entry.users.size > 0 || this.#entries.get(key) !== entry) return;
        this.#entries.delete(key);
        await entry.informer.stop();
      },
    };
  }

  /** Stops every informer, whoever still uses it. */
  async stop(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(entries.map((entry) => entry.informer.stop()));
  }

  #create(key: string, scope: InformerScope): Entry {
    const users = new Set<InformerUser>();
    const informer = new Informer(this.#kube, {
      ...this.#options,
      type: scope.type,
      namespace: scope.namespace,
      labels: scope.labels,
      onProblem: (message, error, retrying) => {
        for (const user of users) user.onProblem?.(message, error, retrying);
      },
      onRecovered: () => {
        for (const user of users) user.onRecovered?.();
      },
    });
    const entry = { informer, users };
    this.#entries.set(key, entry);
    return entry;
  }
}
