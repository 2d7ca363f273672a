import { stringify } from 'yaml';
import { apiKeyCrd } from '@keyward/apikey-enforcement';
import { appCredCrd, keystoneApiCrd } from '@keyward/keystone-appcred';

const HEADER = '# Generated from the TypeScript definitions by scripts/generate-crds.ts; do not edit.\n';

/** Where each CRD is written: deploy/crds ships with the operator; the fixtures stand in for other operators' CRDs. */
const placements: readonly (readonly [string, { readonly metadata: { readonly name: string } }])[] = [
  ['deploy/crds', appCredCrd],
  ['deploy/crds', apiKeyCrd],
  ['test/fixtures/crds', keystoneApiCrd],
];

/** Every CRD manifest the repository ships, by path: generated from the packages, never edited by hand. */
export function crdManifests(): Record<string, string> {
  return Object.fromEntries(placements.map(([folder, crd]) => [`${folder}/${crd.metadata.name}.yaml`, HEADER + stringify(crd)]));
}
