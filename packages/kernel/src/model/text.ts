/**
 * C0 and C1 controls (newline and tab included) and the Unicode bidi embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069): characters that change how a text reads in `kubectl describe`, a terminal
 * or a dashboard without being seen themselves ("Trojan Source").
 */
const INVISIBLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/**
 * `text` with every control and bidi character replaced by a visible `\u{XXXX}`. The result holds none of
 * them, so escaping it again changes nothing: a condition set twice stays the same and writes nothing.
 */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}}`);
}

/** The longest note events.k8s.io accepts. */
export const EVENT_NOTE_MAX_LENGTH = 1024;

/** An event's note as it is written: escaped, then cut to what the API server accepts. */
export function eventNote(note: string): string {
  return escapeInvisible(note).slice(0, EVENT_NOTE_MAX_LENGTH);
}
