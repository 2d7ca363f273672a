// `pnpm faults [--short] [--seed=N] [scenario ...]`: runs each fault scenario in its own process (each starts
// its own environment), prints one JSON line per scenario, and exits 1 if any missed a target.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from './scenarios.js';

const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const chosen = args.filter((a) => !a.startsWith('--'));
const unknown = chosen.filter((name) => !SCENARIOS.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}\n`);
  process.exit(2);
}

let failed = 0;
for (const scenario of chosen.length > 0 ? chosen : SCENARIOS) {
  const path = fileURLToPath(new URL(`scenarios/${scenario}.ts`, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@keyward/source', path, ...flags], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(run.stdout);
  if (run.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
