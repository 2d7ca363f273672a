import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cacheDir, repoRoot } from '../paths.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Sources (.ts, under tsx or jest) or tsc's output (.js), whichever this module was loaded from. */
const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * What the bundle is made of: the modules of this folder (the program imports nothing from outside it, which
 * bundling checks) and the locked dependencies.
 */
function bundleKey(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(here).filter((file) => file.endsWith(extension)).sort()) {
    hash.update(name).update(readFileSync(join(here, name)));
  }
  hash.update(readFileSync(join(repoRoot, 'pnpm-lock.yaml')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The cluster DNS program (cluster-dns-main) as one ES module for `node` alone: loading @kubernetes/client-node's
 * some 1,500 module files through tsx took seconds of every tier start, the bundle loads in a fraction of one.
 * Built with esbuild's own binary (its JavaScript API refuses jest's module realm) once per change of the sources
 * or the lockfile, and kept in the cache; a build replaces the previous one.
 */
export async function clusterDnsProgram(): Promise<string> {
  const folder = join(cacheDir(), 'cluster-dns');
  const bundle = join(folder, `${bundleKey()}.mjs`);
  if (existsSync(bundle)) return bundle;
  mkdirSync(folder, { recursive: true });
  const partial = `${bundle}.${String(process.pid)}.partial`;
  const metafile = `${partial}.json`;
  const esbuild = createRequire(import.meta.url).resolve('esbuild/bin/esbuild');
  try {
    await promisify(execFile)(esbuild, [
      join(here, `cluster-dns-main${extension}`),
      '--bundle', '--platform=node', '--format=esm', `--target=node${process.versions.node}`, '--log-level=error',
      `--outfile=${partial}`, `--metafile=${metafile}`,
      // The CommonJS dependencies call require(), which an ES module has not.
      "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    ], { cwd: here });
    const { inputs } = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> };
    const outside = Object.keys(inputs).filter((input) => !input.includes('node_modules/') && input.includes('/'));
    if (outside.length > 0) throw new Error(`the cluster DNS imports ${outside.join(', ')}, outside ${here}: make bundleKey cover them`);
    for (const old of readdirSync(folder)) {
      if (old.endsWith('.mjs')) rmSync(join(folder, old), { force: true });
    }
    renameSync(partial, bundle);
    return bundle;
  } finally {
    rmSync(partial, { force: true });
    rmSync(metafile, { force: true });
  }
}
