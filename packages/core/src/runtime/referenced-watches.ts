import type { ResourceType } from '../model/refs.js';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { Informer } from './informer.js';

interface Watched {
  readonly informer: Informer;
  readonly owners: Set<string>;
}

/**
 * Watches single objects by name for as long as some primary object refers to them, and tells which primary
 * keys to wake when one changes (appears, is edited, goes away). One watch per referenced object, however many
 * primaries share it.
 */
export class ReferencedWatches {
  readonly #watched = new Map<string, Watched>();
  readonly #byOwner = new Map<string, Set<string>>();

  constructor(
    private readonly kube: KubeClient,
    private readonly wake: (owner: string) => void,
    private readonly onProblem: (message: string, error?: unknown) => void,
  ) {}

  /** Sets what `owner` refers to now; watches start and stop as needed. */
  track(owner: string, refs: readonly { readonly type: ResourceType; readonly namespace: string; readonly name: string }[]): void {
    const wanted = new Map(refs.map((ref) => [`${ref.type.group}/${ref.type.plural}/${ref.namespace}/${ref.name}`, ref]));
    for (const key of this.#byOwner.get(owner) ?? []) if (!wanted.has(key)) this.#release(owner, key);
    for (const [key, ref] of wanted) {
      let watched = this.#watched.get(key);
      if (watched === undefined) {
        const informer = new Informer(this.kube, { type: ref.type, namespace: ref.namespace, name: ref.name, onProblem: this.onProblem });
        watched = { informer, owners: new Set() };
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

  #release(owner: string, key: string): void {
    const watched = this.#watched.get(key);
    if (watched === undefined) return;
    watched.owners.delete(owner);
    if (watched.owners.size > 0) return;
    this.#watched.delete(key);
    void watched.informer.stop();
  }
}
