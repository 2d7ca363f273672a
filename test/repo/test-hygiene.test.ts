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

describe('test files', () => {
  it('that use nock restore Node\'s http afterwards: nock\'s patch outlives the file in its worker, and the real requests of the next file would never reuse a connection', () => {
    const usingNock = testFiles.filter((file) => /^import nock from 'nock';$/m.test(readFileSync(join(root, file), 'utf8')));
    expect(usingNock.length).toBeGreaterThan(0);
    expect(usingNock.filter((file) => !/afterAll\([\s\S]*nock\.restore\(\)/.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});
