import { createHash } from 'node:crypto';

/** The fields of a KeystoneApplicationCredential spec that decide what a credential may do. */
export interface SecurityRelevantSpec {
  readonly roles?: readonly string[] | undefined;
  readonly accessRules?: readonly AccessRuleFields[] | undefined;
  readonly unrestricted?: boolean | undefined;
}

export interface AccessRuleFields {
  readonly service: string;
  readonly path: string;
  readonly method: string;
}

/**
 * A JSON string literal exactly as Go's encoding/json writes it: short escapes for \" \\ \b \f \n \r \t,
 * \u00XX for other control characters, and HTML-safe \u escapes for <, >, & and U+2028/U+2029.
 * Lone surrogates (invalid UTF-8 once encoded) become U+FFFD, as Go does for invalid bytes.
 */
export function goJsonString(value: string): string {
  let out = '"';
  for (const char of value.toWellFormed()) {
    const code = char.codePointAt(0) ?? 0;
    switch (char) {
      case '"': out += '\\"'; break;
      case '\\': out += '\\\\'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      default:
        out += code < 0x20 || char === '<' || char === '>' || char === '&' || code === 0x2028 || code === 0x2029
          ? `\\u${code.toString(16).padStart(4, '0')}`
          : char;
    }
  }
  return `${out}"`;
}

/** A Go slice as encoding/json writes it: `null` when nil (absent), `[...]` otherwise, order kept. */
function goJsonList<T>(items: readonly T[] | undefined, encode: (item: T) => string): string {
  return items === undefined ? 'null' : `[${items.map(encode).join(',')}]`;
}

/** The bytes upstream hashes: encoding/json of struct { Roles; AccessRules; Unrestricted } with no tags. */
export function securityHashInput(spec: SecurityRelevantSpec): string {
  const roles = goJsonList(spec.roles, goJsonString);
  const rules = goJsonList(
    spec.accessRules,
    (r) => `{"service":${goJsonString(r.service)},"path":${goJsonString(r.path)},"method":${goJsonString(r.method)}}`,
  );
  return `{"Roles":${roles},"AccessRules":${rules},"Unrestricted":${String(spec.unrestricted ?? false)}}`;
}

const HASH_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The securityHash the upstream keystone-operator stores in status, bit for bit: SHA-256 of the Go JSON
 * encoding, printed as Go's fmt.Sprint prints a [32]byte ("[12 200 7 ...]"), each character of that text
 * mapped into a 27-letter alphabet. Equal hashes mean an existing credential already has the right powers,
 * which is what lets Keyward take over upstream's objects without rotating them.
 */
export function computeSecurityHash(spec: SecurityRelevantSpec): string {
  const digest = createHash('sha256').update(securityHashInput(spec), 'utf8').digest();
  const printed = `[${Array.from(digest).join(' ')}]`;
  return Array.from(printed, (c) => HASH_ALPHABET[(c.codePointAt(0) ?? 0) % HASH_ALPHABET.length] ?? '').join('');
}
