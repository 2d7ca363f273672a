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
import { ensureKeycloakSeed } from './keycloak-seed.js';
import { startKeystone } from './keystone.js';
import type { KeystoneAdminCredentials } from './keystone-admin.js';
import type { ClusterAccess } from './kubeconfig.js';
import { startMariaDb } from './mariadb.js';
import { processGroupPeakRssMiB } from './memory.js';
import { isAlive, stopProcessGroup, ManagedProcess, type Ownership } from './process.js';
import { onShutdown } from './shutdown.js';
import { StartUp } from './start-up.js';
import { ensureSystemPackages } from './system-packages.js';
import { createPodDatabaseUser, type PodDatabaseAccess } from './workloads/database.js';
import { NODE_NETWORK } from './workloads/node-network.js';
import { cleanUpWorkloadTier, DEFAULT_TIER_WAIT_MS, prepareNode, startWorkloadTier, type WorkloadsInfo } from './workloads/tier.js';
import { step } from './step.js';

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
  /** The node, its images, and MariaDB as pods reach it (with Keystone); with StartOptions.workloads. */
  readonly workloads?: WorkloadsInfo & { readonly database?: PodDatabaseAccess };
  /** In start order; stopped in reverse. */
  readonly components: readonly ComponentInfo[];
  readonly startedAt: string;
}

export interface StartOptions {
  /** Folder for data, logs and env.json; a fresh temporary folder by default. */
  readonly dir?: string;
  /**
   * "session": everything stops when this process exits; "daemon": once started, it keeps running until
   * stopEnvironment. Either way, a signal or a failure during start-up stops everything and removes the folder;
   * with "session" a signal does so also later (see shutdown.ts: a caller stops its own things first by
   * registering them there after the environment started).
   */
  readonly ownership: Ownership;
  /** Folders whose CRDs are installed before kube-controller-manager starts. */
  readonly crdFolders?: readonly string[];
  /** Start MariaDB and Keystone too (default true). */
  readonly keystone?: boolean;
  /**
   * Start MariaDB even without Keystone (default false; Keystone always has it): for the workload tier's pods,
   * which get their own database user on the node IP (a Keystone in pods needs the database, not the host's Keystone).
   */
  readonly mariadb?: boolean;
  /** Start Keycloak too (default false: it needs about half a GiB and is the slowest component to start). */
  readonly keycloak?: boolean;
  /**
   * Start the workload tier too, so pods run (default false: most tests need none, and a machine runs one tier at a
   * time): containerd, kubelet, kube-scheduler, kube-proxy and a cluster DNS on a bridge whose address is the node
   * IP, where MariaDB listens as well, and kube-apiserver, Keystone and Keycloak instead of loopback (an operator in
   * a pod reaches them there); kube-controller-manager then runs the controllers that workloads need.
   */
  readonly workloads?: boolean;
  /**
   * How long to wait for the machine's workload tier while another environment runs it (default 10 minutes, so
   * test runs that share a machine take turns); 0 refuses at once.
   */
  readonly workloadsWaitMs?: number;
  /**
   * Unpack the Keystone image when the tier starts (default true). False leaves it to the first Keystone container,
   * for a start whose pods run only the sandbox image: unpacking Keystone's 500 MB is most of a tier's start.
   */
  readonly unpackImages?: boolean;
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

/** Removes the environment's folder unless KEYWARD_KEEP_ENV=1 keeps it; says whether it is gone. */
function removeFolder(dir: string): boolean {
  if (process.env['KEYWARD_KEEP_ENV'] === '1') return false;
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  return true;
}

function writeState(info: EnvironmentInfo): void {
  writeFileSync(join(info.dir, STATE_FILE), JSON.stringify(info, null, 2), { mode: 0o600 });
}

export function kubeConfigFor(info: Pick<EnvironmentInfo, 'kubeconfig'>): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(info.kubeconfig);
  return kubeConfig;
}

/** A started environment, owned by this process. */
export class Environment {
  #stopping: Promise<void> | undefined;
  #info: EnvironmentInfo;

  constructor(
    info: EnvironmentInfo,
    private readonly processes: ManagedProcess[],
    private readonly log: (line: string) => void,
    /** Ends the signal handling registered for this environment (see startEnvironment). */
    private readonly releaseShutdown: () => void,
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
   * it throws, the folder is kept for diagnosis and the error rethrown. Calls while it stops join the first.
   */
  stop(check?: (dir: string) => void): Promise<void> {
    this.#stopping ??= this.#stop(check);
    return this.#stopping;
  }

  async #stop(check: ((dir: string) => void) | undefined): Promise<void> {
    const memory = Object.entries(this.peakMemory()).map(([name, mib]) => `${name} ${String(mib)} MiB`);
    this.log(`peak memory: ${memory.join(', ')}`);
    for (const child of [...this.processes].reverse()) await child.stop();
    cleanUpWorkloadTier(this.info.dir, this.log);
    this.releaseShutdown();
    try {
      check?.(this.info.dir);
    } catch (error) {
      this.log(`kept ${this.info.dir}`);
      throw error;
    }
    if (!removeFolder(this.info.dir)) this.log(`kept ${this.info.dir}`);
    this.log('environment stopped');
  }
}

/**
 * Starts the control plane (etcd, kube-apiserver, CRDs, kube-controller-manager) and, alongside it,
 * MariaDB and Keystone, and Keycloak. If any part fails, the rest of the start-up is abandoned, whatever did
 * start is stopped and the folder removed (KEYWARD_KEEP_ENV=1 keeps it) before the first error is rethrown; it
 * names the component and carries the last lines of its log. A signal during start-up stops everything and
 * removes the folder too, and then the process exits: the returned promise never settles.
 */
export async function startEnvironment(options: StartOptions): Promise<Environment> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'keyward-env-'));
  mkdirSync(dir, { recursive: true });
  const log = alsoToFile(options.log ?? ((line: string) => { process.stderr.write(`[env] ${line}\n`); }), join(dir, ENVIRONMENT_LOG));
  const startUp = new StartUp();
  let stopping: Promise<void> | undefined;
  const stopStartUp = (): Promise<void> => {
    stopping ??= (async () => {
      startUp.abandon();
      for (const child of [...startUp.processes].reverse()) await child.stop();
      cleanUpWorkloadTier(dir, log);
      log(removeFolder(dir)
        ? 'stopped everything started so far and removed the folder (KEYWARD_KEEP_ENV=1 keeps it)'
        : `stopped everything started so far; kept ${dir}`);
    })();
    return stopping;
  };
  // Registered before the first process is spawned: from then on, a signal stops whatever has started.
  let interruptedBy: string | undefined;
  let stopOnSignal = stopStartUp;
  const releaseShutdown = onShutdown({
    graceful: async (reason) => {
      interruptedBy ??= reason;
      log(`${reason}: stopping the environment (a second signal kills it at once)`);
      await stopOnSignal();
    },
    immediate: (reason) => {
      startUp.killAll();
      cleanUpWorkloadTier(dir, log);
      log(removeFolder(dir) ? `${reason}: killed everything at once and removed the folder` : `${reason}: killed everything at once; kept ${dir}`);
    },
  });

  // Where the servers that pods use listen: with the workload tier, on the node's bridge, which is all pods reach.
  const listenOn = options.workloads === true ? NODE_NETWORK.nodeIp : '127.0.0.1';

  const startControlPlane = async (): Promise<{ kubeconfig: string; access: ClusterAccess; auditLog: string; etcdUrl: string }> => {
    const binaries = await ensureControlPlaneBinaries(log);
    const etcd = await step(log, 'etcd', () => startEtcd(binaries.etcd, dir, options.ownership));
    const apiserver = await step(log, 'kube-apiserver', () => startApiServer(binaries.kubeApiserver, etcd.url, dir, options.ownership, listenOn));
    const crds = readCrds(options.crdFolders ?? []);
    if (crds.length > 0) {
      await step(log, 'CRDs', () => installCrds(kubeConfigFor(apiserver), crds));
    }
    await step(log, 'kube-controller-manager', () =>
      startControllerManager(binaries.kubeControllerManager, apiserver.kubeconfig, apiserver.serviceAccounts, dir, options.ownership, options.workloads === true),
    );
    return { ...apiserver, etcdUrl: etcd.url };
  };

  const startIdentity = async (): Promise<{ keystone?: KeystoneAdminCredentials; podDatabase?: PodDatabaseAccess } | undefined> => {
    const withKeystone = options.keystone !== false;
    if (!withKeystone && options.mariadb !== true) return undefined;
    await ensureSystemPackages(log);
    const nodeIp = options.workloads === true ? NODE_NETWORK.nodeIp : undefined;
    const db = await step(log, 'mariadb', () => startMariaDb(dir, options.ownership, nodeIp));
    const [keystone, podDatabase] = await Promise.all([
      withKeystone ? step(log, 'keystone', () => startKeystone(dir, db, options.ownership, listenOn)) : undefined,
      nodeIp === undefined ? undefined : createPodDatabaseUser(db, dir),
    ]);
    return { ...(keystone === undefined ? {} : { keystone: keystone.admin }), ...(podDatabase === undefined ? {} : { podDatabase }) };
  };

  const startKeycloakServer = async (): Promise<KeycloakAdminCredentials | undefined> => {
    if (options.keycloak !== true) return undefined;
    const distribution = await ensureKeycloakDistribution(log);
    const seed = await ensureKeycloakSeed(distribution, dir, options.ownership, log);
    const keycloak = await step(log, 'keycloak', () => startKeycloak(distribution, seed, dir, options.ownership, listenOn));
    return keycloak.admin;
  };

  if (options.workloads === true) {
    try {
      // In the start-up's context: a signal while it waits for another environment's tier ends the wait.
      await startUp.run(() => step(log, 'node network', () => prepareNode(dir, log, options.workloadsWaitMs ?? DEFAULT_TIER_WAIT_MS)));
    } catch (error) {
      log('start-up failed');
      await stopStartUp();
      releaseShutdown();
      throw error;
    }
  }

  // The first failure abandons the rest of the start-up: the other parts fail fast instead of finishing first.
  let firstFailure: unknown;
  const abandonOnFailure = async <T>(part: () => Promise<T>): Promise<T> => {
    try {
      return await part();
    } catch (error) {
      firstFailure ??= error;
      startUp.abandon();
      throw error;
    }
  };
  const [controlPlane, identity, keycloak, workloads] = await startUp.run(() => {
    const controlPlaneUp = abandonOnFailure(startControlPlane);
    const startWorkloads = async (): Promise<WorkloadsInfo | undefined> => {
      if (options.workloads !== true) return undefined;
      return startWorkloadTier({ dir, ownership: options.ownership, log, controlPlane: controlPlaneUp, unpackImages: options.unpackImages ?? true });
    };
    return Promise.allSettled([controlPlaneUp, abandonOnFailure(startIdentity), abandonOnFailure(startKeycloakServer), abandonOnFailure(startWorkloads)]);
  });
  // Interrupted: the shutdown stops everything and exits the process.
  if (interruptedBy !== undefined) return new Promise<never>(() => undefined);
  if (controlPlane.status === 'rejected' || identity.status === 'rejected' || keycloak.status === 'rejected' || workloads.status === 'rejected') {
    log('start-up failed');
    await stopStartUp();
    releaseShutdown();
    throw firstFailure;
  }

  const info: EnvironmentInfo = {
    dir,
    kubeconfig: controlPlane.value.kubeconfig,
    kubernetes: controlPlane.value.access,
    etcdUrl: controlPlane.value.etcdUrl,
    auditLog: controlPlane.value.auditLog,
    ...(identity.value?.keystone === undefined ? {} : { keystone: identity.value.keystone }),
    ...(keycloak.value === undefined ? {} : { keycloak: keycloak.value }),
    ...(workloads.value === undefined ? {} : { workloads: { ...workloads.value, ...(identity.value?.podDatabase === undefined ? {} : { database: identity.value.podDatabase }) } }),
    components: startUp.processes.map((p) => ({ component: p.spec.component, pid: p.pid, logFile: p.spec.logFile })),
    startedAt: new Date().toISOString(),
  };
  writeState(info);
  const environment = new Environment(info, startUp.processes, log, releaseShutdown, options.ownership);
  stopOnSignal = () => environment.stop();
  // A daemon environment is handed off: it outlives this process.
  if (options.ownership === 'daemon') releaseShutdown();
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
  cleanUpWorkloadTier(dir, (line) => { process.stderr.write(`${line}\n`); });
  rmSync(dir, { recursive: true, force: true });
}
