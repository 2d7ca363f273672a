import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { crdManifests } from '../../scripts/crd-manifests.js';

describe('CRD manifests', () => {
  it.each(Object.entries(crdManifests()))('%s is generated from the TypeScript definition (run pnpm generate:crds)', (path, text) => {
    expect(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).toBe(text);
  });
});
