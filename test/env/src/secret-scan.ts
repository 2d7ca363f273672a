import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKLOADS_FOLDER } from './workloads/layout.js';

/** Where the environment and the tests list the secrets they created, one per line, in the environment's folder. */
export const SECRETS_LEDGER = 'test-secrets.txt';
/** Where tests keep credentials they hand to clients (kubeconfigs with tokens): never scanned. */
export const TEST_CREDENTIALS_FOLDER = 'test-credentials';

/**
 * What in an environment folder holds secrets on purpose and is never scanned: the state file, the ledger,
 * credentials (the admin kubeconfig and token file, the ServiceAccount signing key, the tests' kubeconfigs) and
 * component data (databases, keys, keystone.conf, Keycloak's home with its H2 database). Everything else is a
 * log, whatever its name, and is scanned, so a component that starts writing a new log is covered without a
 * change here. A new file that holds a secret on purpose makes the scan fail until it is listed, which errs on
 * the safe side.
 */
const SECRET_HOLDERS: ReadonlySet<string> = new Set([
  'env.json',
  SECRETS_LEDGER,
  'kubeconfig',
  'tokens.csv',
  'sa.key',
  TEST_CREDENTIALS_FOLDER,
  'etcd-data',
  'mariadb',
  'keystone',
  'keycloak',
  // The workload tier's images, containers and kubelet data (pods' logs are in pod-logs, which is scanned).
  WORKLOADS_FOLDER,
  'apiserver-certs',
]);

export interface SecretFinding {
  readonly file: string;
  /** Which recorded secret (its line in the ledger), never the secret itself. */
  readonly secretNumber: number;
}

export function recordSecretIn(dir: string, value: string): void {
  appendFileSync(join(dir, SECRETS_LEDGER), `${value}\n`, { mode: 0o600 });
}

/** Every file the scan reads: all files of the folder, recursively, except the secret holders. */
export function scannedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !SECRET_HOLDERS.has(entry.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return scannedFiles(path);
      return entry.isFile() ? [path] : [];
    });
}

/** Every scanned file of the environment folder that contains a recorded secret. */
export function scanForSecrets(dir: string): SecretFinding[] {
  const ledger = join(dir, SECRETS_LEDGER);
  if (!existsSync(ledger)) return [];
  const secrets = readFileSync(ledger, 'utf8').split('\n').filter((line) => line.length >= 8);
  const findings: SecretFinding[] = [];
  for (const file of scannedFiles(dir)) {
    // Bytes, not text: a log need not be valid UTF-8, and decoding it could hide a secret.
    const bytes = readFileSync(file);
    secrets.forEach((secret, index) => {
      if (bytes.includes(secret)) findings.push({ file, secretNumber: index + 1 });
    });
  }
  return findings;
}

/** Throws, naming each file and the number of the secret it holds (never the secret), if any log holds one. */
export function assertNoSecretsInLogs(dir: string): void {
  const findings = scanForSecrets(dir);
  if (findings.length === 0) return;
  const where = findings.map((finding) => `recorded secret #${String(finding.secretNumber)} in ${finding.file}`).join('\n');
  throw new Error(`secrets leaked into logs:\n${where}`);
}
