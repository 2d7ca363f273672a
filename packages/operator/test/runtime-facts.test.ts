import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectRuntimeFacts } from '../src/runtime-facts.js';

describe('detectRuntimeFacts', () => {
  it('reads the pod\'s namespace from the ServiceAccount mount, and nothing when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyward-facts-'));
    try {
      const file = join(dir, 'namespace');
      writeFileSync(file, 'keyward-system\n');
      expect(detectRuntimeFacts(file).serviceAccountNamespace).toBe('keyward-system');
      expect('serviceAccountNamespace' in detectRuntimeFacts(join(dir, 'missing'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
