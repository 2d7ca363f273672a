import type { Sensitive } from '@keyward/kernel';

/** Server text is quoted at most this long, so a misbehaving server or proxy cannot flood logs and statuses. */
export const MAX_DETAIL_LENGTH = 300;

/** The ways a server may echo a secret it was sent: as is, escaped inside a JSON string, URL- or form-encoded. */
function echoes(value: string): string[] {
  const formEncoded = new URLSearchParams({ v: value }).toString().slice('v='.length);
  return [...new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), formEncoded])];
}

/**
 * `text` with every echo of the string secrets masked. Longer secrets go first, so one that contains another
 * is masked whole rather than leaving its remainder behind.
 */
export function scrub(text: string, secrets: readonly Sensitive<unknown>[]): string {
  const values = secrets
    .map((secret) => ({ value: secret.reveal(), mask: secret.toString() }))
    .filter((entry): entry is { value: string; mask: string } => typeof entry.value === 'string' && entry.value !== '')
    .flatMap(({ value, mask }) => echoes(value).map((echo) => ({ echo, mask })))
    .sort((a, b) => b.echo.length - a.echo.length);
  let clean = text;
  for (const { echo, mask } of values) clean = clean.replaceAll(echo, mask);
  return clean;
}

/**
 * Server text as an error may quote it: secrets masked first (so shortening cannot cut one in half and leave
 * a piece unmasked), then on one line (validation errors may append a multi-line schema dump), then shortened.
 */
export function quotable(text: string, secrets: readonly Sensitive<unknown>[]): string {
  const line = scrub(text, secrets).replace(/\s+/g, ' ').trim();
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH)}...` : line;
}
