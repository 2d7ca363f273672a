// Bundles the operator (tsc's dist/main.js and everything it imports) into one ESM file, dist/keyward.js,
// which the `keyward` bin and the image run (the image with V8 flags for a controller: deploy/Dockerfile).
// Loaded through node_modules, dist/main.js reads about 1,500 module files, 826 of them @kubernetes/client-node's
// generated API: with 200 converged KeystoneApplicationCredentials that process holds about 113 MiB of RSS,
// the bundle about 80, and 73 with the image's flags (bench/README.md, appcred/memory).
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const operator = fileURLToPath(new URL('..', import.meta.url));

/**
 * @kubernetes/client-node's index re-exports every generated model and API, each module ending with static
 * property assignments that a bundler must keep as side effects; the package does not declare itself free of
 * them. Its modules have no side effects but those, so the bundle keeps only what KubeConfig and Watch reach
 * (about 15 of some 800 files).
 */
const clientNodeWithoutSideEffects: Plugin = {
  name: 'client-node-without-side-effects',
  setup(bundle) {
    bundle.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'resolved') return undefined;
      const resolved = await bundle.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolved' });
      if (resolved.errors.length > 0 || !resolved.path.includes('/node_modules/@kubernetes/client-node/')) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/**
 * node-fetch (client-node's watch) takes Node's own URL and imports whatwg-url only as a fallback for Node
 * releases before 10; whatwg-url's Unicode tables (tr46) cost 3 MiB of heap at load. It gets Node's URL.
 */
const whatwgUrlIsNodes: Plugin = {
  name: 'whatwg-url-is-nodes',
  setup(bundle) {
    bundle.onResolve({ filter: /^whatwg-url$/ }, () => ({ path: 'whatwg-url', namespace: 'node-url' }));
    bundle.onLoad({ filter: /.*/, namespace: 'node-url' }, () => ({ contents: 'export default { URL: globalThis.URL };', loader: 'js' }));
  },
};

const result = await build({
  entryPoints: [`${operator}dist/main.js`],
  outfile: `${operator}dist/keyward.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  // The CommonJS dependencies (winston, prom-client, ...) call require(), which an ES module has not.
  banner: { js: "import { createRequire as __keywardCreateRequire } from 'node:module'; const require = __keywardCreateRequire(import.meta.url);" },
  // V8 keeps a module's source in the heap: without comments and indentation the file takes 3.4 MiB less.
  // Names stay, so stack traces still say which function; NODE_OPTIONS=--enable-source-maps maps them to
  // the sources through keyward.js.map.
  minifyWhitespace: true,
  sourcemap: 'linked',
  sourcesContent: false,
  // The licences go whole into keyward.js.licenses.txt (below), not as comments into the file.
  legalComments: 'none',
  metafile: true,
  plugins: [clientNodeWithoutSideEffects, whatwgUrlIsNodes],
  logLevel: 'warning',
});


/**
 * The folder of every npm package the bundle took code from: what installing them would have brought their
 * licence files in.
 */
function bundledPackages(inputs: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1] !== undefined) folders.add(join(operator, match[1]));
  }
  return [...folders].sort((a, b) => a.localeCompare(b));
}

async function licenceOf(folder: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
  const file = (await readdir(folder)).find((name) => /^(licen[cs]e|copying)/i.test(name));
  const text = file === undefined ? `(no licence file; package.json says ${manifest.license ?? 'nothing'})` : (await readFile(join(folder, file), 'utf8')).trim();
  return `${manifest.name} ${manifest.version}\n\n${text}\n`;
}

const licences = await Promise.all(bundledPackages(Object.keys(result.metafile.inputs)).map(licenceOf));
await writeFile(`${operator}dist/keyward.js.licenses.txt`, `Packages bundled into keyward.js and their licences.\n\n${licences.join(`\n${'-'.repeat(80)}\n\n`)}`);
