import { mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { ManagedProcess, type Ownership } from './process.js';
import { runCommand } from './command.js';
import { freeLoopbackPort } from './ports.js';
import { waitFor } from './wait.js';

export interface StartedMariaDb {
  readonly port: number;
  readonly socket: string;
  readonly process: ManagedProcess;
  /** Runs SQL as the database root user over the Unix socket. */
  readonly sql: (statements: string) => Promise<string>;
}

const runningAsRoot = process.getuid?.() === 0;

/**
 * Initialises a throw-away MariaDB data directory and serves it on a random loopback port, and also on
 * `alsoListenOn` (the workload tier's node IP, where pods reach it) when given. As root, mysqld
 * refuses to run as root, so the data directory is handed to the `mysql` user the Debian package creates.
 * `--no-defaults` keeps the machine's /etc/mysql configuration out of it.
 */
export async function startMariaDb(dir: string, ownership: Ownership, alsoListenOn?: string): Promise<StartedMariaDb> {
  const logFile = join(dir, 'mariadb.log');
  const dataDir = join(dir, 'mariadb');
  // Its own folder for temporary tables: in the shared /tmp, a table of the bootstrap was seen to vanish while
  // other environments started beside it ("Unknown table 'mysql.tmp_proxies_priv'"), failing the install.
  const tmpDir = join(dir, 'mariadb-tmp');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(tmpDir, { recursive: true });
  chmodSync(dir, 0o755);
  const userArgs = runningAsRoot ? ['--user=mysql'] : [];
  if (runningAsRoot) await runCommand('mariadb', 'chown', ['mysql:mysql', dataDir, tmpDir], { logFile });

  await runCommand(
    'mariadb',
    'mysql_install_db',
    ['--no-defaults', `--datadir=${dataDir}`, `--tmpdir=${tmpDir}`, ...userArgs, '--auth-root-authentication-method=normal', '--skip-test-db'],
    { logFile },
  );

  const port = await freeLoopbackPort();
  const socket = join(dataDir, 'mysqld.sock');
  const mysqld = ManagedProcess.start(
    {
      component: 'mariadb',
      command: '/usr/sbin/mariadbd',
      args: [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--tmpdir=${tmpDir}`,
        ...userArgs,
        `--socket=${socket}`,
        `--port=${String(port)}`,
        `--bind-address=${['127.0.0.1', ...(alsoListenOn === undefined ? [] : [alsoListenOn])].join(',')}`,
        `--pid-file=${join(dataDir, 'mariadbd.pid')}`,
        '--skip-name-resolve',
        '--innodb-buffer-pool-size=64M',
        '--max-connections=500',
      ],
      logFile,
    },
    ownership,
  );
  const client = ['--no-defaults', `--socket=${socket}`, '--user=root'];
  await waitFor(
    async () => ((await runCommand('mariadb', 'mysqladmin', [...client, 'ping'], { logFile, timeoutMs: 5_000 })).includes('alive') ? true : undefined),
    { what: 'MariaDB to accept connections', timeoutMs: 60_000, intervalMs: 500, abortIf: () => { mysqld.assertRunning(); } },
  );
  const sql = (statements: string): Promise<string> => runCommand('mariadb', 'mysql', [...client, '--batch'], { logFile, input: statements });
  return { port, socket, process: mysqld, sql };
}
