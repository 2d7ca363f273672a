import { describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly license?: string;
  readonly repository?: { readonly type: string; readonly url: string; readonly directory: string };
  readonly engines?: Readonly<Record<string, string>>;
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly files?: readonly string[];
  readonly bin?: Readonly<Record<string, string>>;
}

const readManifest = (path: string): PackageManifest => JSON.parse(readFileSync(path, 'utf8')) as PackageManifest;

/**
 * Every workspace package, by its folder relative to the root: the manifests git tracks, so a scratch folder
 * another test creates under packages/ meanwhile (pnpm deploy makes one) is not taken for a package.
 */
function workspacePackages(): Map<string, PackageManifest> {
  const manifests = execFileSync('git', ['ls-files', '--', 'packages/*/package.json', 'test/env/package.json'], { cwd: root, encoding: 'utf8' }).split('\n').filter((line) => line !== '');
  return new Map(manifests.map((manifest) => [dirname(manifest), readManifest(join(root, manifest))]));
}

const published = (): [string, PackageManifest][] => [...workspacePackages()].filter(([, manifest]) => manifest.private !== true);

describe('package manifests', () => {
  it.each(published())('%s is complete for npm', (folder, manifest) => {
    expect(manifest.name).toMatch(/^@keyward\/[a-z-]+$/);
    expect(manifest.description?.length).toBeGreaterThan(20);
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/.+\.git$/) as unknown, directory: folder });
    expect(manifest.engines?.['node']).toBe(readManifest(join(root, 'package.json')).engines?.['node']);
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md']));
    // A minimal example: TypeScript for the libraries, a shell session for the binary.
    expect(readFileSync(join(root, folder, 'README.md'), 'utf8')).toMatch(manifest.bin === undefined ? /```ts\n/ : /```sh\n/);
    // Every entry point a user can import has types next to its code.
    for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target === 'string') {
        expect(entry).toBe('./package.json');
        continue;
      }
      expect({ entry, types: target['types'] }).toEqual({ entry, types: expect.stringMatching(/^\.\/dist\/.+\.d\.ts$/) as unknown });
    }
    if (manifest.bin !== undefined) for (const file of Object.values(manifest.bin)) expect(file).toMatch(/^\.\/dist\//);
  });

  it('keeps every published package at one version, in one fixed changesets group', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as { fixed: string[][]; ignore: string[] };
    const names = published().map(([, manifest]) => manifest.name).sort();
    expect(config.fixed).toHaveLength(1);
    expect([...(config.fixed[0] ?? [])].sort()).toEqual(names);
    expect(config.ignore).toEqual([...workspacePackages().values()].filter((manifest) => manifest.private === true).map((manifest) => manifest.name));
    expect(new Set(published().map(([, manifest]) => manifest.version)).size).toBe(1);
  });

  it('bumps all published packages together when a changeset names one of them', async () => {
    // A copy of the workspace's manifests, so the real ones stay as they are.
    const scratch = mkdtempSync(join(tmpdir(), 'keyward-versions-'));
    try {
      const copy = (file: string): void => {
        mkdirSync(dirname(join(scratch, file)), { recursive: true });
        copyFileSync(join(root, file), join(scratch, file));
      };
      ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json', ...[...workspacePackages().keys()].map((folder) => `${folder}/package.json`)].forEach(copy);
      writeFileSync(join(scratch, '.changeset/new-query.md'), "---\n'@keyward/runtime': minor\n---\n\nA new query kind.\n");
      await run(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: scratch });

      const before = published();
      const after = before.map(([folder]) => readManifest(join(scratch, folder, 'package.json')));
      const [major = 0, minor = 0] = (before[0]?.[1].version ?? '').split('.').map(Number);
      expect(after.map((manifest) => `${manifest.name}@${manifest.version}`)).toEqual(before.map(([, manifest]) => `${manifest.name}@${String(major)}.${String(minor + 1)}.0`));
      expect(readManifest(join(scratch, 'test/env/package.json')).version).toBe(workspacePackages().get('test/env')?.version);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/** The Node release lines in support (22 in maintenance, 24 the active LTS), the oldest release of each we admit. */
const SUPPORTED_NODE = '^22.12.0 || ^24.0.0';

describe('the supported Node releases', () => {
  it('are the LTS lines in support, in the root manifest that every published one repeats', () => {
    expect(readManifest(join(root, 'package.json')).engines?.['node']).toBe(SUPPORTED_NODE);
  });

  it('include the image\'s Node, the newest LTS line, pinned to a release in every stage', () => {
    const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases) expect(base).toMatch(/^node:24\.\d+\.\d+-bookworm-slim( |$)/);
  });

  it('start at the release the operator bundle is compiled for', () => {
    const bundle = readFileSync(join(root, 'packages/operator/scripts/bundle.ts'), 'utf8');
    const oldest = /^\^(\d+)\.(\d+)\.\d+ /.exec(SUPPORTED_NODE);
    expect(bundle).toContain(`target: 'node${oldest?.[1] ?? ''}.${oldest?.[2] ?? ''}'`);
    // The Node types are those of the oldest line, so the compiler refuses an API it lacks.
    const types = readManifest(join(root, 'node_modules/@types/node/package.json')).version;
    expect(types.split('.')[0]).toBe(oldest?.[1]);
  });
});
