import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordSecretIn, scanForSecrets } from '../src/secret-scan.js';

describe('the secret scan', () => {
  it('finds a recorded secret in any log, ignores data folders, and names no secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scan-'));
    recordSecretIn(dir, 'hunter2-secret-value');
    recordSecretIn(dir, 'other-secret-value');
    mkdirSync(join(dir, 'test-logs'));
    mkdirSync(join(dir, 'mariadb'));
    writeFileSync(join(dir, 'kube-apiserver.log'), 'nothing to see');
    writeFileSync(join(dir, 'test-logs', 'operator.log'), '{"msg":"oops hunter2-secret-value"}');
    writeFileSync(join(dir, 'mariadb', 'data.log'), 'other-secret-value is stored here on purpose');
    expect(scanForSecrets(dir)).toEqual([{ file: join(dir, 'test-logs', 'operator.log'), secretNumber: 1 }]);
  });

  it('finds nothing when nothing was recorded', () => {
    expect(scanForSecrets(mkdtempSync(join(tmpdir(), 'scan-')))).toEqual([]);
  });
});
