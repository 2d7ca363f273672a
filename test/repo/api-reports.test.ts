// The API report check against a package tree of its own: recorded once, it passes, and after one export is
// added to one entry point it fails naming that entry point's report and the table, and nothing else.
import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportNameOf } from '../../scripts/api-entry-points.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// Each run loads API Extractor and a TypeScript program: seconds each, more on a busy machine.
const RUN_TIMEOUT_MS = 180_000;

function apiReport(root: string, mode: 'check' | 'update'): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/api-report.ts', mode, '--root', root], { cwd: repoRoot, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A package with two entry points, as `tsc -b` would have left it, and a doc holding the table of counts. */
function writeTree(root: string): void {
  const dist = join(root, 'packages', 'greeter', 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(
    join(root, 'packages', 'greeter', 'package.json'),
    JSON.stringify({ name: '@example/greeter', version: '1.0.0', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './shapes': { types: './dist/shapes.d.ts', default: './dist/shapes.js' } } }),
  );
  writeFileSync(join(dist, 'index.d.ts'), 'export declare function greet(name: string): string;\n');
  writeFileSync(join(dist, 'shapes.d.ts'), 'export interface Square {\n    readonly side: number;\n}\n');
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'architecture.md'), '# Architecture\n\n<!-- api-counts:start (pnpm api:update writes this table) -->\n<!-- api-counts:end -->\n');
}

describe('the API reports', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'api-reports-test-'));
    writeTree(root);
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'are written one per entry point with a table of counts, pass the check, and fail it naming the report of the entry point that gained an export',
    () => {
      const update = apiReport(root, 'update');
      expect(update.status).toBe(0);
      expect(readFileSync(join(root, 'api', 'greeter.api.md'), 'utf8')).toContain('export function greet(name: string): string;');
      expect(readFileSync(join(root, 'api', 'greeter-shapes.api.md'), 'utf8')).toContain('export interface Square');
      expect(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')).toContain('| `@example/greeter` | 1 | `api/greeter.api.md` |');

      const clean = apiReport(root, 'check');
      expect(clean.output).toContain('The 2 API reports in api/ match the exports');
      expect(clean.status).toBe(0);

      appendFileSync(join(root, 'packages', 'greeter', 'dist', 'index.d.ts'), 'export declare function farewell(name: string): string;\n');
      const changed = apiReport(root, 'check');
      expect(changed.status).toBe(1);
      expect(changed.output).toContain('api/greeter.api.md');
      expect(changed.output).not.toContain('api/greeter-shapes.api.md');
      expect(changed.output).toContain('the table of exported names in docs/architecture.md');
      expect(changed.output).toContain('pnpm api:update');
    },
    3 * RUN_TIMEOUT_MS,
  );

  it('names a report after its package without the scope and its entry point', () => {
    expect(reportNameOf('@keyward/vocabulary', '.')).toBe('vocabulary');
    expect(reportNameOf('@keyward/core', './model')).toBe('core-model');
    expect(reportNameOf('@keyward/core', './a/b')).toBe('core-a-b');
  });
});
