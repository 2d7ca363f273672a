import type { KeywardErrorFields } from '@keyward/kernel/interpreter';

/** What a failed attempt leaves to wait for: the API that failed, if the failure was worth retrying. */
export type WaitingFailure = Pick<KeywardErrorFields, 'api' | 'retryable'>;

/**
 * Keys waiting out a retryable failure of an external API, by API, so that when the API answers again they
 * are retried at once. During an outage each key's backoff grows (to minutes); without this a key would
 * wait out that backoff after the API is back. A key waits for the API of its last failure only: a
 * recovery of Keystone does not wake a key that failed on Keycloak, nor one whose Kubernetes write failed.
 */
export class RecoveryWakeups {
  readonly #wake: (key: string) => void;
  /** Key -> the API it waits for. */
  readonly #waiting = new Map<string, string>();
  /** API -> the sequence number of its last recovery. */
  readonly #recoveredAt = new Map<string, number>();
  #sequence = 0;

  constructor(wake: (key: string) => void) {
    this.#wake = wake;
  }

  /** Taken before an attempt and given to `settled`, so a recovery while the attempt runs is not missed. */
  mark(): number {
    return this.#sequence;
  }

  /**
   * Records how the attempt of `key` that began at `mark` ended: a failure leaves it waiting for the API
   * that failed, or wakes it at once if that API recovered while the attempt ran (its failure may predate
   * the recovery). Call after the key's retry was scheduled, so the wake supersedes that retry.
   */
  settled(key: string, mark: number, failure: WaitingFailure | undefined): void {
    this.#waiting.delete(key);
    if (!failure?.retryable) return;
    if ((this.#recoveredAt.get(failure.api) ?? -1) > mark) this.#wake(key);
    else this.#waiting.set(key, failure.api);
  }

  /** `api` answers again: wakes every key waiting for it and returns how many. */
  recovered(api: string): number {
    this.#recoveredAt.set(api, ++this.#sequence);
    let woken = 0;
    for (const [key, waitingFor] of this.#waiting) {
      if (waitingFor !== api) continue;
      this.#waiting.delete(key);
      this.#wake(key);
      woken++;
    }
    return woken;
  }

  /** Forgets `key` (its object is gone). */
  forget(key: string): void {
    this.#waiting.delete(key);
  }

  /** Keys waiting for a recovery; for tests and metrics. */
  waiting(): number {
    return this.#waiting.size;
  }
}
