import { createHash } from 'node:crypto';

/** Longest DNS-1123 label: namespaces, label values, most object names that are also labels. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
/** Longest DNS-1123 subdomain: names of Secrets, ConfigMaps and most other objects. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const LABEL_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const LABEL = new RegExp(`^${LABEL_PATTERN}$`);
/** A DNS-1123 subdomain as a regular expression both JavaScript and a CRD's OpenAPI `pattern` (RE2) read alike. */
export const DNS1123_SUBDOMAIN_PATTERN = `^${LABEL_PATTERN}(\\.${LABEL_PATTERN})*$`;
const SUBDOMAIN = new RegExp(DNS1123_SUBDOMAIN_PATTERN);
/** Characters of the hash suffix a shortened name ends with. */
const HASH_LENGTH = 10;

export function isDns1123Label(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX_LENGTH && LABEL.test(value);
}

export function isDns1123Subdomain(value: string): boolean {
  return value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && SUBDOMAIN.test(value);
}

/** A short, stable digest of a text (lowercase hex, so it is itself a valid label fragment). */
export function shortHash(text: string, length = HASH_LENGTH): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/**
 * `name` itself when it fits in `maxLength`; otherwise a prefix of it followed by `-` and a hash of the whole
 * name, so distinct long names stay distinct and the result is stable. A prefix never ends in `-` or `.`,
 * so a valid DNS-1123 name stays valid.
 */
export function truncateWithHash(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  if (maxLength < HASH_LENGTH + 2) throw new RangeError(`maxLength ${String(maxLength)} leaves no room for a hash suffix`);
  const prefix = name.slice(0, maxLength - HASH_LENGTH - 1).replace(/[-.]+$/, '');
  return `${prefix}-${shortHash(name)}`;
}
