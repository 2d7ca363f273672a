import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { GENERATED_CRD_FOLDERS, crdManifests } from '../../scripts/crd-manifests.js';

describe('CRD manifests', () => {
  it.each(Object.entries(crdManifests()))('%s is generated from the TypeScript definition (run pnpm generate:crds)', (path, text) => {
    expect(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).toBe(text);
  });

  it.each(GENERATED_CRD_FOLDERS.map((folder) => [folder]))('%s holds only generated files (run pnpm generate:crds)', (folder) => {
    const generated = Object.keys(crdManifests()).filter((path) => path.startsWith(`${folder}/`));
    expect(readdirSync(new URL(`../../${folder}/`, import.meta.url)).map((name) => `${folder}/${name}`).sort()).toEqual(generated.sort());
  });

  it('gives the Helm chart the same CRDs as deploy/crds', () => {
    const manifests = crdManifests();
    const crdsIn = (folder: string): Record<string, string | undefined> =>
      Object.fromEntries(Object.entries(manifests).filter(([path]) => path.startsWith(`${folder}/`) && !path.endsWith('/kustomization.yaml')).map(([path, text]) => [path.slice(folder.length + 1), text]));
    const chart = crdsIn('deploy/helm/keyward/crds');
    expect(Object.keys(chart).length).toBeGreaterThan(0);
    expect(chart).toEqual(crdsIn('deploy/crds'));
  });
});
