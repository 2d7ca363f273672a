import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crdsYaml } from '../src/crds.js';
import { operatorVersion } from '../src/version.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../../scripts/bundle-operator.sh', import.meta.url));

/** The production bundle, built once into a folder outside the workspace, as the image gets it. */
describe('scripts/bundle-operator.sh', () => {
  let scratch = '';
  let bundle = '';
  const keyward = (...args: string[]) => run(process.execPath, [join(bundle, 'dist', 'main.js'), ...args], { cwd: scratch });

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'keyward-bundle-'));
    bundle = join(scratch, 'operator');
    await run(SCRIPT, [bundle], { maxBuffer: 64 * 1024 * 1024 });
  }, 300_000);

  afterAll(async () => {
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  it('runs `keyward version` without the workspace', async () => {
    expect((await keyward('version')).stdout).toBe(`keyward ${operatorVersion()}\n`);
  });

  it('runs `keyward crds` without the workspace, printing what the sources print', async () => {
    expect((await keyward('crds')).stdout).toBe(crdsYaml());
  });

  it('holds its own copies of the workspace packages, not links into the workspace', async () => {
    const workspacePackages = await readdir(join(bundle, 'node_modules', '@keyward'));
    expect(workspacePackages.sort()).toEqual(['apikey-enforcement', 'core', 'keycloak', 'keystone-appcred']);
    for (const name of workspacePackages) {
      expect(await realpath(join(bundle, 'node_modules', '@keyward', name))).toMatch(new RegExp(`^${await realpath(bundle)}/`));
    }
  });
});
