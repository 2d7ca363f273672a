import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentError } from './errors.js';
import type { KeycloakDistribution } from './keycloak-dist.js';
import { probeStatus } from './http.js';
import { freeLoopbackPort } from './ports.js';
import { ManagedProcess, type Ownership } from './process.js';
import { recordSecretIn } from './secret-scan.js';
import { waitFor } from './wait.js';

/** How to reach a running Keycloak and its bootstrap admins (both in the master realm). */
export interface KeycloakAdminCredentials {
  /** The server root, without the legacy /auth prefix: http://127.0.0.1:<port>. */
  readonly url: string;
  /** The management interface, which serves /health/ready. */
  readonly managementUrl: string;
  readonly version: string;
  /** The bootstrap admin user, for the password grant on the admin-cli client. */
  readonly username: string;
  readonly password: string;
  /** The bootstrap admin service account, for the client_credentials grant. */
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface StartedKeycloak {
  readonly admin: KeycloakAdminCredentials;
  readonly process: ManagedProcess;
}

/** The master realm's token endpoint. */
export function masterTokenUrl(keycloak: Pick<KeycloakAdminCredentials, 'url'>): string {
  return `${keycloak.url}/realms/master/protocol/openid-connect/token`;
}

/**
 * A home of this environment's own for the shared build: kc.sh derives the home (and so the data folder: the
 * H2 database, transaction logs) from its own location, so a copy of kc.sh beside links to the cached lib,
 * conf, themes and providers keeps every environment's data apart and the cache untouched.
 */
export function environmentHome(distribution: KeycloakDistribution, home: string): void {
  mkdirSync(join(home, 'bin'), { recursive: true });
  copyFileSync(join(distribution.home, 'bin', 'kc.sh'), join(home, 'bin', 'kc.sh'));
  chmodSync(join(home, 'bin', 'kc.sh'), 0o755);
  for (const entry of readdirSync(distribution.home)) {
    if (entry !== 'bin' && entry !== 'data') symlinkSync(join(distribution.home, entry), join(home, entry));
  }
}

/**
 * Waits until the management interface reports ready and the bootstrap service account gets a token (the
 * bootstrap admins are created during start-up, so readiness alone would not prove they work).
 */
export async function waitForKeycloakReady(keycloak: KeycloakAdminCredentials, abortIf: () => void): Promise<void> {
  await waitFor(() => probeStatus(`${keycloak.managementUrl}/health/ready`, 200), {
    what: 'Keycloak /health/ready',
    timeoutMs: 240_000,
    intervalMs: 500,
    abortIf,
  });
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: keycloak.clientId, client_secret: keycloak.clientSecret }).toString();
  await waitFor(
    () => probeStatus(masterTokenUrl(keycloak), 200, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, timeoutMs: 30_000 }),
    { what: 'Keycloak to issue a token to the bootstrap service account', timeoutMs: 60_000, intervalMs: 500, abortIf },
  );
}

/** How often a start is tried again after another process took one of its ports before Keycloak bound it. */
const PORT_RACE_ATTEMPTS = 3;

/**
 * Runs `start` again, up to PORT_RACE_ATTEMPTS times, while it fails because another process took one of its
 * ports: Keycloak binds its ports some 20 s after they were found free, so on a shared machine another process
 * may take one first.
 */
export async function onFreePorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const portTaken = error instanceof ComponentError && error.logTail.includes('Address already in use');
      if (!portTaken || attempt === PORT_RACE_ATTEMPTS) throw error;
    }
  }
}

/** Two distinct free ports: Keycloak's HTTP port and its management port. */
async function freePorts(): Promise<{ readonly port: number; readonly managementPort: number }> {
  const port = await freeLoopbackPort();
  let managementPort = await freeLoopbackPort();
  // The kernel may hand out a just-released port again.
  while (managementPort === port) managementPort = await freeLoopbackPort();
  return { port, managementPort };
}

export interface KeycloakLaunch {
  readonly component: string;
  readonly home: string;
  readonly host: string;
  readonly logFile: string;
  /** The bootstrap admins' variables (KC_BOOTSTRAP_ADMIN_*), secrets that go in the environment only. */
  readonly bootstrap: Readonly<Record<string, string>>;
}

/**
 * Spawns the built Keycloak (production mode, --optimized) of `home` on two free ports of `host`, with the
 * dev-file (H2) database in the home's data folder, a local cache (no clustering, so nothing else listens) and
 * plain HTTP; resolves with the process and its URLs, without waiting for it.
 */
export async function launchKeycloak(distribution: KeycloakDistribution, launch: KeycloakLaunch, ownership: Ownership): Promise<{ readonly server: ManagedProcess; readonly url: string; readonly managementUrl: string }> {
  const { port, managementPort } = await freePorts();
  const server = ManagedProcess.start(
    {
      component: launch.component,
      command: join(launch.home, 'bin', 'kc.sh'),
      args: [
        'start', '--optimized',
        '--cache=local',
        '--http-enabled=true',
        `--http-host=${launch.host}`,
        `--http-port=${String(port)}`,
        `--http-management-port=${String(managementPort)}`,
        '--hostname-strict=false',
        // H2 gives up on a row another transaction holds after 1 s by default, and Keycloak then answers 400
        // "Database operation failed"; test files run side by side on a loaded machine wait for it instead.
        '--db-url-properties=;LOCK_TIMEOUT=30000',
      ],
      // Secrets go in the environment, never on the command line, which is logged and visible to every user.
      env: { JAVA_HOME: distribution.javaHome, ...launch.bootstrap },
      logFile: launch.logFile,
    },
    ownership,
  );
  return { server, url: `http://${launch.host}:${String(port)}`, managementUrl: `http://${launch.host}:${String(managementPort)}` };
}

/**
 * Runs the built Keycloak on random ports of `host` (loopback, or the node IP where pods reach it) with a copy of
 * the seeded database `seed` (see keycloak-seed.ts) in the environment folder, and a bootstrap admin user and
 * service account with random secrets, which Keycloak creates at start as in a database of its own making. Stops
 * it again if it does not become ready; starts again on other ports if another process took one first.
 */
export async function startKeycloak(distribution: KeycloakDistribution, seed: string, baseDir: string, ownership: Ownership, host = '127.0.0.1'): Promise<StartedKeycloak> {
  const home = join(baseDir, 'keycloak', 'home');
  environmentHome(distribution, home);
  return onFreePorts(async () => {
    // The bootstrap admins are created only in a master realm without users: each attempt starts from the seed.
    rmSync(join(home, 'data'), { recursive: true, force: true });
    cpSync(seed, join(home, 'data', 'h2'), { recursive: true });
    return startKeycloakOnce(distribution, home, baseDir, ownership, host);
  });
}

async function startKeycloakOnce(distribution: KeycloakDistribution, home: string, baseDir: string, ownership: Ownership, host: string): Promise<StartedKeycloak> {
  const password = randomBytes(16).toString('hex');
  const clientSecret = randomBytes(24).toString('hex');
  recordSecretIn(baseDir, password);
  recordSecretIn(baseDir, clientSecret);
  const username = 'admin';
  const clientId = 'keyward-bootstrap-admin';
  const { server, url, managementUrl } = await launchKeycloak(distribution, {
    component: 'keycloak',
    home,
    host,
    logFile: join(baseDir, 'keycloak.log'),
    bootstrap: {
      KC_BOOTSTRAP_ADMIN_USERNAME: username,
      KC_BOOTSTRAP_ADMIN_PASSWORD: password,
      KC_BOOTSTRAP_ADMIN_CLIENT_ID: clientId,
      KC_BOOTSTRAP_ADMIN_CLIENT_SECRET: clientSecret,
    },
  }, ownership);
  const admin: KeycloakAdminCredentials = { url, managementUrl, version: distribution.version, username, password, clientId, clientSecret };
  try {
    await waitForKeycloakReady(admin, () => { server.assertRunning(); });
  } catch (error) {
    await server.stop();
    if (error instanceof ComponentError) throw error;
    throw new ComponentError('keycloak', error instanceof Error ? error.message : String(error), server.logTail());
  }
  return { admin, process: server };
}
