import { isDns1123Label, isDns1123Subdomain } from './names.js';

/**
 * Parsers for option values. A failure is a phrase that completes `"<value>" ...`, so every error reads
 * `invalid --flag (ENV): "<value>" <problem>`.
 */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export function accept<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function reject(problem: string): Parsed<never> {
  return { ok: false, problem };
}

/** Items of a comma-separated list, trimmed, without empty ones. */
export function commaList(raw: string): string[] {
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

export function parseString(raw: string): Parsed<string> {
  return accept(raw);
}

export function parseBoolean(raw: string): Parsed<boolean> {
  if (raw === 'true') return accept(true);
  if (raw === 'false') return accept(false);
  return reject('is not true or false');
}

export function parseOneOf<T extends string>(choices: readonly T[]): (raw: string) => Parsed<T> {
  return (raw) => ((choices as readonly string[]).includes(raw) ? accept(raw as T) : reject(`is not one of ${choices.join(', ')}`));
}

export function parsePositiveInteger(raw: string): Parsed<number> {
  const value = Number(raw);
  return /^\d+$/.test(raw) && Number.isSafeInteger(value) && value >= 1 ? accept(value) : reject('is not an integer >= 1');
}

export function parseDns1123Label(raw: string): Parsed<string> {
  return isDns1123Label(raw) ? accept(raw) : reject('is not a DNS-1123 label (lowercase letters, digits and "-", at most 63)');
}

export function parseDns1123Subdomain(raw: string): Parsed<string> {
  return isDns1123Subdomain(raw) ? accept(raw) : reject('is not a DNS-1123 subdomain (an object name)');
}

export function parseHttpUrl(raw: string): Parsed<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return reject('is not an http(s) URL');
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? accept(raw) : reject('is not an http(s) URL');
}
