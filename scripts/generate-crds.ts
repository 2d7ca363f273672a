// Writes the CRD manifests (deploy/crds, the Helm chart's crds/, test fixtures) from the packages' definitions,
// and removes files the generated folders hold that are no longer generated.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { GENERATED_CRD_FOLDERS, crdManifests } from './crd-manifests.js';

const manifests = crdManifests();
for (const [path, text] of Object.entries(manifests)) {
  mkdirSync(new URL(`../${dirname(path)}/`, import.meta.url), { recursive: true });
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
for (const folder of GENERATED_CRD_FOLDERS) {
  for (const name of readdirSync(new URL(`../${folder}/`, import.meta.url))) {
    if (`${folder}/${name}` in manifests) continue;
    rmSync(new URL(`../${folder}/${name}`, import.meta.url));
    console.log(`removed ${folder}/${name}`);
  }
}
