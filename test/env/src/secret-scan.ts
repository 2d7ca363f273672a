import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where tests list the secrets they created, one per line, in the environment's folder. */
export const SECRETS_LEDGER = 'test-secrets.txt';
/** Folders of component data (databases, keys), not logs: never scanned. */
const DATA_FOLDERS = new Set(['etcd-data', 'mariadb', 'keystone', 'apiserver-certs']);

export interface SecretFinding {
  readonly file: string;
  /** Which recorded secret (its line in the ledger), never the secret itself. */
  readonly secretNumber: number;
}

export function recordSecretIn(dir: string, value: string): void {
  appendFileSync(join(dir, SECRETS_LEDGER), `${value}\n`, { mode: 0o600 });
}

function logFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!DATA_FOLDERS.has(entry)) files.push(...logFiles(path));
    } else if (entry !== SECRETS_LEDGER && /\.(log|txt|json)$/.test(entry)) {
      files.push(path);
    }
  }
  return files;
}

/** Every log file of the environment folder that contains a recorded secret. */
export function scanForSecrets(dir: string): SecretFinding[] {
  const ledger = join(dir, SECRETS_LEDGER);
  if (!existsSync(ledger)) return [];
  const secrets = readFileSync(ledger, 'utf8').split('\n').filter((line) => line.length >= 8);
  const findings: SecretFinding[] = [];
  for (const file of logFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    secrets.forEach((secret, index) => {
      if (text.includes(secret)) findings.push({ file, secretNumber: index + 1 });
    });
  }
  return findings;
}
