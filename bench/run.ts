// Runs every benchmark in its own process (so heap figures do not mix) and prints their JSON.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benchmarks = [
  'core/runtime-overhead.ts',
  'core/cache-memory.ts',
  'core/resync-requests.ts',
  'appcred/convergence.ts',
  'appcred/memory.ts',
  'apikey/convergence.ts',
];
for (const file of benchmarks) {
  const path = fileURLToPath(new URL(file, import.meta.url));
  process.stdout.write(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=@keyward/source', path], { encoding: 'utf8' }));
}
