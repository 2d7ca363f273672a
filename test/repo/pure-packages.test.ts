// The pure packages install and load without the I/O libraries: every import their entry points reach, across
// workspace packages, is a package their own manifest depends on and none of the libraries only the runtime
// needs. The eslint rule checks each file; this follows the imports a user's program would actually load.
import { describe, expect, it } from '@jest/globals';
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The libraries only @keyward/runtime, Keycloak's io/ and the operator may bring: network, logging, metrics. */
const IO_PACKAGES = ['@kubernetes/client-node', 'axios', 'bottleneck', 'winston', 'prom-client', '@keyward/runtime'];
const IO_BUILTINS = ['http', 'https', 'http2', 'net', 'tls', 'fs', 'fs/promises', 'child_process'];

/** Packages a user installs for pure code, by folder; the entry points that need @keyward/runtime are left out. */
const PURE_PACKAGES = ['kernel', 'keystone-appcred', 'apikey-enforcement', 'keystone-service', 'keycloak'];
const RUNTIME_ENTRIES = new Set(['@keyward/keycloak/io']);

interface Manifest {
  readonly name: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, { readonly '@keyward/source': string }>>;
}

const manifests = new Map(PURE_PACKAGES.concat('runtime').map((folder): [string, Manifest] => {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as Manifest;
  return [manifest.name, manifest];
}));
const folderOf = (name: string): string => join(root, 'packages', name.replace('@keyward/', ''));

/** '@keyward/kernel/testing' -> ['@keyward/kernel', './testing']; 'fp-ts/lib/Either.js' -> ['fp-ts', ...]. */
function splitSpecifier(specifier: string): [string, string] {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  return [parts.slice(0, length).join('/'), ['.', ...parts.slice(length)].join('/')];
}

const sourceOf = (name: string, entry: string): string => {
  const target = manifests.get(name)?.exports[entry]?.['@keyward/source'];
  if (target === undefined) throw new Error(`${name} exports no ${entry}`);
  return resolve(folderOf(name), target);
};

interface Reached {
  /** The package whose file imports it. */
  readonly from: string;
  readonly file: string;
  readonly specifier: string;
}

/** Every import outside the workspace reached from one entry point, following relative and workspace imports. */
function importsReachedFrom(name: string, entry: string): Reached[] {
  const seen = new Set<string>();
  const reached: Reached[] = [];
  const pending: [string, string][] = [[name, sourceOf(name, entry)]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [owner, file] = next;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        if (!existsSync(target)) throw new Error(`${file} imports ${specifier}, which is no file`);
        pending.push([owner, target]);
        continue;
      }
      reached.push({ from: owner, file: file.slice(root.length), specifier });
      const [pkg, subpath] = splitSpecifier(specifier);
      if (manifests.has(pkg) && pkg !== '@keyward/runtime') pending.push([pkg, sourceOf(pkg, subpath)]);
    }
  }
  return reached;
}

const pureEntries = PURE_PACKAGES.flatMap((folder) => {
  const manifest = [...manifests.values()].find((candidate) => folderOf(candidate.name) === join(root, 'packages', folder));
  if (manifest === undefined) throw new Error(`no manifest for ${folder}`);
  return Object.keys(manifest.exports)
    .map((entry): [string, string, string] => [`${manifest.name}${entry.slice(1)}`, manifest.name, entry])
    .filter(([specifier]) => !RUNTIME_ENTRIES.has(specifier));
});

const isBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || builtinModules.includes(specifier);

describe('the pure packages', () => {
  it('are the packages and entry points we expect', () => {
    expect(pureEntries.map(([specifier]) => specifier)).toEqual(expect.arrayContaining(['@keyward/kernel', '@keyward/kernel/testing', '@keyward/keystone-appcred', '@keyward/keycloak', '@keyward/keycloak/testing']));
  });

  it('follows imports through relative paths and into the workspace packages', () => {
    const reached = importsReachedFrom('@keyward/keystone-appcred', '.');
    expect(reached).toEqual(expect.arrayContaining([
      { from: '@keyward/keystone-appcred', file: 'packages/keystone-appcred/src/api.ts', specifier: 'io-ts' },
      { from: '@keyward/kernel', file: 'packages/kernel/src/model/names.ts', specifier: 'node:crypto' },
    ]));
  });

  it.each(pureEntries)('%s reaches no I/O library, and only packages its packages depend on', (_specifier, name, entry) => {
    const reached = importsReachedFrom(name, entry);
    const io = reached.filter(({ specifier }) => IO_PACKAGES.includes(splitSpecifier(specifier)[0]) || IO_BUILTINS.includes(specifier.replace(/^node:/, '')));
    expect(io).toEqual([]);
    // A package found in the workspace's node_modules but not in the manifest would be missing from an install.
    const undeclared = reached.filter(({ from, specifier }) => !isBuiltin(specifier) && manifests.get(from)?.dependencies?.[splitSpecifier(specifier)[0]] === undefined);
    expect(undeclared).toEqual([]);
  });

  it.each(PURE_PACKAGES)('%s does not install @keyward/runtime or an I/O library', (folder) => {
    const manifest = [...manifests.values()].find((candidate) => folderOf(candidate.name) === join(root, 'packages', folder));
    expect(manifest?.dependencies).toBeDefined();
    const installed = Object.keys(manifest?.dependencies ?? {}).filter((dependency) => IO_PACKAGES.includes(dependency));
    expect(installed).toEqual([]);
  });
});

describe('the policy-test example', () => {
  const folder = join(root, 'examples', 'policy-test');
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));

  it.each(files)('%s imports only the pure packages, so it runs with their install alone', (file) => {
    const pure = new Set(pureEntries.map(([specifier]) => specifier));
    const imported = ts.preProcessFile(readFileSync(join(folder, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName);
    expect(imported.filter((specifier) => !pure.has(specifier) && specifier !== '@jest/globals')).toEqual([]);
  });
});

