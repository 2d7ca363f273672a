import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The repository root (this file lives in test/env/src or test/env/dist). */
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Where built binaries are cached across runs and checkouts. */
export function cacheDir(): string {
  return process.env['KEYWARD_CACHE'] ?? join(homedir(), '.cache', 'keyward');
}
