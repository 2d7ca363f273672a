// The published entry points: every `exports` entry with a `types` file in packages/*/package.json, and the
// names each one exports, counted from the declarations `tsc -b` wrote.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface EntryPoint {
  /** "@keyward/kernel" */
  readonly packageName: string;
  /** "." or "./model", as in the package's `exports`. */
  readonly subpath: string;
  readonly packageDir: string;
  /** The declaration file the entry point's `types` condition names, absolute. */
  readonly typesFile: string;
  /** The report's file name without ".api.md": "kernel", "kernel-model". */
  readonly reportName: string;
}

interface PackageJson {
  readonly name: string;
  readonly exports?: Record<string, string | Record<string, string>>;
}

/** "@keyward/kernel" with "./model" is "kernel-model"; the package root is "kernel". */
export function reportNameOf(packageName: string, subpath: string): string {
  const base = packageName.replace(/^@[^/]+\//, '');
  const entry = subpath.replace(/^\.\/?/, '').replaceAll('/', '-');
  return entry === '' ? base : `${base}-${entry}`;
}

/** Every entry point of every package under `root`/packages whose `exports` names a `types` file. */
export function entryPoints(root: string): EntryPoint[] {
  const packagesDir = join(root, 'packages');
  const found: EntryPoint[] = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const packageDir = join(packagesDir, dir);
    const manifestPath = join(packageDir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJson;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'string' ? undefined : target['types'];
      if (types === undefined) continue;
      found.push({ packageName: manifest.name, subpath, packageDir, typesFile: join(packageDir, types), reportName: reportNameOf(manifest.name, subpath) });
    }
  }
  return found;
}

/** How many names each declaration file exports, types and values alike, read by the TypeScript checker. */
export function exportedNameCounts(typesFiles: readonly string[]): Map<string, number> {
  const program = ts.createProgram([...typesFiles], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const counts = new Map<string, number>();
  for (const file of typesFiles) {
    const source = program.getSourceFile(file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (symbol === undefined) throw new Error(`${file} is not a module: build the packages with tsc -b first`);
    counts.set(file, checker.getExportsOfModule(symbol).length);
  }
  return counts;
}
