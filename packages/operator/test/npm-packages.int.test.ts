import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGES = ['core', 'keystone-appcred', 'apikey-enforcement', 'keycloak'];

/**
 * What operator authors do: install our packages from tarballs (as npm would serve them) into a project
 * outside the workspace with plain npm, and import them.
 */
describe('the npm packages, installed outside the workspace', () => {
  let scratch = '';

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'keyward-npm-'));
    await run('pnpm', ['build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    const tarballs = join(scratch, 'tarballs');
    for (const name of PACKAGES) {
      // pnpm pack turns workspace:* dependencies into the versions they point at, as publishing does.
      await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', name) });
    }
    const project = join(scratch, 'project');
    await run('mkdir', ['-p', project]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const files = (await readdir(tarballs)).map((file) => join(tarballs, file));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
  }, 600_000);

  afterAll(async () => {
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  it('imports getACCRName, the appcred reconciler and the core runtime from the installed packages', async () => {
    const script = [
      "const appcred = await import('@keyward/keystone-appcred');",
      "const runtime = await import('@keyward/core/runtime');",
      "const core = await import('@keyward/core');",
      "console.log(JSON.stringify({ name: appcred.getACCRName('barbican'), reconcile: typeof appcred.reconcile, controller: typeof runtime.Controller, plan: typeof core.PlanBuilder }));",
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: join(scratch, 'project') });
    expect(JSON.parse(stdout)).toEqual({ name: 'ac-barbican', reconcile: 'function', controller: 'function', plan: 'function' });
  });

  it('imports the Keycloak vocabulary, its runtime and its in-memory Keycloak from the installed package', async () => {
    const script = [
      "const keycloak = await import('@keyward/keycloak');",
      "const io = await import('@keyward/keycloak/io');",
      "const testing = await import('@keyward/keycloak/testing');",
      "console.log(JSON.stringify({ api: keycloak.keycloakApi.name, runtime: typeof io.keycloakRuntime, simulator: typeof testing.simulateKeycloak }));",
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: join(scratch, 'project') });
    expect(JSON.parse(stdout)).toEqual({ api: 'keycloak', runtime: 'function', simulator: 'function' });
  });
});
