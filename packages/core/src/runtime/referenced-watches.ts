import type { ResourceType, KubeObject } from '@keyward/vocabulary';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { KeywardError, type WatchedByReference } from '@keyward/vocabulary/interpreter';
import { Informer } from './informer.js';

interface Watched {
  readonly informer: Informer;
  readonly owners: Set<string>;
  /** Its last list or watch was answered with 404: the API server does not serve the type (yet). */
  notServed: boolean;
}

/** What a primary refers to: one object by name, or (without a name) every object of the type in the namespace. */
export interface Reference {
  readonly type: ResourceType;
  readonly namespace: string;
  readonly name?: string | undefined;
}

function keyOf(type: ResourceType, namespace: string, name: string | undefined): string {
  return `${type.group}/${type.plural}/${namespace}/${name ?? '*'}`;
}

/**
 * A list that the API server answers with 404 is of a type it does not serve (a CRD that is not installed):
 * the reads of that type say so in the status of each object that needs it, and the log says it once.
 */
function notServed(error: unknown): boolean {
  return error instanceof KeywardError && error.api === 'kubernetes' && error.code === 404;
}

/**
 * Watches single objects by name (or a type in a namespace) for as long as some primary object refers to
 * them, tells which primary keys to wake when one changes (appears, is edited, goes away), and answers reads of
 * them once the watch has listed. One watch per referenced object, however many primaries share it.
 */
export class ReferencedWatches implements WatchedByReference {
  readonly #watched = new Map<string, Watched>();
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #onProblem: (message: string, error?: unknown) => void;

  constructor(
    private readonly kube: KubeClient,
    private readonly wake: (owner: string) => void,
    onProblem: (message: string, error?: unknown) => void,
  ) {
    this.#onProblem = (message, error) => { if (!notServed(error)) onProblem(message, error); };
  }

  /** Sets what `owner` refers to now; watches start and stop as needed. */
  track(owner: string, refs: readonly Reference[]): void {
    const wanted = new Map(refs.map((ref) => [keyOf(ref.type, ref.namespace, ref.name), ref]));
    for (const key of this.#byOwner.get(owner) ?? []) if (!wanted.has(key)) this.#release(owner, key);
    for (const [key, ref] of wanted) {
      let watched = this.#watched.get(key);
      if (watched === undefined) {
        const state = { notServed: false };
        const informer = new Informer(this.kube, {
          type: ref.type, namespace: ref.namespace, name: ref.name,
          onProblem: (message, error) => {
            if (notServed(error)) state.notServed = true;
            this.#onProblem(message, error);
          },
          onRecovered: () => { state.notServed = false; },
        });
        watched = Object.assign(state, { informer, owners: new Set<string>() });
        this.#watched.set(key, watched);
        const owners = watched.owners;
        informer.subscribe(() => { for (const o of owners) this.wake(o); });
        informer.start().catch(() => undefined);
      }
      watched.owners.add(owner);
    }
    this.#byOwner.set(owner, new Set(wanted.keys()));
  }

  /** The owner is gone: stop watching what only it referred to. */
  forget(owner: string): void {
    for (const key of this.#byOwner.get(owner) ?? []) this.#release(owner, key);
    this.#byOwner.delete(owner);
  }

  get(type: ResourceType, namespace: string, name: string): { readonly object: KubeObject | undefined } | undefined {
    const informer = this.#listed(keyOf(type, namespace, name)) ?? this.#listed(keyOf(type, namespace, undefined));
    return informer === undefined ? undefined : { object: informer.get(namespace, name) };
  }

  list(type: ResourceType, namespace: string): readonly KubeObject[] | undefined {
    return this.#listed(keyOf(type, namespace, undefined))?.list(namespace);
  }

  /**
   * Whether the watch of the type in the namespace found it not served. It keeps listing with backoff (at most
   * every 30 s, quietly), and once the CRD is installed the objects it lists wake their primaries.
   */
  notServed(type: ResourceType, namespace: string): boolean {
    return this.#watched.get(keyOf(type, namespace, undefined))?.notServed === true;
  }

  async stop(): Promise<void> {
    const informers = [...this.#watched.values()].map((w) => w.informer);
    this.#watched.clear();
    this.#byOwner.clear();
    await Promise.all(informers.map((informer) => informer.stop()));
  }

  /** Objects watched now (for tests and metrics). */
  get size(): number {
    return this.#watched.size;
  }

  /** The informer of a watch that has listed: until then it knows nothing, and reads go to the API server. */
  #listed(key: string): Informer | undefined {
    const informer = this.#watched.get(key)?.informer;
    return informer?.hasSynced() === true ? informer : undefined;
  }

  #release(owner: string, key: string): void {
    const watched = this.#watched.get(key);
    if (watched === undefined) return;
    watched.owners.delete(owner);
    if (watched.owners.size > 0) return;
    this.#watched.delete(key);
    void watched.informer.stop();
  }
}
