// The commands the demo prints for people to run work as printed, from the checkout the demo runs in.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

const root = new URL('../..', import.meta.url).pathname;
const demo = readFileSync(new URL('../../scripts/demo.ts', import.meta.url), 'utf8');

describe('the demo\'s printed hints', () => {
  it('name `pnpm keyward plan`, which runs the keyward binary from the sources', () => {
    expect(demo).toContain('`pnpm keyward plan --kubeconfig ${');
    const outcome = spawnSync('pnpm', ['--silent', 'keyward', 'plan', '--help'], { cwd: root, encoding: 'utf8' });
    expect(outcome.stderr).toBe('');
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toMatch(/^Usage: keyward plan /);
  });
});
