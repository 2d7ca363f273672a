// Client-side counts of what one process's clients asked of the API server and of Keystone, by call and
// answer: for comparing a controller's requests with a floor script's.
import type { KeystoneRequestObserver, KubeRequestInfo } from '@keyward/runtime/io';
import { sumOfVerbs, total, type Counts } from './counts.js';

const KUBE_WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

export interface TallySnapshot {
  /** "<verb> <resource> <status>"; watches are not counted (they do not go through KubeClient). */
  readonly kubernetes: Counts;
  /** "<operation> <status>". */
  readonly keystone: Counts;
}

export class RequestTally {
  readonly #kube = new Map<string, number>();
  readonly #keystone = new Map<string, number>();
  #waiters: readonly { readonly key: string; readonly count: number; readonly done: () => void }[] = [];

  /** For KubeClient's onRequest option. */
  readonly onKubeRequest = (info: KubeRequestInfo): void => {
    const key = `${info.verb} ${info.resource} ${String(info.status)}`;
    bump(this.#kube, key);
    const reached = this.#waiters.filter((waiter) => waiter.key === key && (this.#kube.get(key) ?? 0) >= waiter.count);
    if (reached.length === 0) return;
    this.#waiters = this.#waiters.filter((waiter) => !reached.includes(waiter));
    for (const waiter of reached) waiter.done();
  };

  /**
   * Resolves once `count` Kubernetes requests "<verb> <resource> <status>" have been answered: the moment the
   * last of N objects was created, as the creator learnt it, with no watch adding work to the API server.
   */
  whenCounted(key: string, count: number): Promise<void> {
    if ((this.#kube.get(key) ?? 0) >= count) return Promise.resolve();
    return new Promise((done) => {
      this.#waiters = [...this.#waiters, { key, count, done }];
    });
  }

  /** For keystoneClientPool's or KeystoneClient's observer option. */
  readonly keystoneObserver: KeystoneRequestObserver = {
    onRequest: (info) => {
      bump(this.#keystone, `${info.operation} ${String(info.status)}`);
    },
  };

  snapshot(): TallySnapshot {
    return { kubernetes: Object.fromEntries(this.#kube), keystone: Object.fromEntries(this.#keystone) };
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Totals of a snapshot: Kubernetes writes (answered or not), all Kubernetes requests, Keystone calls. */
export function totals(snapshot: TallySnapshot): { kubernetesWrites: number; kubernetesRequests: number; keystoneCalls: number } {
  return { kubernetesWrites: sumOfVerbs(snapshot.kubernetes, KUBE_WRITE_VERBS), kubernetesRequests: total(snapshot.kubernetes), keystoneCalls: total(snapshot.keystone) };
}
