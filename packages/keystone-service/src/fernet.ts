/** Bytes of one fernet key (a 128-bit signing key and a 128-bit encryption key). */
export const KEY_BYTES = 32;
/** Length of a key as Python's cryptography reads it: URL-safe base64 with padding. */
export const KEY_LENGTH = 44;
/** Keystone's floor: a staged key, a primary and at least one secondary. */
export const MIN_ACTIVE_KEYS = 3;

/** A key repository: index -> key. Index 0 is the staged key, the highest index the primary. */
export type KeyRepository = Readonly<Record<string, string>>;

/** A fernet key from 32 random bytes. */
export function fernetKey(bytes: Uint8Array): string {
  if (bytes.length !== KEY_BYTES) throw new RangeError(`a fernet key takes ${String(KEY_BYTES)} bytes, not ${String(bytes.length)}`);
  return Buffer.from(bytes).toString('base64url').padEnd(KEY_LENGTH, '=');
}

export function isFernetKey(text: string): boolean {
  return text.length === KEY_LENGTH && /^[A-Za-z0-9_-]{43}=$/.test(text) && Buffer.from(text, 'base64url').length === KEY_BYTES;
}

/** `count` keys from `material`, 32 bytes each, starting at key `offset`. */
export function keysFrom(material: Uint8Array, count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => fernetKey(material.slice((offset + i) * KEY_BYTES, (offset + i + 1) * KEY_BYTES)));
}

/** A new repository as keystone-manage fernet_setup followed by rotations leaves it: keys "0".."count-1". */
export function initialRepository(keys: readonly string[]): KeyRepository {
  return Object.fromEntries(keys.map((key, index) => [String(index), key]));
}

/** The indices of a repository, ascending; entries whose name is not an index are not keys. */
export function indices(repository: KeyRepository): number[] {
  return Object.keys(repository).filter((name) => /^(0|[1-9]\d*)$/.test(name)).map(Number).sort((a, b) => a - b);
}

/**
 * Keystone's fernet_rotate: the staged key 0 becomes the new primary at the index after the current highest,
 * `fresh` becomes the new staged key 0, and the oldest secondaries are purged until at most `maxActiveKeys`
 * keys remain. A repository without a staged key is not one to rotate (undefined).
 */
export function rotate(repository: KeyRepository, fresh: string, maxActiveKeys: number): KeyRepository | undefined {
  const current = indices(repository);
  const staged = repository['0'];
  if (staged === undefined) return undefined;
  const promoted = Math.max(...current) + 1;
  // The keys besides the new staged one, newest first; the oldest go while there are too many.
  const kept = [promoted, ...current.filter((i) => i !== 0).reverse()].slice(0, Math.max(maxActiveKeys, MIN_ACTIVE_KEYS) - 1);
  const next: Record<string, string> = { '0': fresh };
  for (const index of kept) next[String(index)] = index === promoted ? staged : (repository[String(index)] ?? '');
  return next;
}

/** Why a repository read from a Secret cannot be used, or undefined when it can. */
export function repositoryProblem(repository: KeyRepository): string | undefined {
  const keys = indices(repository);
  if (keys.length < MIN_ACTIVE_KEYS) return `it holds ${String(keys.length)} keys, fewer than ${String(MIN_ACTIVE_KEYS)}`;
  if (!keys.includes(0)) return 'it has no staged key "0"';
  const bad = keys.find((index) => !isFernetKey(repository[String(index)] ?? ''));
  if (bad !== undefined) return `key "${String(bad)}" is not 32 bytes in URL-safe base64 with padding`;
  if (keys.length !== Object.keys(repository).length) return 'it holds entries that are not key indices';
  return undefined;
}
