import type { ResourceType, KubeObject } from '@keyward/kernel';
import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { KeywardError, type WatchedByReference } from '@keyward/kernel/interpreter';
import { Informer } from './informer.js';
import type { WatchTroubleReporter } from './watch-trouble.js';

/** Which updates of a referenced object wake the primary that refers to it (every one, when absent). */
export type WakesOn = (before: KubeObject, after: KubeObject) => boolean;

/** What a primary refers to: one object by name, or (without a name) every object of the type in the namespace. */
export interface Reference {
  readonly type: ResourceType;
  readonly namespace: string;
  readonly name?: string | undefined;
  readonly wakesOn?: WakesOn | undefined;
}

/** The one watch of a type in a namespace, and who refers to what it holds. */
interface Scope {
  readonly informer: Informer;
  readonly reporter: WatchTroubleReporter;
  /** Owners that refer to every object of the type in the namespace, with the updates that wake them. */
  readonly everyObject: Map<string, WakesOn | undefined>;
  /** Owners of each name referenced, with the updates that wake them. */
  readonly byName: Map<string, Map<string, WakesOn | undefined>>;
  /** Cached copies kept as an outline (metadata only): nobody referred to them when they arrived. */
  readonly outlines: WeakSet<KubeObject>;
  /** Whole copies read by name for a name referenced after its outline arrived, until the watch brings news of it. */
  readonly fetched: Map<string, { readonly outline: KubeObject; readonly object: KubeObject }>;
  /** Its last list or watch was answered with 404: the API server does not serve the type (yet). */
  notServed: boolean;
}


function scopeKeyOf(type: ResourceType, namespace: string): string {
  return `${type.group}/${type.plural}/${namespace}`;
}

/**
 * A list that the API server answers with 404 is of a type it does not serve (a CRD that is not installed):
 * the reads of that type say so in the status of each object that needs it, and the log says it once.
 */
function notServed(error: unknown): boolean {
  return error instanceof KeywardError && error.api === 'kubernetes' && error.code === 404;
}

/** An object without its content: what is kept of one nobody refers to. */
function outlineOf(object: KubeObject): KubeObject {
  return { apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata };
}

/**
 * Watches what primary objects refer to (a password Secret by name, every KeystoneAPI of a namespace) for as
 * long as some primary does, tells which primaries to wake when one of them changes (appears, is edited, goes
 * away), and answers reads of them once the watch has listed.
 *
 * One watch per type and namespace, however many objects of it are referenced, as a controller-runtime cache
 * watches a namespace's Secrets once for every reconciler: a hundred CRs naming a hundred Secrets cost one
 * watch, and an API server restart one restart. What the watch holds stays bounded by what is referenced: an
 * object no primary names is kept as an outline (its metadata: it exists, no data), so a namespace's other
 * Secrets cost the operator no secret material in memory. A name referenced after its outline arrived is read
 * once by name, and the watch's next word about it takes over.
 */
export class ReferencedWatches implements WatchedByReference {
  readonly #scopes = new Map<string, Scope>();
  /** What each owner refers to, by the reference's key. */
  readonly #byOwner = new Map<string, ReadonlyMap<string, Reference>>();

  constructor(
    private readonly kube: KubeClient,
    private readonly wake: (owner: string) => void,
    /** A reporter for each watch started (see WatchTroubleLog); 404s (a type not served) never reach it. */
    private readonly report: (resource: string) => WatchTroubleReporter,
  ) {}

  /** Sets what `owner` refers to now; watches start and stop as needed. */
  track(owner: string, refs: readonly Reference[]): void {
    const wanted = new Map(refs.map((ref) => [`${scopeKeyOf(ref.type, ref.namespace)}/${ref.name ?? '*'}`, ref]));
    const held = this.#byOwner.get(owner) ?? new Map<string, Reference>();
    this.#byOwner.set(owner, wanted);
    // What is new first: a watch that only changes names stays up.
    for (const [key, ref] of wanted) if (!held.has(key)) this.#refer(owner, ref);
    for (const [key, ref] of held) if (!wanted.has(key)) this.#release(owner, ref);
  }

  /** The owner is gone: stop watching what only it referred to. */
  forget(owner: string): void {
    for (const ref of this.#byOwner.get(owner)?.values() ?? []) this.#release(owner, ref);
    this.#byOwner.delete(owner);
  }

  get(type: ResourceType, namespace: string, name: string): { readonly object: KubeObject | undefined } | undefined {
    const scope = this.#listed(type, namespace);
    if (scope === undefined) return undefined;
    const cached = scope.informer.get(namespace, name);
    if (cached === undefined || !scope.outlines.has(cached)) return { object: cached };
    const fetched = scope.fetched.get(name);
    return fetched?.outline === cached ? { object: fetched.object } : undefined;
  }

  list(type: ResourceType, namespace: string): readonly KubeObject[] | undefined {
    const scope = this.#listed(type, namespace);
    if (scope === undefined || scope.everyObject.size === 0) return undefined;
    const objects = scope.informer.list(namespace);
    // Outlines kept from before anyone wanted the whole namespace: the list is read from the API server.
    return objects.some((object) => scope.outlines.has(object)) ? undefined : objects;
  }

  /**
   * Whether the watch of the type in the namespace found it not served. It keeps listing with backoff (at most
   * every 30 s, quietly), and once the CRD is installed the objects it lists wake their primaries.
   */
  notServed(type: ResourceType, namespace: string): boolean {
    return this.#scopes.get(scopeKeyOf(type, namespace))?.notServed === true;
  }

  async stop(): Promise<void> {
    const scopes = [...this.#scopes.values()];
    this.#scopes.clear();
    this.#byOwner.clear();
    for (const scope of scopes) scope.reporter.release();
    await Promise.all(scopes.map((scope) => scope.informer.stop()));
  }

  /** Watches running now, one per type and namespace (for tests and metrics). */
  get size(): number {
    return this.#scopes.size;
  }

  #refer(owner: string, ref: Reference): void {
    const key = scopeKeyOf(ref.type, ref.namespace);
    const scope = this.#scopes.get(key) ?? this.#start(key, ref.type, ref.namespace);
    if (ref.name === undefined) {
      scope.everyObject.set(owner, ref.wakesOn);
      return;
    }
    const owners = scope.byName.get(ref.name);
    if (owners !== undefined) {
      owners.set(owner, ref.wakesOn);
      return;
    }
    scope.byName.set(ref.name, new Map([[owner, ref.wakesOn]]));
    this.#fetchIfOutlined(scope, ref.type, ref.namespace, ref.name);
  }

  #start(key: string, type: ResourceType, namespace: string): Scope {
    const reporter = this.report(type.plural);
    const informer: Informer = new Informer(this.kube, {
      type,
      namespace,
      transform: (object) => {
        if (scope.everyObject.size > 0 || scope.byName.has(object.metadata.name)) return object;
        const outline = outlineOf(object);
        scope.outlines.add(outline);
        return outline;
      },
      onProblem: (message, error, retrying) => {
        if (notServed(error)) scope.notServed = true;
        else reporter.problem(message, error, retrying === true);
      },
      onRecovered: () => {
        scope.notServed = false;
        reporter.recovered();
      },
    });
    const scope: Scope = { informer, reporter, everyObject: new Map(), byName: new Map(), outlines: new WeakSet(), fetched: new Map(), notServed: false };
    this.#scopes.set(key, scope);
    informer.subscribe((event) => {
      const { name } = event.object.metadata;
      scope.fetched.delete(name);
      for (const [owner, wakesOn] of [...scope.everyObject, ...(scope.byName.get(name) ?? [])]) {
        if (event.type !== 'updated' || wakesOn === undefined || wakesOn(event.old, event.object)) this.wake(owner);
      }
    });
    informer.start().catch(() => undefined);
    return scope;
  }

  /**
   * A name newly referenced whose object the watch holds as an outline: read it once, and keep what was read
   * for as long as the watch has nothing newer (a change replaces the outline, and is kept whole).
   */
  #fetchIfOutlined(scope: Scope, type: ResourceType, namespace: string, name: string): void {
    const outline = scope.informer.get(namespace, name);
    if (outline === undefined || !scope.outlines.has(outline)) return;
    this.kube.get({ type, namespace, name }).then((object) => {
      const current = scope.informer.get(namespace, name);
      if (object !== undefined && current === outline && scope.byName.has(name)) scope.fetched.set(name, { outline, object });
    }, () => undefined); // Until then, and if it fails, reads of it go to the API server.
  }

  /** The scope of a watch that has listed: until then it knows nothing, and reads go to the API server. */
  #listed(type: ResourceType, namespace: string): Scope | undefined {
    const scope = this.#scopes.get(scopeKeyOf(type, namespace));
    return scope?.informer.hasSynced() === true ? scope : undefined;
  }

  #release(owner: string, ref: Reference): void {
    const key = scopeKeyOf(ref.type, ref.namespace);
    const scope = this.#scopes.get(key);
    if (scope === undefined) return;
    if (ref.name === undefined) scope.everyObject.delete(owner);
    else {
      const owners = scope.byName.get(ref.name);
      owners?.delete(owner);
      if (owners?.size === 0) {
        scope.byName.delete(ref.name);
        scope.fetched.delete(ref.name);
      }
    }
    if (scope.everyObject.size > 0 || scope.byName.size > 0) return;
    this.#scopes.delete(key);
    scope.reporter.release();
    void scope.informer.stop();
  }
}
