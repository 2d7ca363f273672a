// What the controller integration tests share: an operator namespace with the admin credentials Secret,
// "operators" (both controllers with core's runtime, each with its own Keycloak runtime whose every request is
// recorded), an admin client of the test's own for checking what Keycloak holds, and a TCP proxy that can
// make Keycloak unreachable for the controllers without stopping it.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { coreTypes, findCondition, type AnyAction, type Condition, type KubeObject, type ObjectRef, type Plan } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';
import { ContentType, KubeClient, kubernetesRuntime, type HttpRequestInfo } from '@keyward/runtime/io';
import { KeywardError, apiSet, controlRuntime, type PlanResult } from '@keyward/kernel/interpreter';
import { Controller, ResyncLoops, RuntimeMetrics, controllerMetrics, createLogger, type KeyReconcile, type KeyedBackoffOptions } from '@keyward/runtime/controller';
import { adminKubeConfig, createTestNamespace, httpCall, rememberSecret, testKeycloak, testLogFile, waitFor } from '@keyward/test-env';
import type { KeycloakCall } from '../../src/apis/keycloak/actions.js';
import { REALM_SECRET_LABEL, REALM_SECRET_LABEL_VALUE, keycloakClientController, keycloakClientType, keycloakRealmController, keycloakRealmType, defaultKeycloakConfig, type KeycloakConfig } from '../../src/index.js';
import type { KeycloakClientAction } from '../../src/index.js';
import { type KeycloakRealmAction } from '../../src/realm/vocabulary.js';
import { keycloakRuntime, type KeycloakRuntime } from '../../src/io.js';

export const API_VERSION = 'vriesdemichael.github.io/v1';
export const ADMIN_SECRET = 'keycloak-admin';
/** Generous: a loaded machine, a Keycloak that answers in its own time. */
export const WAIT_MS = 90_000;

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/**
 * The operations of the io layer that only read (and the admin token, and the breaker's probe). Anything
 * else — create_*, update_*, delete_*, link_client_scope, grant_roles, revoke_roles,
 * regenerate_client_secret — changes Keycloak.
 */
export const READ_OPERATIONS: ReadonlySet<string> = new Set([
  'token',
  'probe',
  'get_realm',
  'list_roles',
  'get_role',
  'list_composites',
  'list_client_scopes',
  'list_realm_client_scopes',
  'list_protocol_mappers',
  'find_client',
  'get_client',
  'get_client_secret',
  'get_service_account_user',
  'get_role_mappings',
  'list_authentication_flows',
  'list_flow_executions',
  'get_authenticator_config',
  'list_required_actions',
  'list_groups',
  'list_group_children',
  'list_default_groups',
  'find_group_by_path',
  'find_created',
  'list_identity_providers',
  'list_identity_provider_mappers',
  'get_resource_server',
  'list_authorization_scopes',
  'list_authorization_resources',
  'list_user_federation',
  'list_user_federation_mappers',
  // Keycloak's LDAP connection test is a POST that changes nothing.
  'test_ldap_connection',
  'list_organizations',
  'list_organization_identity_providers',
  'list_authorization_policies',
  'get_policy_member',
  'list_policy_parts',
]);

/** The operations among `requests` that are not reads, in order. */
export const writesIn = (requests: readonly HttpRequestInfo[]): string[] => requests.map((r) => r.operation).filter((op) => !READ_OPERATIONS.has(op));

export const realmRef = (namespace: string, name: string): ObjectRef => ({ type: keycloakRealmType, namespace, name });
export const clientRef = (namespace: string, name: string): ObjectRef => ({ type: keycloakClientType, namespace, name });
export const secretRef = (namespace: string, name: string): ObjectRef => ({ type: coreTypes.secret, namespace, name });

export async function writeSecret(kube: KubeClient, namespace: string, name: string, data: Readonly<Record<string, string>>, labels?: Readonly<Record<string, string>>): Promise<void> {
  await kube.apply(secretRef(namespace, name), { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, ...(labels === undefined ? {} : { labels }) }, stringData: data }, true);
}

/** The label a Secret a KeycloakRealm reads must carry. */
export const REALM_SECRET_LABELS: Readonly<Record<string, string>> = { [REALM_SECRET_LABEL]: REALM_SECRET_LABEL_VALUE };

/** A key of a Secret's data, decoded; undefined when the Secret or the key is missing. */
export function secretData(secret: KubeObject | undefined, key: string): string | undefined {
  const encoded = (secret?.['data'] as Record<string, string> | undefined)?.[key];
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
}

export function conditionOf(object: KubeObject | undefined, type: string): Condition | undefined {
  return findCondition(readConditions((object?.['status'] as { conditions?: unknown } | undefined)?.conditions), type);
}

export const statusOf = (object: KubeObject | undefined): Record<string, unknown> => (object?.['status'] as Record<string, unknown> | undefined) ?? {};

/** Everything the tests of one file share. */
export interface ControllerEnv {
  readonly kube: KubeClient;
  /** Where the admin credentials Secret is, as the operator's namespace would hold it. */
  readonly operatorNamespace: string;
  /** The real Keycloak's root URL. */
  readonly url: string;
  /** The test's own admin client (not recorded by any operator). */
  readonly admin: KeycloakAdmin;
  /** An admin client logging in with the credentials of another Secret in the operator namespace. */
  adminWith(secret: string): KeycloakAdmin;
  config(url?: string): KeycloakConfig;
  close(): void;
}

export async function controllerEnv(prefix: string): Promise<ControllerEnv> {
  const kube = new KubeClient(adminKubeConfig());
  const operatorNamespace = await createTestNamespace(`${prefix}-op`);
  const keycloak = testKeycloak();
  await writeSecret(kube, operatorNamespace, ADMIN_SECRET, { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret });
  const runtime = keycloakRuntime({ kube });
  const call: KeycloakCall = { server: { url: keycloak.url, credentials: { namespace: operatorNamespace, name: ADMIN_SECRET } }, chargeTo: operatorNamespace };
  return {
    kube,
    operatorNamespace,
    url: keycloak.url,
    admin: new KeycloakAdmin(runtime, call),
    adminWith: (secret) => new KeycloakAdmin(runtime, { ...call, server: { ...call.server, credentials: { namespace: operatorNamespace, name: secret } } }),
    config: (url = keycloak.url) => ({
      ...defaultKeycloakConfig,
      keycloakUrl: url,
      keycloakAdminSecret: { namespace: operatorNamespace, name: ADMIN_SECRET },
      keycloakOperatorNamespace: operatorNamespace,
    }),
    close: () => {
      runtime.close?.();
      kube.close();
    },
  };
}

/** Admin API calls of the test itself, to see what Keycloak holds. */
export class KeycloakAdmin {
  readonly #runtime: KeycloakRuntime;
  readonly #call: KeycloakCall;

  constructor(runtime: KeycloakRuntime, call: KeycloakCall) {
    this.#runtime = runtime;
    this.#call = call;
  }

  /** The body of a GET; undefined on 404. */
  async get<T = Record<string, unknown>>(path: string, query?: Readonly<Record<string, string>>): Promise<T | undefined> {
    const response = await this.#runtime.admin.send(this.#call, { method: 'GET', path, ...(query === undefined ? {} : { query }), operation: 'test_get', description: `test: GET ${path}`, accept: [404] });
    return response.status === 404 ? undefined : (response.body as T);
  }

  async send(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<number> {
    const response = await this.#runtime.admin.send(this.#call, { method, path, operation: 'test_write', description: `test: ${method} ${path}`, ...(body === undefined ? {} : { body }), accept: [404] });
    return response.status;
  }

  /** The body of a POST that answers with one (a policy evaluation). */
  async post<T = Record<string, unknown>>(path: string, body: unknown): Promise<T> {
    const response = await this.#runtime.admin.send(this.#call, { method: 'POST', path, operation: 'test_post', description: `test: POST ${path}`, body });
    return response.body as T;
  }

  /** A client of a realm by clientId, as Keycloak shows it; undefined when there is none. */
  async client(realm: string, clientId: string): Promise<Record<string, unknown> | undefined> {
    const clients = await this.get<Record<string, unknown>[]>(`/realms/${realm}/clients`, { clientId });
    return clients?.find((c) => c['clientId'] === clientId);
  }

  /** A client's secret as Keycloak holds it. */
  async clientSecret(realm: string, clientId: string): Promise<string | undefined> {
    const found = await this.client(realm, clientId);
    if (found === undefined) return undefined;
    const credential = await this.get<{ value?: string }>(`/realms/${realm}/clients/${String(found['id'])}/client-secret`);
    return credential?.value;
  }

  /** Deletes a realm if it exists (cleanup). */
  async deleteRealm(realm: string): Promise<void> {
    await this.send('DELETE', `/realms/${realm}`);
  }
}

/** Whether a client_credentials grant with this secret gets a token from the realm: the secret works. */
export async function clientCredentialsWork(url: string, realm: string, clientId: string, secret: string): Promise<boolean> {
  const response = await httpCall(`${url}/realms/${realm}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString(),
    timeoutMs: 30_000,
  });
  if (response.status === 200) return true;
  if (response.status === 401 || response.status === 400) return false;
  throw new Error(`the token endpoint of realm ${realm} answered HTTP ${String(response.status)}`);
}

export interface OperatorOptions {
  /** For the log file's name. */
  readonly name: string;
  /** Each gets a KeycloakRealm and a KeycloakClient controller watching only it. */
  readonly namespaces: readonly string[];
  readonly config: KeycloakConfig;
  readonly backoff?: KeyedBackoffOptions;
  /** Breaker probes of the Keycloak transport. */
  readonly firstProbeMs?: number;
  readonly maxProbeMs?: number;
}

/** Both controllers for some namespaces, with one Keycloak runtime whose every HTTP attempt is recorded. */
export interface Operator {
  /** Every HTTP attempt of its Keycloak runtime, in order. */
  readonly requests: HttpRequestInfo[];
  /** Reconciles each controller finished, by controller name ("keycloak-realm", "keycloak-client"). */
  readonly reconciles: Map<string, number>;
  reconcileRealm(namespace: string, name: string): Promise<KeyReconcile<KeycloakRealmAction>>;
  reconcileClient(namespace: string, name: string): Promise<KeyReconcile<KeycloakClientAction>>;
  resync(): void;
  /** Whether no key waits or runs in any of its controllers (scheduled checks aside). */
  idle(): boolean;
  stop(): Promise<void>;
  /** The runtime's metrics of its controllers' plans (keyward_drift_repairs_total). */
  readonly metrics: RuntimeMetrics;
}

/**
 * A reconcile of `ref` once the controller's cache holds the object the API server has: a test that just saw
 * the object Ready there would otherwise reconcile the cache's older copy and plan what is already written.
 */
async function reconcileCaughtUp<A extends AnyAction>(kube: KubeClient, controller: { cached(key: string): KubeObject | undefined; reconcileKey(key: string): Promise<KeyReconcile<A>> }, ref: ObjectRef): Promise<KeyReconcile<A>> {
  const key = `${ref.namespace ?? ''}/${ref.name}`;
  await waitFor(async () => {
    const stored = (await kube.get(ref))?.metadata.resourceVersion;
    return stored === undefined || controller.cached(key)?.metadata.resourceVersion === stored ? true : undefined;
  }, { what: `the controller's cache to hold ${key} as stored`, timeoutMs: WAIT_MS, intervalMs: 50 });
  return controller.reconcileKey(key);
}

export async function startOperator(kube: KubeClient, options: OperatorOptions): Promise<Operator> {
  const requests: HttpRequestInfo[] = [];
  const reconciles = new Map<string, number>();
  const keycloak = keycloakRuntime({
    kube,
    observer: { onRequest: (info) => { requests.push(info); } },
    transport: { breaker: { firstProbeMs: options.firstProbeMs ?? 200, maxProbeMs: options.maxProbeMs ?? 1_000 } },
  });
  const apis = apiSet(kubernetesRuntime(kube, { reportingController: 'keyward.dev/keycloak', reportingInstance: options.name }), keycloak, controlRuntime);
  const logger = createLogger({ level: 'debug', stream: createWriteStream(testLogFile(`keycloak-${options.name}`), { flags: 'a' }) });
  const metrics = new RuntimeMetrics();
  const planMetrics = controllerMetrics(metrics, options.name, () => 0);
  // As the operator does: the controllers of all namespaces share one resync loop (config.keycloakResyncPeriod).
  const resyncLoops = new ResyncLoops();
  const common = {
    kube,
    apis,
    config: options.config,
    backoff: options.backoff ?? { baseMs: 100, maxMs: 2_000 },
    logger,
    observer: {
      onReconcile: (controller: string) => { reconciles.set(controller, (reconciles.get(controller) ?? 0) + 1); },
      onPlan: (controller: string, plan: Plan, outcome: PlanResult) => { planMetrics.onPlan?.(controller, plan, outcome); },
    },
    resyncLoops,
  };
  const realms = new Map(options.namespaces.map((namespace) => [namespace, new Controller(keycloakRealmController, { ...common, namespace })]));
  const clients = new Map(options.namespaces.map((namespace) => [namespace, new Controller(keycloakClientController, { ...common, namespace })]));
  const all = [...realms.values(), ...clients.values()];
  await Promise.all(all.map((controller) => controller.start()));
  const pick = <T>(map: ReadonlyMap<string, T>, namespace: string): T => {
    const found = map.get(namespace);
    if (found === undefined) throw new Error(`operator ${options.name} does not watch namespace ${namespace}`);
    return found;
  };
  return {
    requests,
    reconciles,
    reconcileRealm: (namespace, name) => reconcileCaughtUp(kube, pick(realms, namespace), { type: keycloakRealmType, namespace, name }),
    reconcileClient: (namespace, name) => reconcileCaughtUp(kube, pick(clients, namespace), { type: keycloakClientType, namespace, name }),
    resync: () => { for (const controller of all) controller.resync(); },
    idle: () => all.every((controller) => {
      const state = controller.queueState();
      return state.depth === 0 && state.inFlight === 0;
    }),
    stop: async () => {
      await Promise.all(all.map((controller) => controller.stop()));
      resyncLoops.stop();
      keycloak.close?.();
    },
    metrics,
  };
}

export async function createRealm(kube: KubeClient, namespace: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await kube.create(realmRef(namespace, name), { apiVersion: API_VERSION, kind: 'KeycloakRealm', metadata: { name, namespace }, spec });
}

export async function createClient(kube: KubeClient, namespace: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await kube.create(clientRef(namespace, name), { apiVersion: API_VERSION, kind: 'KeycloakClient', metadata: { name, namespace }, spec });
}

/** A merge patch of the spec (lists are replaced whole); the object's new generation. */
export async function patchSpec(kube: KubeClient, ref: ObjectRef, spec: Record<string, unknown>): Promise<number> {
  const patched = await kube.patch(ref, { spec }, ContentType.mergePatch);
  return patched.metadata.generation ?? 0;
}

/** Waits for the object to be Ready at its current generation (the spec as it is now is applied). */
export async function waitForReady(kube: KubeClient, ref: ObjectRef, what = `${ref.type.kind} ${ref.namespace ?? ''}/${ref.name} to be Ready`): Promise<KubeObject> {
  return waitFor(async () => {
    const object = await kube.get(ref);
    const status = statusOf(object);
    const ready = conditionOf(object, 'Ready');
    if (ready?.status !== 'True' || status['observedGeneration'] !== object?.metadata.generation) {
      throw new Error(`Ready ${ready?.status ?? 'unknown'}: ${ready?.message ?? 'no condition'} (generation ${String(object?.metadata.generation)}, observed ${String(status['observedGeneration'])})`);
    }
    return object;
  }, { what, timeoutMs: WAIT_MS, intervalMs: 200 });
}

/** Waits for the object to be refused at its current generation with `reason`; a timeout names what it is instead. */
export async function waitForRefusal(kube: KubeClient, ref: ObjectRef, reason: string): Promise<KubeObject | undefined> {
  return waitFor(async () => {
    const object = await kube.get(ref);
    const ready = conditionOf(object, 'Ready');
    if (ready?.status !== 'False' || ready.reason !== reason || statusOf(object)['observedGeneration'] !== object?.metadata.generation) {
      throw new Error(`Ready ${ready?.status ?? 'unknown'} (${ready?.reason ?? 'no condition'}): ${ready?.message ?? ''}`);
    }
    return object;
  }, { what: `${ref.name} to be refused with ${reason}`, timeoutMs: WAIT_MS, intervalMs: 200 });
}

/** Waits until `test` holds for the object as stored. */
export async function waitForObject(kube: KubeClient, ref: ObjectRef, what: string, test: (object: KubeObject | undefined) => boolean): Promise<KubeObject | undefined> {
  return waitFor(async () => {
    const object = await kube.get(ref);
    return test(object) ? { object } : undefined;
  }, { what, timeoutMs: WAIT_MS, intervalMs: 200 }).then((found) => found.object);
}

export async function waitForGone(kube: KubeClient, ref: ObjectRef): Promise<void> {
  await waitForObject(kube, ref, `${ref.type.kind} ${ref.namespace ?? ''}/${ref.name} to be gone`, (object) => object === undefined);
}

/** The credentials Secret's client-secret, remembered so that the run's log scan looks for it. */
export async function credentialsSecretOf(kube: KubeClient, namespace: string, clientName: string): Promise<KubeObject | undefined> {
  const secret = await kube.get(secretRef(namespace, `${clientName}-credentials`));
  const value = secretData(secret, 'client-secret');
  if (value !== undefined) rememberSecret(value);
  return secret;
}

/** A TCP proxy to Keycloak that can be closed (connections refused, open ones cut) and opened again on its port. */
export interface TcpProxy {
  readonly url: string;
  close(): Promise<void>;
  open(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming) => {
    const outgoing = connect(Number(port), hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => { incoming.destroy(); outgoing.destroy(); });
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  const listen = (at: number): Promise<void> => new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  await listen(0);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const proxyPort = address.port;
  return {
    url: `http://127.0.0.1:${String(proxyPort)}`,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => { resolve(); });
    }),
    open: () => listen(proxyPort),
  };
}

/** Whether an error is Keycloak's 404. */
export const isNotFound = (error: unknown): boolean => error instanceof KeywardError && error.code === 404;

/** A test file's realm operator in a namespace of its own, and the realms it names (deleted from Keycloak at the end). */
export interface RealmTestFile {
  readonly env: ControllerEnv;
  readonly namespace: string;
  readonly operator: Operator;
  /** A unique realm name, deleted from Keycloak when the file ends whatever happens. */
  newRealmName(prefix: string): string;
  close(): Promise<void>;
}

export async function startRealmTestFile(prefix: string, operatorName: string): Promise<RealmTestFile> {
  const env = await controllerEnv(prefix);
  const namespace = await createTestNamespace(`${prefix}-ctl`);
  const operator = await startOperator(env.kube, { name: operatorName, namespaces: [namespace], config: env.config() });
  const realms: string[] = [];
  return {
    env,
    namespace,
    operator,
    newRealmName: (realmPrefix) => {
      const name = unique(realmPrefix);
      realms.push(name);
      return name;
    },
    close: async () => {
      await operator.stop();
      for (const realm of realms) await env.admin.deleteRealm(realm);
      env.close();
    },
  };
}
