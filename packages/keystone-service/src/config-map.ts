import { createHash } from 'node:crypto';

/**
 * SHA-256 of a ConfigMap's data, stable and unambiguous: keys in byte order, each entry length-prefixed
 * (byte lengths), so no value can pass for another key's boundary.
 */
export function contentHash(data: Readonly<Record<string, string>>): string {
  const hash = createHash('sha256');
  for (const key of Object.keys(data).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const value = data[key] ?? '';
    hash.update(`${String(Buffer.byteLength(key))}:${key}=${String(Buffer.byteLength(value))}:${value}\n`);
  }
  return hash.digest('hex');
}

/** `<base>-<first 8 hex of the content hash>`: a new name for new content, so the ConfigMap can be immutable. */
export function configMapName(base: string, data: Readonly<Record<string, string>>): string {
  return `${base}-${contentHash(data).slice(0, 8)}`;
}

/** Policy rules as YAML: one `"rule": "check"` line each, sorted (JSON strings are YAML strings). */
export function policyYaml(rules: Readonly<Record<string, string>>): string {
  return Object.keys(rules)
    .sort()
    .map((rule) => `${JSON.stringify(rule)}: ${JSON.stringify(rules[rule] ?? '')}\n`)
    .join('');
}
