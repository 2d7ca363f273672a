// jest-exclusive: workspace build
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { holdForThisFile } from '@keyward/test-env';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGES = ['kernel', 'runtime', 'keystone-appcred', 'apikey-enforcement', 'keycloak'];
/** What a program that only plans needs: the appcred helpers and reconciler, and the pure package under them. */
const PURE_APPCRED = ['kernel', 'keystone-appcred'];
/** Keycloak's pure entry points: its API module, reconcilers and in-memory Keycloak. */
const PURE_KEYCLOAK = ['kernel', 'keycloak'];
/** The libraries only the runtime needs; a pure install must not bring any of them. */
const IO_LIBRARIES = ['@kubernetes/client-node', 'axios', 'winston', 'prom-client', 'bottleneck', '@keyward/runtime'];
const MAX_PURE_INSTALL_BYTES = 10 * 1024 * 1024;

/** A scratch npm project with the given tarballs installed, as a user's `npm install` would. */
async function installInto(project: string, tarballs: readonly string[]): Promise<void> {
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
}

/** Bytes of the files under a folder (symbolic links counted as themselves, not followed). */
async function sizeOf(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    total += entry.isDirectory() ? await sizeOf(path) : (await lstat(path)).size;
  }
  return total;
}

/** The name of every package installed in a project, nested ones included. */
async function installedPackages(project: string): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', '--all', '--parseable'], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
  return stdout.split('\n').flatMap((path) => {
    const at = path.lastIndexOf('node_modules/');
    return at === -1 ? [] : [path.slice(at + 'node_modules/'.length)];
  });
}

/** Runs an ES module script in a project and returns what it printed as JSON. */
async function runIn(project: string, lines: readonly string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', lines.join('\n')], { cwd: project });
  return JSON.parse(stdout);
}

/**
 * What operator authors do: install our packages from tarballs (as npm would serve them) into a project
 * outside the workspace with plain npm, and import them.
 */
describe('the npm packages, installed outside the workspace', () => {
  let scratch = '';
  const project = (): string => join(scratch, 'project');
  const pure = (): string => join(scratch, 'pure');
  const pureKeycloak = (): string => join(scratch, 'pure-keycloak');

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'keyward-npm-'));
    const tarballOf = new Map<string, string>();
    const release = await holdForThisFile('workspace build');
    try {
      await run('pnpm', ['build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
      for (const name of PACKAGES) {
        // pnpm pack turns workspace:* dependencies into the versions they point at, as publishing does.
        const folder = join(scratch, 'tarballs', name);
        await run('pnpm', ['pack', '--pack-destination', folder], { cwd: join(root, 'packages', name) });
        const [tarball] = await readdir(folder);
        if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${name}`);
        tarballOf.set(name, join(folder, tarball));
      }
    } finally {
      release();
    }
    const tarballs = (names: readonly string[]): string[] => names.map((name) => tarballOf.get(name) ?? name);
    await installInto(project(), tarballs(PACKAGES));
    await installInto(pure(), tarballs(PURE_APPCRED));
    await installInto(pureKeycloak(), tarballs(PURE_KEYCLOAK));
  }, 600_000);

  afterAll(async () => {
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  it('imports getACCRName, the appcred reconciler and the runtime from the installed packages', async () => {
    await expect(runIn(project(), [
      "const appcred = await import('@keyward/keystone-appcred');",
      "const runtime = await import('@keyward/runtime/controller');",
      "const kernel = await import('@keyward/kernel');",
      "console.log(JSON.stringify({ name: appcred.getACCRName('barbican'), reconcile: typeof appcred.reconcile, controller: typeof runtime.Controller, plan: typeof kernel.PlanBuilder }));",
    ])).resolves.toEqual({ name: 'ac-barbican', reconcile: 'function', controller: 'function', plan: 'function' });
  });

  it('imports the Keycloak API module, its runtime and its in-memory Keycloak from the installed package', async () => {
    await expect(runIn(project(), [
      "const keycloak = await import('@keyward/keycloak/api');",
      "const io = await import('@keyward/keycloak/io');",
      "const testing = await import('@keyward/keycloak/testing');",
      "console.log(JSON.stringify({ api: keycloak.keycloakApi.name, runtime: typeof io.keycloakRuntime, simulator: typeof testing.simulateKeycloak }));",
    ])).resolves.toEqual({ api: 'keycloak', runtime: 'function', simulator: 'function' });
  });

  it('installs @keyward/keystone-appcred alone in under 10 MB, without the I/O libraries', async () => {
    const modules = join(pure(), 'node_modules');
    const bytes = await sizeOf(modules);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(MAX_PURE_INSTALL_BYTES);
    const installed = await installedPackages(pure());
    expect(installed).toEqual(expect.arrayContaining(['@keyward/keystone-appcred', '@keyward/kernel', 'io-ts']));
    expect(installed.filter((name) => IO_LIBRARIES.includes(name))).toEqual([]);
  });

  it('imports getACCRName and the appcred reconciler from that install, and the runtime is not there', async () => {
    await expect(runIn(pure(), [
      "const appcred = await import('@keyward/keystone-appcred');",
      "const runtime = await import('@keyward/runtime/controller').then(() => 'found', (error) => error.code);",
      "console.log(JSON.stringify({ name: appcred.getACCRName('barbican'), reconcile: typeof appcred.reconcile, module: appcred.appCredModule.crds.length, runtime }));",
    ])).resolves.toEqual({ name: 'ac-barbican', reconcile: 'function', module: 1, runtime: 'ERR_MODULE_NOT_FOUND' });
  });

  it('installs @keyward/keycloak without the runtime for its API module and in-memory Keycloak; its io entry needs the runtime', async () => {
    const installed = await installedPackages(pureKeycloak());
    expect(installed).toEqual(expect.arrayContaining(['@keyward/keycloak', '@keyward/kernel']));
    // Its io half records metrics with prom-client itself; the rest of the runtime comes with @keyward/runtime.
    expect(installed.filter((name) => IO_LIBRARIES.includes(name) && name !== 'prom-client')).toEqual([]);
    await expect(runIn(pureKeycloak(), [
      "const keycloak = await import('@keyward/keycloak/api');",
      "const testing = await import('@keyward/keycloak/testing');",
      "const io = await import('@keyward/keycloak/io').then(() => 'found', (error) => error.code);",
      "console.log(JSON.stringify({ api: keycloak.keycloakApi.name, simulator: typeof testing.simulateKeycloak, io }));",
    ])).resolves.toEqual({ api: 'keycloak', simulator: 'function', io: 'ERR_MODULE_NOT_FOUND' });
  });
});
