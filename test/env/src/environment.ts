import { appendFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { startApiServer, waitForApiServerReady } from './apiserver.js';
import { ensureControlPlaneBinaries } from './binaries.js';
import { startControllerManager } from './controller-manager.js';
import { installCrds, readCrds } from './crds.js';
import { startEtcd } from './etcd.js';
import { startKeycloak, waitForKeycloakReady, type KeycloakAdminCredentials } from './keycloak.js';
import { ensureKeycloakDistribution } from './keycloak-dist.js';
import { startKeystone } from './keystone.js';
import type { KeystoneAdminCredentials } from './keystone-admin.js';
import type { ClusterAccess } from './kubeconfig.js';
import { startMariaDb } from './mariadb.js';
import { processGroupPeakRssMiB } from './memory.js';
import { isAlive, stopProcessGroup, ManagedProcess, type Ownership } from './process.js';
import { ensureSystemPackages } from './system-packages.js';
import { ComponentError } from './errors.js';

export interface ComponentInfo {
  readonly component: string;
  readonly pid: number;
  readonly logFile: string;
}

/** Everything a test or a person needs to use a running environment; saved as env.json in its folder. */
export interface EnvironmentInfo {
  readonly dir: string;
  readonly kubeconfig: string;
  readonly kubernetes: ClusterAccess;
  /** etcd's client URL (plain HTTP, loopback): what is stored, readable also while kube-apiserver is down. */
  readonly etcdUrl: string;
  /** The API server's audit log: requests made with ServiceAccount tokens (see auditEventsOf). */
  readonly auditLog: string;
  readonly keystone?: KeystoneAdminCredentials;
  /** Keycloak's URLs and its bootstrap admin user and service account (master realm); with StartOptions.keycloak. */
  readonly keycloak?: KeycloakAdminCredentials;
  /** In start order; stopped in reverse. */
  readonly components: readonly ComponentInfo[];
  readonly startedAt: string;
}

export interface StartOptions {
  /** Folder for data, logs and env.json; a fresh temporary folder by default. */
  readonly dir?: string;
  /** "session": everything stops when this process exits; "daemon": it keeps running until stopEnvironment. */
  readonly ownership: Ownership;
  /** Folders whose CRDs are installed before kube-controller-manager starts. */
  readonly crdFolders?: readonly string[];
  /**
   * Session ownership only: stop everything on SIGINT/SIGTERM and exit (default true). A caller that must stop
   * something of its own first (an operator using the environment) handles the signals itself.
   */
  readonly handleSignals?: boolean;
  /** Start MariaDB and Keystone too (default true). */
  readonly keystone?: boolean;
  /** Start Keycloak too (default false: it needs about half a GiB and is the slowest component to start). */
  readonly keycloak?: boolean;
  readonly log?: (line: string) => void;
}

const STATE_FILE = 'env.json';
/** The components stopComponent and startComponent handle: those with a readiness probe here. */
const RESTARTABLE: ReadonlySet<string> = new Set(['kube-apiserver', 'keycloak']);
/** The environment's own log lines, in its folder, where the secret scan reads them. */
export const ENVIRONMENT_LOG = 'environment.log';

/**
 * Sends each line to `log` and appends it to the environment's own log file. The last lines of stop() come
 * after the folder is removed: those reach `log` only.
 */
function alsoToFile(log: (line: string) => void, file: string): (line: string) => void {
  return (line) => {
    log(line);
    try {
      appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // The folder is gone (stop() removed it).
    }
  };
}

function writeState(info: EnvironmentInfo): void {
  writeFileSync(join(info.dir, STATE_FILE), JSON.stringify(info, null, 2), { mode: 0o600 });
}

export function kubeConfigFor(info: Pick<EnvironmentInfo, 'kubeconfig'>): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(info.kubeconfig);
  return kubeConfig;
}

/** Runs one start-up step, logs how long it took, and names the step in any error it throws. */
async function step<T>(log: (line: string) => void, what: string, work: () => Promise<T>): Promise<T> {
  const start = Date.now();
  let result: T;
  try {
    result = await work();
  } catch (error) {
    if (error instanceof ComponentError) throw error;
    throw new ComponentError(what, error instanceof Error ? error.message : String(error));
  }
  log(`${what} ready in ${((Date.now() - start) / 1000).toFixed(1)}s`);
  return result;
}

/**
 * For session ownership: on SIGINT or SIGTERM, stops what has started so far and exits (Node would
 * otherwise die without running exit hooks, leaving the process groups behind).
 */
class SignalGuard {
  readonly #onSignal: (signal: NodeJS.Signals) => void;
  /** What a signal runs: first "stop what has started", then the whole Environment's stop. */
  stop: () => Promise<void>;

  constructor(stop: () => Promise<void>, log: (line: string) => void) {
    this.stop = stop;
    this.#onSignal = (signal) => {
      log(`${signal}: stopping the environment`);
      void this.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    process.once('SIGINT', this.#onSignal);
    process.once('SIGTERM', this.#onSignal);
  }

  release(): void {
    process.removeListener('SIGINT', this.#onSignal);
    process.removeListener('SIGTERM', this.#onSignal);
  }
}

/** A started environment, owned by this process. */
export class Environment {
  #stopped = false;
  #info: EnvironmentInfo;

  constructor(
    info: EnvironmentInfo,
    private readonly processes: ManagedProcess[],
    private readonly log: (line: string) => void,
    private readonly guard: SignalGuard | undefined,
    private readonly ownership: Ownership,
  ) {
    this.#info = info;
  }

  get info(): EnvironmentInfo {
    return this.#info;
  }

  kubeConfig(): KubeConfig {
    return kubeConfigFor(this.info);
  }

  /** Peak resident memory per component so far, in MiB. */
  peakMemory(): Record<string, number> {
    return Object.fromEntries(this.processes.map((p) => [p.spec.component, processGroupPeakRssMiB(p.pid)]));
  }

  /**
   * Stops one component and starts it again with the same command line (same port, certificates and data),
   * then waits until it is ready; for tests of clients that must live through a restart. An outage of a given
   * length is stopComponent, a wait, then startComponent. Only kube-apiserver and keycloak are supported
   * (see stopComponent).
   */
  async restartComponent(component: string): Promise<void> {
    await this.stopComponent(component);
    await this.startComponent(component);
  }

  /**
   * Stops one component (SIGTERM, then SIGKILL after `graceMs`, 10 s by default) and resolves once it is gone:
   * its port refuses connections until startComponent. kube-apiserver stops listening and refuses new requests
   * at SIGTERM but takes a minute to exit, so an outage that should begin at once can pass a short grace.
   * Only kube-apiserver and keycloak are supported: for the others there is no readiness probe here to tell
   * when they are back, and guessing would make tests flaky.
   */
  async stopComponent(component: string, options: { readonly graceMs?: number } = {}): Promise<void> {
    const { process: running } = this.#component(component);
    await running.stop(options.graceMs);
    this.log(`${component} stopped`);
  }

  /**
   * Starts a stopped component again with the same command line (same port, certificates and data) and
   * resolves once it is ready. Starting one that runs is an error: two would fight over its port.
   */
  async startComponent(component: string): Promise<void> {
    const { process: old, index } = this.#component(component);
    if (old.running) throw new Error(`${component} is running; stop it first`);
    const started = ManagedProcess.start(old.spec, this.ownership);
    this.processes[index] = started;
    this.#info = { ...this.#info, components: this.#info.components.map((c) => (c.component === component ? { ...c, pid: started.pid } : c)) };
    writeState(this.#info);
    const abortIf = (): void => { started.assertRunning(); };
    const { keycloak } = this.#info;
    if (component === 'keycloak' && keycloak !== undefined) await waitForKeycloakReady(keycloak, abortIf);
    else await waitForApiServerReady(this.#info.kubernetes, abortIf);
    this.log(`${component} started`);
  }

  #component(component: string): { readonly process: ManagedProcess; readonly index: number } {
    if (!RESTARTABLE.has(component)) throw new Error(`stopping and starting supports ${[...RESTARTABLE].join(' and ')} only, not ${component}`);
    const index = this.processes.findIndex((p) => p.spec.component === component);
    const found = this.processes[index];
    if (found === undefined) throw new Error(`this environment has no ${component}`);
    return { process: found, index };
  }

  /**
   * Stops every component in reverse start order and removes the folder (kept when KEYWARD_KEEP_ENV=1).
   * `check` runs once every component has stopped (its logs are complete) and before the folder goes; if
   * it throws, the folder is kept for diagnosis and the error rethrown.
   */
  async stop(check?: (dir: string) => void): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const memory = Object.entries(this.peakMemory()).map(([name, mib]) => `${name} ${String(mib)} MiB`);
    this.log(`peak memory: ${memory.join(', ')}`);
    for (const child of [...this.processes].reverse()) await child.stop();
    this.guard?.release();
    try {
      check?.(this.info.dir);
    } catch (error) {
      this.log(`kept ${this.info.dir}`);
      throw error;
    }
    if (process.env['KEYWARD_KEEP_ENV'] === '1') this.log(`kept ${this.info.dir}`);
    else rmSync(this.info.dir, { recursive: true, force: true });
    this.log('environment stopped');
  }
}

/**
 * Starts the control plane (etcd, kube-apiserver, CRDs, kube-controller-manager) and, alongside it,
 * MariaDB and Keystone, and Keycloak. If any part fails, whatever did start is stopped before the error is
 * rethrown (the folder and its logs are kept for diagnosis).
 */
export async function startEnvironment(options: StartOptions): Promise<Environment> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'keyward-env-'));
  mkdirSync(dir, { recursive: true });
  const log = alsoToFile(options.log ?? ((line: string) => { process.stderr.write(`[env] ${line}\n`); }), join(dir, ENVIRONMENT_LOG));
  const started: ManagedProcess[] = [];
  const track = <T extends { process: ManagedProcess }>(component: T): T => {
    started.push(component.process);
    return component;
  };

  const stopStarted = async (): Promise<void> => {
    for (const child of [...started].reverse()) await child.stop();
  };
  const guard = options.ownership === 'session' && options.handleSignals !== false ? new SignalGuard(stopStarted, log) : undefined;

  const startControlPlane = async (): Promise<{ kubeconfig: string; access: ClusterAccess; auditLog: string; etcdUrl: string }> => {
    const binaries = await ensureControlPlaneBinaries(log);
    const etcd = await step(log, 'etcd', async () => track(await startEtcd(binaries.etcd, dir, options.ownership)));
    const apiserver = await step(log, 'kube-apiserver', async () =>
      track(await startApiServer(binaries.kubeApiserver, etcd.url, dir, options.ownership)),
    );
    const crds = readCrds(options.crdFolders ?? []);
    if (crds.length > 0) {
      await step(log, 'CRDs', () => installCrds(kubeConfigFor(apiserver), crds));
    }
    await step(log, 'kube-controller-manager', async () => {
      started.push(await startControllerManager(binaries.kubeControllerManager, apiserver.kubeconfig, dir, options.ownership));
    });
    return { ...apiserver, etcdUrl: etcd.url };
  };

  const startIdentity = async (): Promise<KeystoneAdminCredentials | undefined> => {
    if (options.keystone === false) return undefined;
    await ensureSystemPackages(log);
    const db = await step(log, 'mariadb', async () => track(await startMariaDb(dir, options.ownership)));
    const keystone = await step(log, 'keystone', async () => track(await startKeystone(dir, db, options.ownership)));
    return keystone.admin;
  };

  const startKeycloakServer = async (): Promise<KeycloakAdminCredentials | undefined> => {
    if (options.keycloak !== true) return undefined;
    const distribution = await ensureKeycloakDistribution(log);
    const keycloak = await step(log, 'keycloak', async () => track(await startKeycloak(distribution, dir, options.ownership)));
    return keycloak.admin;
  };

  const [controlPlane, identity, keycloak] = await Promise.allSettled([startControlPlane(), startIdentity(), startKeycloakServer()]);
  if (controlPlane.status === 'rejected' || identity.status === 'rejected' || keycloak.status === 'rejected') {
    await stopStarted();
    guard?.release();
    log(`start-up failed; logs kept in ${dir}`);
    throw [controlPlane, identity, keycloak].find((result): result is PromiseRejectedResult => result.status === 'rejected')?.reason;
  }

  const info: EnvironmentInfo = {
    dir,
    kubeconfig: controlPlane.value.kubeconfig,
    kubernetes: controlPlane.value.access,
    etcdUrl: controlPlane.value.etcdUrl,
    auditLog: controlPlane.value.auditLog,
    ...(identity.value === undefined ? {} : { keystone: identity.value }),
    ...(keycloak.value === undefined ? {} : { keycloak: keycloak.value }),
    components: started.map((p) => ({ component: p.spec.component, pid: p.pid, logFile: p.spec.logFile })),
    startedAt: new Date().toISOString(),
  };
  writeState(info);
  const environment = new Environment(info, started, log, guard, options.ownership);
  if (guard !== undefined) guard.stop = () => environment.stop();
  return environment;
}

/** Reads a running environment's env.json and checks that all of its processes are still alive. */
export function attachEnvironment(dir: string): EnvironmentInfo {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) throw new Error(`no environment at ${dir} (missing ${STATE_FILE}); start one first`);
  const info = JSON.parse(readFileSync(file, 'utf8')) as EnvironmentInfo;
  const dead = info.components.filter((c) => !isAlive(c.pid)).map((c) => c.component);
  if (dead.length > 0) throw new Error(`the environment at ${dir} is not healthy: ${dead.join(', ')} not running; stop it and start again`);
  return info;
}

/** Stops an environment started by another process (daemon ownership) and removes its folder. */
export async function stopEnvironmentAt(dir: string): Promise<void> {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return;
  const info = JSON.parse(readFileSync(file, 'utf8')) as EnvironmentInfo;
  for (const component of [...info.components].reverse()) await stopProcessGroup(component.pid);
  rmSync(dir, { recursive: true, force: true });
}
