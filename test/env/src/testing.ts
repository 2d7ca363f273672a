import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CREDENTIALS_FOLDER, recordSecretIn } from './secret-scan.js';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { kubeConfigFor, startEnvironment, type EnvironmentInfo } from './environment.js';
import { repoRoot } from './paths.js';
import { writeKubeconfig } from './kubeconfig.js';
import { KeystoneAdmin } from './keystone-admin.js';
import { holdExclusive } from './exclusive.js';
import { waitFor } from './wait.js';
import type { KeycloakAdminCredentials } from './keycloak.js';

/** Set by the jest global setup to the env.json of the environment the tests use. */
export const ENV_FILE_VARIABLE = 'KEYWARD_ENV_FILE';

/** CRD folders (relative to the repository root) installed for the integration tests. */
export const TEST_CRD_FOLDERS = ['deploy/crds', 'test/fixtures/crds'] as const;

/**
 * Records a secret a test created (a password, an API key, a credential secret). When the run ends, every
 * log of the environment (components, operators, in-process controllers) is scanned for it, and the run
 * fails if any contains it.
 */
export function rememberSecret(value: string): string {
  recordSecretIn(testEnvironment().dir, value);
  return value;
}

/** A file in the environment folder for the logs of something a test runs (an operator, a controller). */
export function testLogFile(name: string): string {
  return join(testFolder('test-logs'), `${name}.log`);
}

/** A folder of the environment's (logs, which the secret scan reads; credentials, which it does not). */
function testFolder(name: string): string {
  const dir = join(testEnvironment().dir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The environment of this test run. */
export function testEnvironment(): EnvironmentInfo {
  const file = process.env[ENV_FILE_VARIABLE];
  if (file === undefined) throw new Error(`${ENV_FILE_VARIABLE} is not set: run integration tests through the jest "integration" project`);
  return JSON.parse(readFileSync(file, 'utf8')) as EnvironmentInfo;
}

/** Machine-wide resources a test file may need alone for its whole run, while other files run beside it. */
export type ExclusiveResource = 'workload tier' | 'workspace build';

/**
 * Waits until no other test file of this run holds `resource`, then holds it; call the result to let go
 * (in afterAll). Files that start and stop the machine's one workload tier, or that build the workspace in
 * place, hold theirs so that the jest workers running beside them never meet it half-made.
 */
export function holdForThisFile(resource: ExclusiveResource): Promise<() => void> {
  return holdExclusive(testEnvironment().dir, resource.replaceAll(' ', '-'), 30 * 60_000);
}

/** An environment whose workload tier runs pods, and how to end it if it was started for the caller. */
export interface WorkloadEnvironment {
  readonly info: EnvironmentInfo & { readonly workloads: NonNullable<EnvironmentInfo['workloads']> };
  readonly stop: () => Promise<void>;
}

/** The servers a test that runs pods uses on the host besides the tier and MariaDB (on the node IP, like the API server). */
export interface WorkloadServers {
  /** The host's Keystone (default false: a Keystone in pods needs MariaDB only). */
  readonly keystone?: boolean;
  readonly keycloak?: boolean;
}

/**
 * For tests that run pods: the run's environment when it has the workload tier and the servers asked for (an
 * attached `devenv start --workloads`), else one of the caller's own with the tier, MariaDB, the test CRDs and
 * only those servers (a machine runs one tier at a time, so the run's shared environment never starts one), held
 * from other test files until it is stopped.
 */
export async function workloadEnvironment(log: (line: string) => void = () => undefined, servers: WorkloadServers = {}): Promise<WorkloadEnvironment> {
  const shared = testEnvironment();
  const sharedHasServers = (servers.keystone !== true || shared.keystone !== undefined) && (servers.keycloak !== true || shared.keycloak !== undefined);
  if (shared.workloads !== undefined && sharedHasServers) {
    return { info: { ...shared, workloads: shared.workloads }, stop: () => Promise.resolve() };
  }
  const release = await holdForThisFile('workload tier');
  const start = {
    ownership: 'session',
    keystone: servers.keystone === true,
    mariadb: true,
    keycloak: servers.keycloak === true,
    workloads: true,
    crdFolders: TEST_CRD_FOLDERS.map((folder) => join(repoRoot, folder)),
    log,
  } as const;
  const environment = await startEnvironment(start).catch((error: unknown) => {
    release();
    throw error;
  });
  const { info } = environment;
  if (info.workloads === undefined) throw new Error('the environment started without its workload tier');
  return {
    info: { ...info, workloads: info.workloads },
    stop: async () => {
      await environment.stop();
      release();
    },
  };
}

/** A kubeconfig for the system:masters user. */
export function adminKubeConfig(): KubeConfig {
  return kubeConfigFor(testEnvironment());
}

/** A fresh namespace with a unique name; tests never share objects. */
export async function createTestNamespace(prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await adminKubeConfig().makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}

/** A logged-in Keystone admin client for setting up test users. */
export async function keystoneAdmin(): Promise<KeystoneAdmin> {
  const { keystone } = testEnvironment();
  if (keystone === undefined) throw new Error('this environment was started without Keystone');
  return KeystoneAdmin.login(keystone, rememberSecret);
}

/** The Keycloak of this test run: its URLs and its bootstrap admin user and service account (master realm). */
export function testKeycloak(): KeycloakAdminCredentials {
  const { keycloak } = testEnvironment();
  if (keycloak === undefined) throw new Error('this environment was started without Keycloak');
  return keycloak;
}

/** A ServiceAccount's identity for a test: a kubeconfig file with a short-lived token, and its user name. */
export interface ServiceAccountIdentity {
  readonly kubeconfig: string;
  readonly userName: string;
}

/**
 * Creates the ServiceAccount (if missing) and a kubeconfig for it with a token from the TokenRequest API.
 * It can do nothing until a test binds roles to it (`system:serviceaccount:<namespace>:<name>`).
 */
export async function serviceAccountIdentity(namespace: string, name: string): Promise<ServiceAccountIdentity> {
  const core = adminKubeConfig().makeApiClient(CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } }).catch((error: unknown) => {
    if ((error as { code?: number }).code !== 409) throw error;
  });
  const request = await core.createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  const token = rememberSecret(request.status?.token ?? '');
  const userName = `system:serviceaccount:${namespace}:${name}`;
  const kubeconfig = join(testFolder(TEST_CREDENTIALS_FOLDER), `kubeconfig-${namespace}-${name}`);
  const { kubernetes } = testEnvironment();
  writeKubeconfig(kubeconfig, { server: kubernetes.server, caPem: kubernetes.caPem, token, user: name });
  return { kubeconfig, userName };
}

/** One request as the API server's audit log records it (Metadata level). */
export interface AuditEvent {
  readonly stage: string;
  readonly verb: string;
  readonly requestURI: string;
  readonly user: { readonly username: string };
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string; readonly namespace?: string; readonly name?: string; readonly apiGroup?: string };
  readonly responseStatus?: { readonly code?: number };
}

/** Verbs that change something (the audit log's verbs, which are lower case). */
export const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * The completed requests the API server has logged for a ServiceAccount user. Only ServiceAccounts are
 * audited (see the environment's audit policy), so run the client under test as one.
 */
export function auditEventsOf(userName: string): AuditEvent[] {
  return readFileSync(testEnvironment().auditLog, 'utf8')
    .split('\n')
    .filter((line) => line.includes(userName))
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.user.username === userName && event.stage === 'ResponseComplete');
}

/**
 * The completed requests of a ServiceAccount once the audit log has caught up with them: a GET of a ConfigMap
 * that does not exist, made last under the same identity in `namespace`, must be logged first. The marker
 * itself is left out.
 */
export async function settledAuditEventsOf(identity: ServiceAccountIdentity, namespace: string): Promise<AuditEvent[]> {
  const marker = `audit-marker-${randomBytes(3).toString('hex')}`;
  const core = kubeConfigFor({ kubeconfig: identity.kubeconfig }).makeApiClient(CoreV1Api);
  // Answered 404 (or 403 without the right to read ConfigMaps): either way the server has logged it.
  await core.readNamespacedConfigMap({ namespace, name: marker }).catch((error: unknown) => {
    if (typeof (error as { code?: unknown }).code !== 'number') throw error;
  });
  const events = await waitFor(() => {
    const all = auditEventsOf(identity.userName);
    return Promise.resolve(all.some((event) => event.objectRef?.name === marker) ? all : undefined);
  }, { what: 'the audit log to record the marker request', timeoutMs: 10_000, intervalMs: 200 });
  return events.filter((event) => event.objectRef?.name !== marker);
}
