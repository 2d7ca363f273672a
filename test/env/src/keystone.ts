import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ManagedProcess, type Ownership } from './process.js';
import { runCommand } from './command.js';
import { freeLoopbackPort } from './ports.js';
import { probeStatus } from './http.js';
import { waitFor } from './wait.js';
import type { StartedMariaDb } from './mariadb.js';
import { passwordAuthBody, type KeystoneAdminCredentials } from './keystone-admin.js';
import { recordSecretIn } from './secret-scan.js';

export interface StartedKeystone {
  readonly url: string;
  readonly admin: KeystoneAdminCredentials;
  readonly process: ManagedProcess;
}

function keystoneConf(dir: string, databaseUrl: string): string {
  return `[DEFAULT]
use_stderr = true

[database]
connection = ${databaseUrl}

[token]
provider = fernet

[fernet_tokens]
key_repository = ${join(dir, 'fernet-keys')}

[fernet_receipts]
key_repository = ${join(dir, 'fernet-receipts')}

[credential]
key_repository = ${join(dir, 'credential-keys')}

[identity]
# Test passwords only: cheap hashing keeps user creation fast.
password_hash_rounds = 4
`;
}

/**
 * Runs Debian's Keystone (Zed) against the given MariaDB: creates its database, writes keystone.conf,
 * runs db_sync, fernet_setup, credential_setup and bootstrap, then serves the public WSGI app with uWSGI on a
 * random port of `host` (loopback, or the node IP where pods reach it) and waits until the bootstrap admin can
 * get a token.
 */
export async function startKeystone(baseDir: string, db: StartedMariaDb, ownership: Ownership, host = '127.0.0.1'): Promise<StartedKeystone> {
  const dir = join(baseDir, 'keystone');
  mkdirSync(dir, { recursive: true });
  const logFile = join(baseDir, 'keystone.log');
  const dbPassword = randomBytes(12).toString('hex');
  recordSecretIn(baseDir, dbPassword);
  await db.sql(`CREATE DATABASE keystone;
CREATE USER 'keystone'@'127.0.0.1' IDENTIFIED BY '${dbPassword}';
GRANT ALL PRIVILEGES ON keystone.* TO 'keystone'@'127.0.0.1';`);

  const conf = join(dir, 'keystone.conf');
  writeFileSync(conf, keystoneConf(dir, `mysql+pymysql://keystone:${dbPassword}@127.0.0.1:${String(db.port)}/keystone`), { mode: 0o600 });

  const port = await freeLoopbackPort();
  const url = `http://${host}:${String(port)}/v3`;
  const admin: KeystoneAdminCredentials = {
    url,
    username: 'admin',
    password: randomBytes(12).toString('hex'),
    projectName: 'admin',
    domain: 'Default',
  };
  recordSecretIn(baseDir, admin.password);
  const owner = userInfo().username;
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  const manage = (args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string> =>
    runCommand('keystone', 'keystone-manage', ['--config-file', conf, ...args], { logFile, timeoutMs: 180_000, env });
  await manage(['db_sync']);
  await manage(['fernet_setup', '--keystone-user', owner, '--keystone-group', group]);
  await manage(['credential_setup', '--keystone-user', owner, '--keystone-group', group]);
  // The password goes in the environment, which keystone-manage reads when --bootstrap-password is absent:
  // a command line is logged and shown to every user of the machine.
  await manage([
    'bootstrap',
    '--bootstrap-username', admin.username,
    '--bootstrap-project-name', admin.projectName,
    '--bootstrap-role-name', 'admin',
    '--bootstrap-service-name', 'keystone',
    '--bootstrap-region-id', 'RegionOne',
    '--bootstrap-admin-url', url,
    '--bootstrap-internal-url', url,
    '--bootstrap-public-url', url,
  ], { OS_BOOTSTRAP_PASSWORD: admin.password });

  const server = ManagedProcess.start(
    {
      component: 'keystone',
      command: 'uwsgi',
      args: [
        '--plugin', 'python3',
        '--http-socket', `${host}:${String(port)}`,
        '--wsgi-file', '/usr/bin/keystone-wsgi-public',
        '--master', '--processes', '4',
        '--need-app', '--die-on-term',
        '--env', `OS_KEYSTONE_CONFIG_FILES=${conf}`,
      ],
      logFile,
    },
    ownership,
  );
  const body = passwordAuthBody(admin);
  await waitFor(
    () => probeStatus(`${url}/auth/tokens`, 201, { method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: 10_000 }),
    { what: 'Keystone to issue an admin token', timeoutMs: 90_000, intervalMs: 500, abortIf: () => { server.assertRunning(); } },
  );
  return { url, admin, process: server };
}
