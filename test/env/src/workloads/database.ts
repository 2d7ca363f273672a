import { randomBytes } from 'node:crypto';
import type { StartedMariaDb } from '../mariadb.js';
import { recordSecretIn } from '../secret-scan.js';
import { NODE_NETWORK } from './node-network.js';

/** How pods reach the environment's MariaDB: on the node IP, as a user that may connect from the pod subnet only. */
export interface PodDatabaseAccess {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

/** The pod subnet as a MariaDB host pattern ("10.213.0.%" for a /24). */
export function podHostPattern(): string {
  return `${NODE_NETWORK.podSubnet.split('.').slice(0, 3).join('.')}.%`;
}

/**
 * Creates a database user for pods, with every privilege and the right to grant them, so a workload under test
 * (the Keystone service) can create its own database and user as it would on a real server.
 */
export async function createPodDatabaseUser(db: StartedMariaDb, dir: string): Promise<PodDatabaseAccess> {
  const password = randomBytes(18).toString('hex');
  recordSecretIn(dir, password);
  const user = 'workloads';
  const account = `'${user}'@'${podHostPattern()}'`;
  await db.sql(`CREATE USER ${account} IDENTIFIED BY '${password}';
GRANT ALL PRIVILEGES ON *.* TO ${account} WITH GRANT OPTION;`);
  return { host: NODE_NETWORK.nodeIp, port: db.port, user, password };
}
