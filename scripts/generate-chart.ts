// Writes the parts of the Helm chart that come from the operator's API and controller modules (see chart-values.ts).
import { writeFileSync } from 'node:fs';
import { chartFiles } from './chart-values.js';

for (const [path, text] of Object.entries(chartFiles())) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
