import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { GENERATED_CRD_FOLDERS, crdManifests } from '../../scripts/crd-manifests.js';
import { crdsYaml } from '../../packages/operator/src/crds.js';

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

  // kubectl and Helm read YAML 1.1: an unquoted Yes, No, on or off in an enum would reach the API server as a boolean.
  it.each(Object.entries(crdManifests()))('%s means the same to a YAML 1.1 reader as to a YAML 1.2 one', (_path, text) => {
    expect(parse(text, { version: '1.1' })).toEqual(parse(text, { version: '1.2' }));
  });

  it('prints CRDs from `keyward crds` that mean the same to a YAML 1.1 reader', () => {
    for (const document of crdsYaml().split('---\n')) expect(parse(document, { version: '1.1' })).toEqual(parse(document, { version: '1.2' }));
  });
});
