import { stringify } from 'yaml';
import { keystoneApiCrd } from '@keyward/keystone-appcred';
import { MODULES } from '../packages/operator/src/controllers.js';

const HEADER = '# Generated from the TypeScript definitions by scripts/generate-crds.ts; do not edit.\n';

interface Crd {
  readonly metadata: { readonly name: string };
}

/** A controller module's CRD, with the name it is written under. */
function asCrd(crd: object): Crd {
  const name: unknown = (crd as { metadata?: { name?: unknown } }).metadata?.name;
  if (typeof name !== 'string') throw new Error('a CRD without metadata.name');
  return crd as Crd;
}

/** Folders that hold only generated files: a file there that crdManifests() does not name is stale. */
export const GENERATED_CRD_FOLDERS = ['deploy/crds', 'deploy/helm/keyward/crds'] as const;

const operatorCrds = MODULES.flatMap((module) => module.crds.map(asCrd));

/**
 * Where each CRD is written: deploy/crds ships the CRDs of the operator's controller modules, and the Helm
 * chart the same copies (Helm installs a chart's crds/ folder as it is, so the chart cannot include them
 * from elsewhere); the fixtures stand in for other operators' CRDs.
 */
const placements: readonly (readonly [string, Crd])[] = [
  ...operatorCrds.map((crd) => ['deploy/crds', crd] as const),
  ...operatorCrds.map((crd) => ['deploy/helm/keyward/crds', crd] as const),
  ['test/fixtures/crds', keystoneApiCrd],
];

/**
 * Every CRD manifest the repository ships, by path (deploy/crds, the Helm chart's crds/ and the test
 * fixtures), and a kustomization listing deploy/crds (kustomize loads
 * only files in or below a kustomization's folder, so the base includes that folder as a whole). Generated
 * from the packages, never edited by hand.
 */
export function crdManifests(): Record<string, string> {
  // kubectl and Helm read YAML 1.1, where an unquoted Yes or No is a boolean: written as 1.1, such strings are quoted.
  const files = placements.map(([folder, crd]) => [folder, `${crd.metadata.name}.yaml`, HEADER + stringify(crd, { aliasDuplicateObjects: false, version: '1.1' })] as const);
  const deployed = files.filter(([folder]) => folder === 'deploy/crds').map(([, name]) => name);
  const kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: deployed };
  const manifests: [string, string][] = files.map(([folder, name, text]) => [`${folder}/${name}`, text]);
  manifests.push(['deploy/crds/kustomization.yaml', HEADER + stringify(kustomization)]);
  return Object.fromEntries(manifests);
}
