import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { fieldSelector, labelSelector, resourcePath } from '../apis/kubernetes/io/paths.js';
import { KeywardError, reasonForStatus } from '@keyward/kernel/interpreter';
import type { ResourceType, KubeObject } from '@keyward/kernel';
import { KeyedBackoff } from './backoff.js';
import { ObjectCache, cachedForm, type InformerEvent, type ServerObject } from './object-cache.js';
import { unansweredKubeRequest } from './reachability.js';
import { openWatch, watchStatusCode, type WatchEvent } from './watch-stream.js';

export type { InformerEvent } from './object-cache.js';

export interface InformerOptions {
  readonly type: ResourceType;
  /** Watch one namespace; all namespaces when undefined. */
  readonly namespace?: string | undefined;
  /** Equality label selector that narrows what is listed, watched and cached (never every Secret in the cluster). */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Watch only the object of this name (a field selector): for objects referenced by name. */
  readonly name?: string | undefined;
  /** A field selector (`type=Opaque`) that narrows what is listed, watched and cached, ANDed with the name. */
  readonly fields?: string | undefined;
  /**
   * What the cache keeps of each object, applied as it arrives (a Secret no one asked for, kept without its
   * data, say). The subscribers and reads see the kept form.
   */
  readonly transform?: ((object: KubeObject) => KubeObject) | undefined;
  /** Restart a watch that has delivered nothing (not even a bookmark) for this long. Default 5 minutes. */
  readonly silenceTimeoutMs?: number;
  /** Server-side watch timeout sent as timeoutSeconds (default random 5-10 minutes, as client-go does). */
  readonly watchTimeoutSeconds?: number;
  /** Backoff between failed list/watch attempts. Defaults: 200 ms doubling to 30 s. */
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  /**
   * Longest wait between attempts while nothing answers at all (connection refused, reset or closed), default
   * 2 s: a refused connection costs the server nothing, and its return must be noticed within seconds however
   * long it was away. Errors the server answers with back off up to backoff.maxMs.
   */
  readonly reconnectMaxMs?: number;
  /**
   * Told about restarts and errors, for logs (don't import winston). console.warn by default. `retrying`: the
   * list or watch failed and is retried, and onRecovered follows once the server accepts it again.
   */
  readonly onProblem?: (message: string, error?: unknown, retrying?: boolean) => void;
  /** Told when, after failed attempts, the server accepts a list or a watch again. Must not throw. */
  readonly onRecovered?: () => void;
}

export interface InformerStats {
  /** Complete LISTs (all pages) applied to the cache, the first included. */
  readonly lists: number;
  /** LISTs that replaced an already synced cache (after a 410 Gone). */
  readonly relists: number;
  /** Watch requests opened after the first, whatever ended the previous one. */
  readonly watchRestarts: number;
}

const DEFAULT_SILENCE_MS = 5 * 60_000;
const DEFAULT_RECONNECT_MAX_MS = 2_000;
/** A watch the server closes this soon without sending anything counts as failed (client-go's "very short watch"). */
const SHORT_WATCH_MS = 1_000;
const BACKOFF_KEY = 'list-watch';

/** Why a watch ended, which decides what the informer does next. */
type WatchEnd =
  /** The server closed the stream, normally at timeoutSeconds; `healthy` unless it closed at once, empty. */
  | { readonly kind: 'closed'; readonly healthy: boolean }
  /** 410 Gone: the resourceVersion is no longer served; only a relist can tell what was missed. */
  | { readonly kind: 'expired'; readonly message: string }
  | { readonly kind: 'failed'; readonly error: unknown }
  /** The watchdog: nothing arrived for silenceTimeoutMs. */
  | { readonly kind: 'silent' }
  /** Asked for by restartWatchFrom. */
  | { readonly kind: 'restart' }
  | { readonly kind: 'stopped' };

interface Subscription {
  readonly handler: (event: InformerEvent) => void;
}

/**
 * A shared informer as client-go's reflector and controller-runtime's cache make it: LIST, then WATCH from the
 * list's resourceVersion, keeping a cache of the objects and telling subscribers about every change. A watch
 * the server closes resumes from the last resourceVersion seen (bookmarks included); a 410 Gone relists and
 * replaces the cache, which turns deletes missed while not watching into 'deleted' events; any other failure
 * retries with exponential backoff, forever, until stop(), and at least every reconnectMaxMs while the server
 * cannot be reached, so it is back to watching within seconds of the server's return.
 */
export class Informer {
  readonly #client: KubeClient;
  readonly #type: ResourceType;
  readonly #namespace: string | undefined;
  readonly #labels: Readonly<Record<string, string>> | undefined;
  readonly #name: string | undefined;
  readonly #fields: string | undefined;
  readonly #transform: (object: KubeObject) => KubeObject;
  readonly #silenceMs: number;
  readonly #watchTimeoutSeconds: number | undefined;
  readonly #onProblem: (message: string, error?: unknown, retrying?: boolean) => void;
  readonly #onRecovered: () => void;
  readonly #backoff: KeyedBackoff;
  readonly #reconnectMaxMs: number;
  readonly #cache = new ObjectCache();
  #subscriptions: readonly Subscription[] = [];

  #resourceVersion = '';
  #synced = false;
  #stopping = false;
  #sync: { readonly promise: Promise<void>; readonly resolve: () => void; readonly reject: (error: Error) => void } | undefined;
  #loop: Promise<void> | undefined;
  /** Ends what the loop is waiting for (the open watch, or a backoff pause). */
  #interrupt: ((end: WatchEnd) => void) | undefined;
  #lists = 0;
  #watches = 0;
  /** Whether an attempt failed since the server last accepted one. */
  #failing = false;
  /** Whether the last failure had no answer from the server at all. */
  #unanswered = false;

  constructor(client: KubeClient, options: InformerOptions) {
    this.#client = client;
    this.#type = options.type;
    this.#namespace = options.namespace;
    this.#labels = options.labels;
    this.#name = options.name;
    this.#fields = options.fields;
    this.#transform = options.transform ?? ((object) => object);
    this.#silenceMs = options.silenceTimeoutMs ?? DEFAULT_SILENCE_MS;
    this.#watchTimeoutSeconds = options.watchTimeoutSeconds;
    this.#onProblem = options.onProblem ?? ((message, error) => { console.warn(`informer: ${message}`, error ?? ''); });
    this.#onRecovered = options.onRecovered ?? (() => undefined);
    this.#backoff = new KeyedBackoff({ baseMs: options.backoff?.baseMs ?? 200, maxMs: options.backoff?.maxMs ?? 30_000 });
    this.#reconnectMaxMs = options.reconnectMaxMs ?? DEFAULT_RECONNECT_MAX_MS;
  }

  /** Registers a handler; returns an unsubscribe function. Handlers are called synchronously, in order, for every event. */
  subscribe(handler: (event: InformerEvent) => void): () => void {
    const subscription: Subscription = { handler };
    this.#subscriptions = [...this.#subscriptions, subscription];
    return () => {
      this.#subscriptions = this.#subscriptions.filter((s) => s !== subscription);
    };
  }

  /**
   * Starts list+watch; resolves once the first list is in the cache (and its 'added' events were delivered).
   * Rejects only if stop() was called first. Keeps retrying with backoff until the first list succeeds.
   */
  start(): Promise<void> {
    if (this.#sync === undefined) {
      let resolve = (): void => undefined;
      let reject = (_error: Error): void => undefined;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.#sync = { promise, resolve, reject };
      if (this.#stopping) reject(new Error(`informer for ${this.#describe()} was stopped before it started`));
      else this.#loop = this.#run();
    }
    return this.#sync.promise;
  }

  /**
   * Stops watching and clears timers; resolves when no request is in flight. A LIST in flight cannot be
   * cancelled (KubeClient has no abort), so stop() may wait for it, at most the client's timeout.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#interrupt?.({ kind: 'stopped' });
    if (!this.#synced) this.#sync?.reject(new Error(`informer for ${this.#describe()} was stopped before its first list`));
    await this.#loop;
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.#cache.get(namespace, name);
  }

  /** All cached objects, or those of one namespace. */
  list(namespace?: string): KubeObject[] {
    return this.#cache.list(namespace);
  }

  /** Cache keys ("namespace/name" or "name"). */
  keys(): string[] {
    return this.#cache.keys();
  }

  stats(): InformerStats {
    return { lists: this.#lists, relists: Math.max(0, this.#lists - 1), watchRestarts: Math.max(0, this.#watches - 1) };
  }

  /**
   * For tests: ends the current watch and watches again from `resourceVersion`, as if it were the last version
   * seen. With a version the server no longer serves, this exercises the 410 Gone path.
   * @internal
   */
  restartWatchFrom(resourceVersion: string): void {
    this.#resourceVersion = resourceVersion;
    this.#interrupt?.({ kind: 'restart' });
  }

  async #run(): Promise<void> {
    let mustList = true;
    while (!this.#stopping) {
      if (mustList) {
        if (!(await this.#list())) continue;
        mustList = false;
      }
      const end = await this.#watch();
      switch (end.kind) {
        case 'closed':
          if (!end.healthy) await this.#retryLater('the watch closed at once without events', undefined);
          break;
        case 'expired':
          mustList = true;
          await this.#retryLater(`the watch expired (${end.message}); relisting`, undefined);
          break;
        case 'failed':
          await this.#retryLater('the watch failed', end.error);
          break;
        case 'silent':
          this.#problem(`the watch was silent for ${String(this.#silenceMs)} ms; restarting it`);
          break;
        case 'restart':
        case 'stopped':
          break;
      }
    }
  }

  /** Lists every page and replaces the cache; false (after reporting and waiting) when the list failed. */
  async #list(): Promise<boolean> {
    let listed;
    try {
      listed = await this.#client.listAll(this.#type, { namespace: this.#namespace, labels: this.#labels, name: this.#name, fields: this.#fields });
    } catch (error) {
      await this.#retryLater('the list failed', error);
      return false;
    }
    if (this.#stopping) return false;
    this.#accepted();
    this.#resourceVersion = listed.resourceVersion;
    this.#lists++;
    this.#dispatch(this.#cache.replace(listed.items.map((item) => this.#kept(item))));
    if (!this.#synced) {
      this.#synced = true;
      this.#sync?.resolve();
    }
    return true;
  }

  /** Runs one watch from the last resourceVersion until it ends, and resolves once its request is over. */
  async #watch(): Promise<WatchEnd> {
    if (this.#stopping) return { kind: 'stopped' };
    this.#watches++;
    const opened = performance.now();
    let delivered = false;
    let result: WatchEnd | undefined;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let settle: (end: WatchEnd) => void = () => undefined;
    const ended = new Promise<WatchEnd>((resolve) => {
      settle = resolve;
    });
    const finish = (end: WatchEnd): void => {
      if (result !== undefined) return;
      result = end;
      clearTimeout(watchdog);
      settle(end);
    };
    const armWatchdog = (): void => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => { finish({ kind: 'silent' }); }, this.#silenceMs);
    };

    const stream = openWatch(
      this.#client.kubeConfig,
      resourcePath(this.#type, this.#namespace),
      {
        labelSelector: labelSelector(this.#labels),
        fieldSelector: fieldSelector(this.#name, this.#fields),
        resourceVersion: this.#resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: this.#watchTimeoutSeconds ?? Math.floor(300 + Math.random() * 300),
      },
      (event) => {
        if (result !== undefined) return;
        delivered = true;
        // The server answered, so the connection is healthy again (a 410 included: it only asks for a relist).
        if (event.type !== 'ERROR' || event.code === 410) this.#backoff.reset(BACKOFF_KEY);
        armWatchdog();
        const end = this.#apply(event);
        if (end !== undefined) finish(end);
      },
      () => {
        if (result === undefined) this.#accepted();
      },
    );
    void stream.closed.then((error) => {
      finish(closedEnd(error, delivered || performance.now() - opened >= SHORT_WATCH_MS));
    });
    armWatchdog();
    this.#interrupt = finish;
    const end = await ended;
    this.#interrupt = undefined;
    stream.abort();
    await stream.closed;
    return end;
  }

  /** Applies one watch event to the cache and tells subscribers; returns how the watch ends, if it does. */
  #apply(event: WatchEvent): WatchEnd | undefined {
    switch (event.type) {
      case 'BOOKMARK':
        this.#resourceVersion = event.resourceVersion;
        return undefined;
      case 'ERROR':
        if (event.code === 410) return { kind: 'expired', message: event.message };
        return { kind: 'failed', error: kubernetesError(event.code, event.message) };
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        const object = this.#kept(event.object);
        this.#resourceVersion = object.metadata.resourceVersion ?? this.#resourceVersion;
        const change = event.type === 'DELETED' ? this.#cache.remove(object) : this.#cache.upsert(object);
        if (change !== undefined) this.#dispatch([change]);
        return undefined;
      }
    }
  }

  #kept(object: ServerObject): KubeObject {
    return this.#transform(cachedForm(this.#type, object));
  }

  #dispatch(events: readonly InformerEvent[]): void {
    for (const event of events) {
      for (const { handler } of this.#subscriptions) {
        try {
          handler(event);
        } catch (error) {
          this.#problem(`a handler threw on the '${event.type}' event of ${event.object.metadata.name}`, error);
        }
      }
    }
  }

  /** The server accepted a list or a watch: after failed attempts, it is back. */
  #accepted(): void {
    this.#unanswered = false;
    if (!this.#failing) return;
    this.#failing = false;
    try {
      this.#onRecovered();
    } catch (error) {
      this.#problem('a recovery listener threw', error);
    }
  }

  /** Reports a failure and waits out the backoff, unless stop() ends the wait. */
  async #retryLater(what: string, error: unknown): Promise<void> {
    if (this.#stopping) return;
    this.#failing = true;
    const delay = this.#nextDelay(error !== undefined && unanswered(error));
    this.#problem(`${what}; retrying in ${String(delay)} ms`, error, true);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => { this.#interrupt = undefined; resolve(); }, delay);
      this.#interrupt = () => {
        clearTimeout(timer);
        this.#interrupt = undefined;
        resolve();
      };
    });
  }

  /**
   * Doubling from the base while the server answers with errors, which spares a server in trouble; at most
   * reconnectMaxMs while nothing answers. The first answer after such a spell doubles from the base again:
   * the delays the spell reached measured how long the server was away, not how loaded it is.
   */
  #nextDelay(withoutAnswer: boolean): number {
    if (!withoutAnswer && this.#unanswered) this.#backoff.reset(BACKOFF_KEY);
    this.#unanswered = withoutAnswer;
    const delay = this.#backoff.next(BACKOFF_KEY);
    return withoutAnswer ? Math.min(delay, this.#reconnectMaxMs) : delay;
  }

  #problem(message: string, error?: unknown, retrying = false): void {
    try {
      this.#onProblem(`${this.#describe()}: ${message}`, error, retrying);
    } catch {
      // A failing logger must not stop the informer.
    }
  }

  #describe(): string {
    const selector = [labelSelector(this.#labels), this.#fields].filter((part) => part !== undefined).join(',');
    return `${this.#type.plural}${this.#namespace === undefined ? '' : ` in ${this.#namespace}`}${selector === '' ? '' : ` (${selector})`}`;
  }
}

/**
 * Whether a failure had no HTTP answer at all: the connection was refused, reset or closed. A timeout is not
 * counted: a server too slow to answer may be one in trouble, which backing off spares.
 */
function unanswered(error: unknown): boolean {
  return unansweredKubeRequest(error, { timeouts: false });
}

/** How a watch that the server or the network ended (rather than the informer) ended. */
function closedEnd(error: unknown, healthy: boolean): WatchEnd {
  if (error === undefined) return { kind: 'closed', healthy };
  const status = watchStatusCode(error);
  if (status === 410) return { kind: 'expired', message: 'HTTP 410 Gone' };
  if (status === undefined) return { kind: 'failed', error };
  return { kind: 'failed', error: kubernetesError(status, `watch: ${reasonForStatus(status)}`) };
}

function kubernetesError(code: number, message: string): KeywardError {
  return new KeywardError({ api: 'kubernetes', code, reason: code === 0 ? 'Invalid' : reasonForStatus(code), message, retryable: true });
}
