import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { fromSources } from './operator-process.js';

const quoted = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

describe('the keyward process', () => {
  it('ends quietly with status 0 when its reader stops early, as in `keyward crds | head -n 1`', () => {
    const { command, args } = fromSources(['crds']);
    const pipeline = `${[command, ...args].map(quoted).join(' ')} | head -n 1`;
    const outcome = spawnSync('bash', ['-o', 'pipefail', '-c', pipeline], { encoding: 'utf8' });
    expect(outcome.stdout).toBe('apiVersion: apiextensions.k8s.io/v1\n');
    expect(outcome.stderr).toBe('');
    expect(outcome.status).toBe(0);
  });
});
