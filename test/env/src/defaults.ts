import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the long-running environment for people (`pnpm devenv start`) lives, unless KEYWARD_ENV_DIR says otherwise. */
export function defaultDaemonDir(): string {
  return process.env['KEYWARD_ENV_DIR'] ?? join(tmpdir(), 'keyward-dev-env');
}
