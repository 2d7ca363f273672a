import { CRON_MACROS } from './cron.js';

// The cron syntax as one regular expression, for the CRD's `pattern` (RE2, which has no case-insensitive
// flag we could rely on in JavaScript too, so names are spelled as character classes). It accepts what
// parseCron accepts, except that it cannot see that a range starts after it ends.

const anyCase = (word: string): string => [...word].map((ch) => `[${ch}${ch.toUpperCase()}]`).join('');

/** The numbers min..max as parseCron reads them (one or two digits, so a leading zero is allowed below 10). */
function numbers(min: number, max: number): string {
  return Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) => (n < 10 ? `0?${String(n)}` : String(n))).join('|');
}

function field(min: number, max: number, names: readonly string[] = []): string {
  const value = `(?:${[numbers(min, max), ...names.map(anyCase)].join('|')})`;
  const step = `(?:/(?:${numbers(1, max)}))`;
  const item = `(?:(?:\\*|${value}(?:-${value})?)${step}?)`;
  return `${item}(?:,${item})*`;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const fields = [field(0, 59), field(0, 23), field(1, 31), field(1, 12, months), field(0, 7, days)].join('\\s+');
const macros = Object.keys(CRON_MACROS).map((macro) => `@${anyCase(macro.slice(1))}`).join('|');

export const CRON_FIELD_PATTERN = `^\\s*(?:${fields}|${macros})\\s*$`;
