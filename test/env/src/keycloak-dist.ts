import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentError } from './errors.js';
import { cacheDir, repoRoot } from './paths.js';

/** A Keycloak server built once with `kc.sh build` (tools/build-keycloak.sh) and the JDK it runs on. */
export interface KeycloakDistribution {
  readonly version: string;
  /** The built server, shared by every environment: started --optimized, it is only read. */
  readonly home: string;
  readonly javaHome: string;
}

const TOOLS = join(repoRoot, 'tools');

/** Where tools/build-keycloak.sh puts the build for the pinned version and build options (the script computes the same). */
function buildDir(): { readonly version: string; readonly dir: string } {
  const version = readFileSync(join(TOOLS, 'keycloak', 'VERSION'), 'utf8').trim();
  const hash = createHash('sha256').update(readFileSync(join(TOOLS, 'keycloak', 'build-options'))).digest('hex').slice(0, 12);
  return { version, dir: join(cacheDir(), 'keycloak', version, `build-${hash}`) };
}

/** The cached build, if it is complete and its JDK is still there. */
function cachedDistribution(): KeycloakDistribution | undefined {
  const { version, dir } = buildDir();
  if (!existsSync(join(dir, 'complete')) || !existsSync(join(dir, 'java-home'))) return undefined;
  const javaHome = readFileSync(join(dir, 'java-home'), 'utf8').trim();
  return existsSync(join(javaHome, 'bin', 'java')) ? { version, home: join(dir, 'home'), javaHome } : undefined;
}

/**
 * Returns the built Keycloak, downloading and building it first when the cache lacks it (about 30 s on a
 * quiet machine; scripts/setup normally does this beforehand).
 */
export async function ensureKeycloakDistribution(log: (line: string) => void): Promise<KeycloakDistribution> {
  const cached = cachedDistribution();
  if (cached !== undefined) return cached;
  log('downloading and building Keycloak (cached afterwards)');
  await new Promise<void>((resolve, reject) => {
    const child = execFile('bash', [join(TOOLS, 'build-keycloak.sh')], { maxBuffer: 16 * 1024 * 1024 }, (error, _out, stderr) => {
      if (error === null) resolve();
      else reject(new ComponentError('keycloak build', 'tools/build-keycloak.sh failed', stderr.split('\n').slice(-30).join('\n')));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').trimEnd().split('\n')) log(line);
    });
  });
  const built = cachedDistribution();
  if (built === undefined) throw new ComponentError('keycloak build', `tools/build-keycloak.sh succeeded but left no complete build in ${buildDir().dir}`);
  return built;
}
