// Runs every benchmark in its own process (so heap figures do not mix) and prints their JSON. Names given
// (`pnpm bench keycloak/fairness`, or a folder: `pnpm bench keycloak`) run only those; options (`--crs 2000`)
// go to every benchmark that runs, and each takes the sizes it knows (support/sizes.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benchmarks = [
  'core/runtime-overhead.ts',
  'core/cache-memory.ts',
  'core/resync-requests.ts',
  'appcred/convergence.ts',
  'appcred/memory.ts',
  'apikey/convergence.ts',
  'keycloak/fairness.ts',
  'keycloak/convergence.ts',
  'keycloak/realm-surface.ts',
  'keystone-service/convergence.ts',
  'keystone-service/resync-memory.ts',
  'operator/memory-per-object.ts',
];
const args = process.argv.slice(2);
/** An option and, unless it is written `--name=value`, the value after it. */
const optionIndexes = new Set(args.flatMap((arg, i) => (arg.startsWith('--') ? (arg.includes('=') ? [i] : [i, i + 1]) : [])));
const names = args.filter((_, i) => !optionIndexes.has(i));
const options = args.filter((_, i) => optionIndexes.has(i));
const matches = (file: string, name: string): boolean => file === name || file === `${name}.ts` || file.startsWith(`${name}/`);
const unknown = names.filter((name) => !benchmarks.some((file) => matches(file, name)));
if (unknown.length > 0) {
  process.stderr.write(`no benchmark ${unknown.join(', ')}; there are: ${benchmarks.map((file) => file.replace(/\.ts$/, '')).join(', ')}\n`);
  process.exit(2);
}
for (const file of benchmarks.filter((f) => names.length === 0 || names.some((name) => matches(f, name)))) {
  const path = fileURLToPath(new URL(file, import.meta.url));
  process.stdout.write(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=@keyward/source', path, ...options], { encoding: 'utf8' }));
}
