import type { KeywardErrorFields } from '@keyward/kernel/interpreter';

/** What a change of something a key watches does to the work queue. */
export interface ChangeQueue {
  add(key: string): void;
  addUnlessBackingOff(key: string): void;
}

/** A server error (HTTP 5xx) as a server answers it: the same signature twice is the same answer. */
function serverErrorSignature(failure: KeywardErrorFields | undefined): string | undefined {
  return failure === undefined || failure.code < 500 ? undefined : JSON.stringify([failure.api, failure.code, failure.reason, failure.message]);
}

/**
 * Keys whose server answers the same server error on every try. A change of what such a key watches (its
 * realm's status, a Secret) does not make the server answer otherwise, so it leaves the key's backoff to run
 * its course instead of retrying at once as it does after other failures: the retries slow down to the
 * backoff's cap rather than starting over with every such change. A change of the key's own spec still
 * retries it at once (the controller queues it directly).
 */
export class RepeatedFailures {
  readonly #queue: ChangeQueue;
  /** Key -> the signature of its last server error. */
  readonly #last = new Map<string, string>();
  readonly #repeating = new Set<string>();

  constructor(queue: ChangeQueue) {
    this.#queue = queue;
  }

  /** Records how a run of `key` ended: with this failure (retried with backoff), or none. */
  settled(key: string, failure: KeywardErrorFields | undefined): void {
    const signature = serverErrorSignature(failure);
    if (signature === undefined) {
      this.forget(key);
      return;
    }
    if (this.#last.get(key) === signature) this.#repeating.add(key);
    else this.#repeating.delete(key);
    this.#last.set(key, signature);
  }

  /** Something `key` watches changed: queue it now, unless its server fails it the same way each time. */
  changed(key: string): void {
    if (this.#repeating.has(key)) this.#queue.addUnlessBackingOff(key);
    else this.#queue.add(key);
  }

  /** Whether the last two runs of `key` failed with the same server error; for logs and tests. */
  repeating(key: string): boolean {
    return this.#repeating.has(key);
  }

  forget(key: string): void {
    this.#last.delete(key);
    this.#repeating.delete(key);
  }
}
