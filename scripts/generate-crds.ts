// Writes the CRD manifests (deploy/crds, test fixtures) from the packages' definitions.
import { writeFileSync } from 'node:fs';
import { crdManifests } from './crd-manifests.js';

for (const [path, text] of Object.entries(crdManifests())) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
