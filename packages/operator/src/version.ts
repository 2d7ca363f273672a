import { readFileSync } from 'node:fs';

/** The operator's version, from its package.json (one place for versions). */
export function operatorVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
