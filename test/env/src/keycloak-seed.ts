import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runCommand } from './command.js';
import { ComponentError } from './errors.js';
import { probeStatus } from './http.js';
import { environmentHome, launchKeycloak, onFreePorts } from './keycloak.js';
import type { KeycloakDistribution } from './keycloak-dist.js';
import { cacheDir } from './paths.js';
import type { Ownership } from './process.js';
import { StartUp } from './start-up.js';
import { waitFor } from './wait.js';

/** The H2 database file of Keycloak's dev-file database, in the home's data/h2. */
const DATABASE_FILE = 'keycloakdb.mv.db';

/** Where the seed of a build is kept: per Keycloak version and build options, as the build itself. */
function seedDir(distribution: KeycloakDistribution): string {
  return join(cacheDir(), 'keycloak-seed', distribution.version, basename(dirname(distribution.home)));
}

/**
 * The database a fresh Keycloak of this build makes before it creates its master realm: the schema, whose some
 * 200 migrations take about 12 s of every first start on a quiet machine and 30 s under load. Keycloak takes a
 * database without realms for a new install: it creates the master realm and the bootstrap admins from
 * KC_BOOTSTRAP_ADMIN_* as on an empty one, so each environment still gets a master realm, keys and admins of its own.
 *
 * Made once per build with a start of its own (whose realm is then emptied out again, see emptyOfRealms), kept
 * under the cache and copied into each environment: returns the folder to copy to the home's data/h2.
 */
export async function ensureKeycloakSeed(distribution: KeycloakDistribution, baseDir: string, ownership: Ownership, log: (line: string) => void): Promise<string> {
  const seed = join(seedDir(distribution), 'h2');
  if (existsSync(join(seed, DATABASE_FILE))) return seed;
  log("making Keycloak's initial database (cached afterwards)");
  const home = join(baseDir, 'keycloak', 'seed-home');
  environmentHome(distribution, home);
  const logFile = join(baseDir, 'keycloak-seed.log');
  await onFreePorts(async () => {
    rmSync(join(home, 'data'), { recursive: true, force: true });
    await initialiseDatabase(distribution, home, logFile, ownership);
  });
  await emptyOfRealms(distribution, join(home, 'data', 'h2'), logFile);
  // Another environment may have made one meanwhile: either copy is as good, the first one stays.
  const partial = `${seedDir(distribution)}.${String(process.pid)}.partial`;
  mkdirSync(partial, { recursive: true });
  cpSync(join(home, 'data', 'h2', DATABASE_FILE), join(partial, 'h2', DATABASE_FILE));
  try {
    mkdirSync(dirname(seedDir(distribution)), { recursive: true });
    renameSync(partial, seedDir(distribution));
  } catch {
    rmSync(partial, { recursive: true, force: true });
  }
  rmSync(home, { recursive: true, force: true });
  return seed;
}

/** Starts Keycloak in `home` until its master realm exists, then stops it (cleanly, so H2 has written everything). */
async function initialiseDatabase(distribution: KeycloakDistribution, home: string, logFile: string, ownership: Ownership): Promise<void> {
  // No bootstrap admins: their secrets would not be this environment's to record.
  const { server, url, managementUrl } = await launchKeycloak(distribution, { component: 'keycloak seed', home, host: '127.0.0.1', logFile, bootstrap: {} }, ownership);
  const abortIf = (): void => { server.assertRunning(); };
  try {
    await waitFor(() => probeStatus(`${managementUrl}/health/ready`, 200), { what: 'Keycloak /health/ready', timeoutMs: 240_000, intervalMs: 500, abortIf });
    await waitFor(() => probeStatus(`${url}/realms/master`, 200), { what: "Keycloak's master realm", timeoutMs: 60_000, intervalMs: 500, abortIf });
  } catch (error) {
    await server.stop();
    if (error instanceof ComponentError) throw error;
    throw new ComponentError('keycloak seed', error instanceof Error ? error.message : String(error), server.logTail());
  }
  await server.stop(60_000);
  // A helper of the start-up, not a component of the environment: it is not stopped again, nor listed.
  StartUp.current()?.forget(server);
}

/** The H2 tables Liquibase keeps its record of applied migrations in: all that stays of the first start. */
const LIQUIBASE_TABLES = ['DATABASECHANGELOG', 'DATABASECHANGELOGLOCK'];

/**
 * Empties every table but Liquibase's, as they are after the migrations and before Keycloak's first start creates
 * the master realm (the migrations only create and change tables; what rows there are, that start wrote). Uses H2's
 * shell from the build's own libraries; the dev-file database has no user name or password.
 */
async function emptyOfRealms(distribution: KeycloakDistribution, h2Dir: string, logFile: string): Promise<void> {
  const libraries = join(distribution.home, 'lib', 'lib', 'main');
  const h2 = readdirSync(libraries).find((file) => file.startsWith('com.h2database.h2-') && file.endsWith('.jar'));
  if (h2 === undefined) throw new ComponentError('keycloak seed', `no H2 library in ${libraries}`);
  const url = `jdbc:h2:file:${join(h2Dir, 'keycloakdb')};IFEXISTS=TRUE`;
  const shell = (sql: string): Promise<string> =>
    runCommand('keycloak seed', join(distribution.javaHome, 'bin', 'java'), ['-cp', join(libraries, h2), 'org.h2.tools.Shell', '-url', url, '-user', '', '-password', '', '-sql', sql], { logFile });
  // The shell prints a header line, one table name a line, and a count.
  const listed = await shell("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'");
  const tables = listed.split('\n').map((line) => line.trim()).filter((line) => /^[A-Z][A-Z0-9_]*$/.test(line) && line !== 'TABLE_NAME');
  if (!tables.includes('REALM')) throw new ComponentError('keycloak seed', "no REALM table in Keycloak's database", listed);
  const emptied = tables.filter((table) => !LIQUIBASE_TABLES.includes(table));
  await shell(['SET REFERENTIAL_INTEGRITY FALSE', ...emptied.map((table) => `TRUNCATE TABLE "${table}"`), 'SET REFERENTIAL_INTEGRITY TRUE'].join('; '));
}
