// The API report check against a package tree of its own: recorded once, it passes, and after one export is
// added to one entry point it fails naming that entry point's report and the table, and nothing else.
import { describe, expect, it, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportNameOf } from '../../scripts/api-entry-points.js';
import { apiReports, checkMessage } from '../../scripts/api-report.js';

// Three API Extractor runs over a tiny package: seconds, more on a busy machine.
const TIMEOUT_MS = 300_000;

/** What `pnpm api:check` would print for the tree at `root`, and whether it would pass. */
function check(root: string): { passed: boolean; output: string } {
  const { passed, lines } = checkMessage(apiReports(root, false), 0);
  return { passed, output: lines.join('\n') };
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
      expect(apiReports(root, true).problems).toEqual([]);
      expect(readFileSync(join(root, 'api', 'greeter.api.md'), 'utf8')).toContain('export function greet(name: string): string;');
      expect(readFileSync(join(root, 'api', 'greeter-shapes.api.md'), 'utf8')).toContain('export interface Square');
      expect(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')).toContain('| `@example/greeter` | 1 | `api/greeter.api.md` |');

      const clean = check(root);
      expect(clean.output).toContain('The 2 API reports in api/ match the exports');
      expect(clean.passed).toBe(true);

      appendFileSync(join(root, 'packages', 'greeter', 'dist', 'index.d.ts'), 'export declare function farewell(name: string): string;\n');
      const changed = check(root);
      expect(changed.passed).toBe(false);
      expect(changed.output).toContain('api/greeter.api.md');
      expect(changed.output).not.toContain('api/greeter-shapes.api.md');
      expect(changed.output).toContain('the table of exported names in docs/architecture.md');
      expect(changed.output).toContain('pnpm api:update');
    },
    TIMEOUT_MS,
  );

  it('names a report after its package without the scope and its entry point', () => {
    expect(reportNameOf('@keyward/kernel', '.')).toBe('kernel');
    expect(reportNameOf('@keyward/runtime', './io')).toBe('runtime-io');
    expect(reportNameOf('@keyward/runtime', './a/b')).toBe('runtime-a-b');
  });
});
