import { join } from 'node:path';
import { attachEnvironment, kubeConfigFor, startEnvironment, type Environment } from '../environment.js';
import { installCrds, readCrds } from '../crds.js';
import { defaultDaemonDir } from '../defaults.js';
import { repoRoot } from '../paths.js';
import { ENV_FILE_VARIABLE, TEST_CRD_FOLDERS } from '../testing.js';

declare global {
  // Shared with global-teardown.ts, which jest runs in the same context.
  var keywardEnvironment: Environment | undefined;
}

/**
 * Starts one environment for the whole integration run, or attaches to the one `pnpm devenv start` runs when
 * KEYWARD_ENV_ATTACH=1 (so a developer pays start-up once). Test files find it through KEYWARD_ENV_FILE.
 */
export default async function globalSetup(): Promise<void> {
  const crdFolders = TEST_CRD_FOLDERS.map((folder) => join(repoRoot, folder));
  if (process.env['KEYWARD_ENV_ATTACH'] === '1') {
    const info = attachEnvironment(defaultDaemonDir());
    await installCrds(kubeConfigFor(info), readCrds(crdFolders));
    process.env[ENV_FILE_VARIABLE] = join(info.dir, 'env.json');
    return;
  }
  const started = Date.now();
  const environment = await startEnvironment({ ownership: 'session', crdFolders, keycloak: true });
  process.stderr.write(`[env] environment ready in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
  globalThis.keywardEnvironment = environment;
  process.env[ENV_FILE_VARIABLE] = join(environment.info.dir, 'env.json');
}
