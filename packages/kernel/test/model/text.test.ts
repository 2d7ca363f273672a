import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { EVENT_NOTE_MAX_LENGTH, escapeInvisible, eventNote } from '../../src/model/text.js';

/** Characters that change how a text reads without being seen: controls and bidi overrides and isolates. */
const invisible = (text: string): boolean => /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(text);

describe('escapeInvisible', () => {
  it.each([
    ['a bidi override', 'user \u202Eevil\u202C', 'user \\u{202E}evil\\u{202C}'],
    ['every bidi isolate', '\u2066\u2067\u2068\u2069', '\\u{2066}\\u{2067}\\u{2068}\\u{2069}'],
    ['C0 controls, newline and tab included', 'a\nb\tc\u0000\u001B[31m', 'a\\u{000A}b\\u{0009}c\\u{0000}\\u{001B}[31m'],
    ['DEL and C1 controls', '\u007F\u0085\u009B', '\\u{007F}\\u{0085}\\u{009B}'],
  ])('escapes %s visibly', (_what, text, escaped) => {
    expect(escapeInvisible(text)).toBe(escaped);
  });

  it('leaves ordinary text alone, whatever its script', () => {
    for (const text of ['Setup complete', 'ключ für 鍵 🔑', 'rotated: 2027-03-01T12:00:00Z', 'a\\u{202E}b']) expect(escapeInvisible(text)).toBe(text);
  });

  it('leaves nothing invisible, and escaping again changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = escapeInvisible(text);
        expect(invisible(once)).toBe(false);
        expect(escapeInvisible(once)).toBe(once);
      }),
    );
  });
});

describe('eventNote', () => {
  it('escapes the note and keeps it within the API limit', () => {
    expect(eventNote('rotated \u202Eok')).toBe('rotated \\u{202E}ok');
    const long = eventNote('\u202E'.repeat(EVENT_NOTE_MAX_LENGTH));
    expect(long.length).toBeLessThanOrEqual(EVENT_NOTE_MAX_LENGTH);
    expect(invisible(long)).toBe(false);
  });
});
