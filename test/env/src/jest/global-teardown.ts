import { dirname } from 'node:path';
import { assertNoSecretsInLogs } from '../secret-scan.js';
import { ENV_FILE_VARIABLE } from '../testing.js';

/**
 * Stops the environment global-setup started and scans every log of its folder (components, the
 * environment's own, operators, in-process controllers) for the secrets the environment and the tests
 * recorded, once the components have stopped and their logs are complete. An attached environment keeps
 * running and is scanned as it is. A secret in any log fails the run, and the folder is kept.
 */
export default async function globalTeardown(): Promise<void> {
  const environment = globalThis.keywardEnvironment;
  globalThis.keywardEnvironment = undefined;
  const envFile = process.env[ENV_FILE_VARIABLE];
  const scan = (dir: string): void => {
    assertNoSecretsInLogs(dir);
    process.stderr.write('[env] secret scan: no recorded secret in any log\n');
  };
  if (environment !== undefined) await environment.stop(scan);
  else if (envFile !== undefined) scan(dirname(envFile));
}
