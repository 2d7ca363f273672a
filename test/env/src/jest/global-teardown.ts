import { dirname } from 'node:path';
import { scanForSecrets } from '../secret-scan.js';
import { ENV_FILE_VARIABLE } from '../testing.js';

/**
 * Scans every log of the run for the secrets tests recorded, then stops the environment global-setup
 * started (an attached one keeps running). A secret in any log fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  const envFile = process.env[ENV_FILE_VARIABLE];
  const findings = envFile === undefined ? [] : scanForSecrets(dirname(envFile));
  process.stderr.write(`[env] secret scan: ${findings.length === 0 ? 'no recorded secret in any log' : `${String(findings.length)} leak(s)`}\n`);
  await globalThis.keywardEnvironment?.stop();
  globalThis.keywardEnvironment = undefined;
  if (findings.length > 0) {
    const where = findings.map((f) => `recorded secret #${String(f.secretNumber)} in ${f.file}`).join('\n');
    throw new Error(`secrets leaked into logs:\n${where}`);
  }
}
