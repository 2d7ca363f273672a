import type { ResourceType, KubeObject } from '@keyward/kernel';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { Informer } from './informer.js';

export interface BurstWatchOptions {
  /** Direct reads of one type in one namespace, within `windowMs`, that start a watch of the namespace. Default 16. */
  readonly threshold?: number;
  /** Default 5 s. */
  readonly windowMs?: number;
  /** A namespace watch no read has asked for in this long is stopped. Default 30 s. */
  readonly idleMs?: number;
  /** A namespace holding more objects of the type than this is never watched; its reads stay GETs. Default 5,000. */
  readonly maxObjects?: number;
  /** Milliseconds clock, for tests. */
  readonly now?: () => number;
}

/** What burst watches report: starts and stops at info level, list/watch trouble as problems, and a count for metrics. */
export interface BurstWatchReporter {
  info(message: string, meta: Record<string, unknown>): void;
  problem(message: string, error?: unknown): void;
  /** The number of namespaces watched, whenever it changes. */
  watching?(namespaces: number): void;
}

/** Counts events per key in fixed windows and tells when a key reaches the threshold within one window. */
export class BurstCounter {
  readonly #windows = new Map<string, { readonly start: number; count: number }>();

  constructor(
    private readonly threshold: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one event at `now`; true once the key's current window holds `threshold` events. */
  record(key: string, now: number): boolean {
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      this.#dropEnded(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return window.count >= this.threshold;
  }

  /** Keys with a window still open (for tests: ended windows do not pile up). */
  get size(): number {
    return this.#windows.size;
  }

  #dropEnded(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= this.windowMs) this.#windows.delete(key);
  }
}

/** A namespace being sized up, watched, or left unwatched; kept while reads keep coming. */
interface Entry {
  readonly resource: string;
  readonly namespace: string;
  lastRead: number;
  watch: Informer | 'sizing' | 'unwatched';
}

interface WatchTarget {
  readonly type: ResourceType;
  readonly namespace: string;
  readonly fields: string | undefined;
}

const DEFAULTS = { threshold: 16, windowMs: 5_000, idleMs: 30_000, maxObjects: 5_000 } as const;

/**
 * Watches a whole namespace for a while when many objects of one type in it are read by name at about the
 * same time (a backlog of primaries that each read their own source), so the rest of the burst is answered
 * from memory instead of one GET each. Memory stays bounded: only namespaces with at most `maxObjects` of the
 * type are watched (one LIST with limit=1 asks the server how many there are), a field selector given with
 * the read narrows what the watch holds, and a watch stops once no read has asked for it in `idleMs`. Until
 * its first list is in, for objects it does not hold, and once the watch has run into any trouble, reads go
 * to the API.
 */
export class BurstWatches {
  readonly #entries = new Map<string, Entry>();
  readonly #counter: BurstCounter;
  readonly #idleMs: number;
  readonly #maxObjects: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly reporter: BurstWatchReporter,
    options: BurstWatchOptions = {},
  ) {
    this.#counter = new BurstCounter(options.threshold ?? DEFAULTS.threshold, options.windowMs ?? DEFAULTS.windowMs);
    this.#idleMs = options.idleMs ?? DEFAULTS.idleMs;
    this.#maxObjects = options.maxObjects ?? DEFAULTS.maxObjects;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The object, when a synced watch of its namespace (narrowed by the field selector `fields`) holds it.
   * Otherwise undefined, and the caller reads it from the API; the read counts towards a burst that starts a
   * watch.
   */
  get(type: ResourceType, namespace: string, name: string, fields?: string): KubeObject | undefined {
    const key = `${type.group}/${type.plural}/${namespace}?${fields ?? ''}`;
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      entry.lastRead = now;
      return entry.watch instanceof Informer && entry.watch.hasSynced() ? entry.watch.get(namespace, name) : undefined;
    }
    if (!this.#stopped && this.#counter.record(key, now)) this.#begin(key, { type, namespace, fields }, now);
    return undefined;
  }

  /** Namespaces watched now whose first list is in (the watches answering reads). */
  get size(): number {
    return this.#watches().filter((informer) => informer.hasSynced()).length;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    const watches = this.#watches();
    this.#entries.clear();
    if (watches.length > 0) this.reporter.watching?.(0);
    await Promise.all(watches.map((informer) => informer.stop()));
  }

  #begin(key: string, { type, namespace, fields }: WatchTarget, now: number): void {
    const entry: Entry = { resource: type.plural, namespace, lastRead: now, watch: 'sizing' };
    this.#entries.set(key, entry);
    this.#timer ??= setInterval(() => { this.#stopIdle(); }, Math.max(1, Math.floor(this.#idleMs / 2))).unref();
    void this.#count(type, namespace).then((objects) => {
      if (this.#entries.get(key) !== entry) return;
      const meta = { resource: type.plural, namespace, ...(fields === undefined ? {} : { fields }), objects };
      if (objects === undefined || objects > this.#maxObjects) {
        entry.watch = 'unwatched';
        const why = objects === undefined ? 'its size is unknown' : 'it is too big to watch';
        this.reporter.info(`many reads in one namespace, but ${why}: reading each object`, { ...meta, maxObjects: this.#maxObjects });
        return;
      }
      // Any trouble (a watch that is refused, fails or expires) ends the watch: a cache that may have stopped
      // following the namespace must not answer, and the reads are served by GETs as before the burst.
      const informer = new Informer(this.kube, {
        type,
        namespace,
        fields,
        onProblem: (message, error) => {
          this.reporter.problem(message, error);
          if (entry.watch !== informer) return;
          entry.watch = 'unwatched';
          void informer.stop();
          this.reporter.info('the namespace watch ran into trouble: reading each object again', meta);
          this.#reportWatching();
        },
      });
      entry.watch = informer;
      informer.start().catch(() => undefined);
      this.reporter.info('many reads in one namespace: watching it while they last', meta);
      this.#reportWatching();
    });
  }

  /**
   * How many objects of the type the namespace holds, whatever the field selector: the server counts only
   * unfiltered lists, and the whole namespace bounds the selected part. Undefined when it cannot tell.
   */
  async #count(type: ResourceType, namespace: string): Promise<number | undefined> {
    try {
      const page = await this.kube.list(type, { namespace, limit: 1 });
      if (page.continueToken === undefined) return page.items.length;
      return page.remainingItemCount === undefined ? undefined : page.items.length + page.remainingItemCount;
    } catch (error) {
      this.reporter.problem(`could not count the ${type.plural} in ${namespace}`, error);
      return undefined;
    }
  }

  /** The watches started (synced or not). */
  #watches(): Informer[] {
    return [...this.#entries.values()].flatMap((entry) => (entry.watch instanceof Informer ? [entry.watch] : []));
  }

  #reportWatching(): void {
    this.reporter.watching?.(this.#watches().length);
  }

  #stopIdle(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (now - entry.lastRead < this.#idleMs) continue;
      this.#entries.delete(key);
      if (entry.watch instanceof Informer) {
        void entry.watch.stop();
        this.reporter.info('the reads in the namespace stopped: no longer watching it', { resource: entry.resource, namespace: entry.namespace });
        this.#reportWatching();
      }
    }
    if (this.#entries.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
