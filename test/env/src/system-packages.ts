import { existsSync } from 'node:fs';
import { runTool } from './binaries.js';

/** What each package set of tools/install-system-deps.sh provides, by files that tell whether it is installed. */
const SETS = {
  identity: { what: 'Keystone, MariaDB and uWSGI', files: ['/usr/bin/keystone-manage', '/usr/sbin/mariadbd', '/usr/bin/mysql_install_db', '/usr/bin/uwsgi'] },
  workloads: {
    what: 'containerd, runc, the CNI plugins, iptables and mmdebstrap',
    files: ['/usr/bin/containerd', '/usr/bin/containerd-shim-runc-v2', '/usr/bin/ctr', '/usr/sbin/runc', '/usr/lib/cni/bridge', '/usr/lib/cni/host-local', '/usr/sbin/iptables', '/usr/bin/mmdebstrap'],
  },
} as const;

/** Installs a set of Debian packages the environment runs when any of it is missing. */
export async function ensureSystemPackages(log: (line: string) => void, set: keyof typeof SETS = 'identity'): Promise<void> {
  const { what, files } = SETS[set];
  if (files.every((file) => existsSync(file))) return;
  log(`installing ${what} from Debian packages`);
  await runTool('apt', 'install-system-deps.sh', set === 'identity' ? [] : [set], log);
}
