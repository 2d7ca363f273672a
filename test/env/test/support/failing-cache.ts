// A binary cache (KEYWARD_CACHE) whose kube-apiserver fails at start: the real cache's entries, except that the
// pinned kube folder holds a kube-apiserver that prints a line and exits 3.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, repoRoot } from '../../src/paths.js';

export const INJECTED_FAILURE = 'kube-apiserver: failure injected by the test';

export function cacheWithFailingApiServer(): string {
  const real = cacheDir();
  const fake = mkdtempSync(join(tmpdir(), 'keyward-failing-cache-'));
  for (const entry of readdirSync(real).filter((name) => name !== 'kube')) symlinkSync(join(real, entry), join(fake, entry));
  const version = readFileSync(join(repoRoot, 'tools', 'kube', 'VERSION'), 'utf8').trim();
  const kube = join(fake, 'kube', version);
  mkdirSync(kube, { recursive: true });
  symlinkSync(join(real, 'kube', version, 'kube-controller-manager'), join(kube, 'kube-controller-manager'));
  writeFileSync(join(kube, 'kube-apiserver'), `#!/bin/sh\necho '${INJECTED_FAILURE}' >&2\nexit 3\n`, { mode: 0o755 });
  return fake;
}
