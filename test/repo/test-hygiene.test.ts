// Rules every test file keeps so that test files sharing a jest worker cannot change each other's outcome.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const testFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.test.ts'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file !== '');

/** Test helpers that register a file's nock hooks, and the call that does. */
const NOCK_LIFECYCLES = [{ file: 'packages/keycloak/test/io/nock-lifecycle.ts', call: /\bnockPerTest\(\)/ }];

describe('test files', () => {
  it('that use nock restore Node\'s http afterwards: nock\'s patch outlives the file in its worker, and the real requests of the next file would never reuse a connection', () => {
    const restoresNock = (source: string): boolean => /afterAll\([\s\S]*nock\.restore\(\)/.test(source);
    // A shared helper may register the hooks for the file that calls it, when it restores nock itself.
    for (const { file } of NOCK_LIFECYCLES) expect([file, restoresNock(readFileSync(join(root, file), 'utf8'))]).toEqual([file, true]);
    const usingNock = testFiles.filter((file) => /^import nock from 'nock';$/m.test(readFileSync(join(root, file), 'utf8')));
    expect(usingNock.length).toBeGreaterThan(0);
    const restoring = (source: string): boolean => restoresNock(source) || NOCK_LIFECYCLES.some(({ call }) => call.test(source));
    expect(usingNock.filter((file) => !restoring(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});
