import { readFileSync } from 'node:fs';

/** The operator's version, from its package.json (one place for versions). */
export function operatorVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  if (typeof manifest !== 'object' || manifest === null || !('version' in manifest) || typeof manifest.version !== 'string') throw new Error('the operator\'s package.json has no version');
  return manifest.version;
}
