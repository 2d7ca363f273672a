import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentError } from './errors.js';
import { repoRoot } from './paths.js';

const REQUIRED_FILES = ['/usr/bin/keystone-manage', '/usr/sbin/mariadbd', '/usr/bin/mysql_install_db', '/usr/bin/uwsgi'];

/** Installs Keystone, MariaDB and uWSGI from Debian's packages when any of them is missing. */
export async function ensureSystemPackages(log: (line: string) => void): Promise<void> {
  if (REQUIRED_FILES.every((file) => existsSync(file))) return;
  log('installing Keystone, MariaDB and uWSGI from Debian packages');
  await new Promise<void>((resolve, reject) => {
    execFile('bash', [join(repoRoot, 'tools', 'install-system-deps.sh')], (error, stdout, stderr) => {
      if (error === null) resolve();
      else reject(new ComponentError('apt', 'installing system packages failed', `${stdout}${stderr}`.trim()));
    });
  });
}
