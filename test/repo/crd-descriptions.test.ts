// `kubectl explain` shows what a field is for only when the CRD says it: every field of spec and status has a
// description, written in the packages' CRD definitions and generated into deploy/crds.
import { describe, expect, it } from '@jest/globals';
import { deployedCrds, specAndStatusFields } from './crd-fields.js';

const crds = deployedCrds();

describe('CRD field descriptions', () => {
  it.each(crds.map((crd) => [crd.metadata.name, crd] as const))('%s describes every field of spec and status', (_name, crd) => {
    const fields = specAndStatusFields(crd);
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter(({ schema }) => (schema.description ?? '').trim() === '').map(({ path }) => path)).toEqual([]);
  });
});
