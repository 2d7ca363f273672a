import { Agent, request, type RequestOptions } from 'node:https';
import { request as plainRequest } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiVersionOf, describeRef } from '@keyward/kernel/model';
import { FIELD_MANAGER, type ObjectMeta } from '@keyward/kernel/plan';
import { type ObjectRef, type ResourceType, type KubeObject } from '@keyward/kernel';
import { KeywardError, isRetryableStatus, reasonForStatus } from '@keyward/kernel/interpreter';
import { RateLimiter } from '../../../io/rate/rate-limiter.js';
import type { TokenBucketLimit } from '../../../io/rate/token-bucket.js';
import { fieldSelector, labelSelector, resourcePath } from './paths.js';

export { FIELD_MANAGER };

export const ContentType = {
  json: 'application/json',
  mergePatch: 'application/merge-patch+json',
  jsonPatch: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export interface KubeRequestInfo {
  readonly verb: string;
  readonly resource: string;
  /** 0: the server did not answer (refused, reset, timed out). */
  readonly status: number;
  readonly durationMs: number;
  /** Why a request without an answer failed: "connect ECONNREFUSED 127.0.0.1:6443". */
  readonly error?: string;
}

export interface KubeClientOptions {
  readonly timeoutMs?: number;
  /**
   * The field manager every write names (create, patch, apply), so `managedFields` says who wrote what; an
   * embedding program sets its own. Default "keyward".
   */
  readonly fieldManager?: string;
  /** Told about every request, for metrics. */
  readonly onRequest?: (info: KubeRequestInfo) => void;
  /**
   * Requests per second, with a burst, that this client sends at most (watches excepted: they are long-lived
   * and started rarely). Default: no limit; the operator sets controller-runtime's QPS 20, burst 30.
   */
  readonly rateLimit?: TokenBucketLimit;
}

export interface KubeCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  readonly contentType?: string;
  /** Names the operation in errors: "create Secret ns/x". */
  readonly what: string;
  /** For metrics: the verb as Kubernetes audit logs name it. */
  readonly verb: string;
  readonly resource: string;
}

/** Which objects a list returns: a namespace (all when undefined), equality labels, one name, a field selector. */
export interface ListOptions {
  readonly namespace?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly name?: string | undefined;
  /** A field selector such as `type=Opaque`, ANDed with the name. */
  readonly fields?: string | undefined;
}

export interface ListResult {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
}

/** The Status object the API server returns with errors. */
interface StatusBody {
  readonly reason?: string;
  readonly message?: string;
}

/**
 * A thin JSON client for the Kubernetes API. Authentication and TLS come from @kubernetes/client-node's
 * KubeConfig; requests are plain JSON so every object keeps every field (the client's typed serializer drops
 * keys it does not map and turns timestamps into Dates) and each call sets exactly the content type and
 * preconditions it needs. Errors are KeywardErrors with the server's reason and message.
 */
export class KubeClient {
  readonly #config: KubeConfig;
  readonly #server: URL;
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 32 });
  readonly #options: KubeClientOptions;
  readonly #limiter: RateLimiter | undefined;

  get #fieldManager(): string {
    return this.#options.fieldManager ?? FIELD_MANAGER;
  }

  constructor(config: KubeConfig, options: KubeClientOptions = {}) {
    const cluster = config.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    this.#config = config;
    this.#server = new URL(cluster.server);
    this.#options = options;
    this.#limiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  }

  get kubeConfig(): KubeConfig {
    return this.#config;
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    try {
      return await this.#call<KubeObject>({ method: 'GET', path: resourcePath(ref.type, ref.namespace, ref.name), what: `read ${describeRef(ref)}`, verb: 'get', resource: ref.type.plural });
    } catch (error) {
      if (error instanceof KeywardError && error.code === 404) return undefined;
      throw error;
    }
  }

  /**
   * One page of a list. With a limit, `continueToken` fetches the next page and `remainingItemCount` (when
   * the server can tell) says how many objects the later pages hold.
   */
  async list(type: ResourceType, options: ListOptions & { limit?: number; continueToken?: string } = {}): Promise<ListResult & { continueToken?: string; remainingItemCount?: number }> {
    // List items come without apiVersion and kind; they are filled in from the type.
    const body = await this.#call<{ items: { readonly metadata: ObjectMeta; readonly [field: string]: unknown }[]; metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } }>({
      method: 'GET',
      path: resourcePath(type, options.namespace),
      query: {
        labelSelector: labelSelector(options.labels),
        fieldSelector: fieldSelector(options.name, options.fields),
        limit: options.limit === undefined ? undefined : String(options.limit),
        continue: options.continueToken,
      },
      what: `list ${type.plural}${options.namespace === undefined ? '' : ` in ${options.namespace}`}`,
      verb: 'list',
      resource: type.plural,
    });
    const items: KubeObject[] = body.items.map((item) => ({ ...item, apiVersion: apiVersionOf(type), kind: type.kind }));
    const { continue: next, remainingItemCount } = body.metadata;
    return {
      items,
      resourceVersion: body.metadata.resourceVersion,
      ...(next === undefined || next === '' ? {} : { continueToken: next }),
      ...(remainingItemCount === undefined ? {} : { remainingItemCount }),
    };
  }

  /** Lists every page (500 objects each) of a type. */
  async listAll(type: ResourceType, options: ListOptions = {}): Promise<ListResult> {
    const items: KubeObject[] = [];
    let page = await this.list(type, { ...options, limit: 500 });
    items.push(...page.items);
    while (page.continueToken !== undefined) {
      page = await this.list(type, { ...options, limit: 500, continueToken: page.continueToken });
      items.push(...page.items);
    }
    return { items, resourceVersion: page.resourceVersion };
  }

  create(ref: ObjectRef, body: unknown): Promise<KubeObject> {
    return this.#call({ method: 'POST', path: resourcePath(ref.type, ref.namespace), query: { fieldManager: this.#fieldManager }, body, what: `create ${describeRef(ref)}`, verb: 'create', resource: ref.type.plural });
  }

  /** Server-side apply as the client's field manager. */
  apply(ref: ObjectRef, body: unknown, force = false): Promise<KubeObject> {
    return this.#call({
      method: 'PATCH',
      path: resourcePath(ref.type, ref.namespace, ref.name),
      query: { fieldManager: this.#fieldManager, force: force ? 'true' : undefined },
      body,
      contentType: ContentType.apply,
      what: `apply ${describeRef(ref)}`,
      verb: 'patch',
      resource: ref.type.plural,
    });
  }

  patch(ref: ObjectRef, body: unknown, contentType: string, subresource?: string): Promise<KubeObject> {
    return this.#call({
      method: 'PATCH',
      path: resourcePath(ref.type, ref.namespace, ref.name, subresource),
      query: { fieldManager: this.#fieldManager },
      body,
      contentType,
      what: `patch ${subresource === undefined ? '' : `${subresource} of `}${describeRef(ref)}`,
      verb: 'patch',
      resource: subresource === undefined ? ref.type.plural : `${ref.type.plural}/${subresource}`,
    });
  }

  /** Deletes an object; `false` when it was already gone. */
  async delete(ref: ObjectRef, options: { preconditions?: { uid?: string; resourceVersion?: string }; propagationPolicy?: string } = {}): Promise<boolean> {
    try {
      await this.#call({
        method: 'DELETE',
        path: resourcePath(ref.type, ref.namespace, ref.name),
        body: { apiVersion: 'v1', kind: 'DeleteOptions', ...options },
        what: `delete ${describeRef(ref)}`,
        verb: 'delete',
        resource: ref.type.plural,
      });
      return true;
    } catch (error) {
      if (error instanceof KeywardError && error.code === 404) return false;
      throw error;
    }
  }

  /** Any other call (events, leases, discovery); returns the parsed JSON body. */
  raw<T>(call: KubeCall): Promise<T> {
    return this.#call<T>(call);
  }

  /** Closes idle keep-alive connections, so a stopping process can exit. */
  close(): void {
    this.#agent.destroy();
  }

  async #call<T>(call: KubeCall): Promise<T> {
    await this.#limiter?.acquire();
    const url = new URL(call.path, this.#server);
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    const options: RequestOptions = {
      method: call.method,
      headers: {
        accept: ContentType.json,
        ...(payload === undefined ? {} : { 'content-type': call.contentType ?? ContentType.json, 'content-length': String(Buffer.byteLength(payload)) }),
      },
      agent: url.protocol === 'https:' ? this.#agent : undefined,
      timeout: this.#options.timeoutMs ?? 30_000,
    };
    await this.#config.applyToHTTPSOptions(options);
    // applyToHTTPSOptions installs a new Agent on every call, which costs a TLS handshake per request (500 GETs at
    // concurrency 4: 4.1 s instead of 1.3 s). The TLS settings it wrote travel with each request, and the keep-alive agent pools
    // connections by them, so it can carry them; a proxy needs the agent the config made for it.
    if (url.protocol === 'https:' && this.#config.getCurrentCluster()?.proxyUrl === undefined) options.agent = this.#agent;
    const started = Date.now();
    const { status, text } = await send(url, options, payload).catch((error: unknown) => {
      const cause = error instanceof Error ? error.message : String(error);
      this.#options.onRequest?.({ verb: call.verb, resource: call.resource, status: 0, durationMs: Date.now() - started, error: cause });
      const timeout = error instanceof Error && error.message.includes('timed out');
      throw new KeywardError({
        api: 'kubernetes',
        code: 0,
        reason: timeout ? 'Timeout' : 'Unavailable',
        message: `${call.what}: ${cause}`,
        retryable: true,
      });
    });
    this.#options.onRequest?.({ verb: call.verb, resource: call.resource, status, durationMs: Date.now() - started });
    if (status >= 400) throw statusError(call.what, status, text);
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
}

function statusError(what: string, status: number, text: string): KeywardError {
  let body: StatusBody = {};
  try {
    body = JSON.parse(text) as StatusBody;
  } catch {
    // not a Status object: keep the HTTP status only
  }
  const reason = body.reason !== undefined && body.reason !== '' ? body.reason : reasonForStatus(status);
  const detail = (body.message ?? '').slice(0, 500);
  return new KeywardError({
    api: 'kubernetes',
    code: status,
    reason,
    message: `${what}: ${reason}${detail === '' ? '' : `: ${detail}`}`,
    // A conflict is settled by reading again on the next attempt.
    retryable: isRetryableStatus(status) || status === 409,
  });
}

function send(url: URL, options: RequestOptions, payload: string | undefined): Promise<{ status: number; text: string }> {
  const requester = url.protocol === 'https:' ? request : plainRequest;
  return new Promise((resolve, reject) => {
    const req = requester(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }); });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`request timed out after ${String(options.timeout ?? 0)}ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
