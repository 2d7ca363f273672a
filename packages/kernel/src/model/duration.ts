/** Durations are plain milliseconds; these helpers keep unit conversions in one place. */
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export const seconds = (n: number): number => n * SECOND_MS;
export const minutes = (n: number): number => n * MINUTE_MS;
export const hours = (n: number): number => n * HOUR_MS;
export const days = (n: number): number => n * DAY_MS;

const UNITS: Record<string, number> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/**
 * Parses Go-style durations such as "90s", "1h30m" or "250ms" (and "d" for days) into milliseconds.
 * Returns undefined for anything else, so callers can report which option was wrong.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || !/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    total += Number(amount) * (UNITS[unit ?? ''] ?? Number.NaN);
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

/** A compact human form: "3d4h", "1h30m", "45s", "250ms". */
export function formatDuration(ms: number): string {
  if (ms < SECOND_MS) return `${String(Math.max(0, Math.round(ms)))}ms`;
  let rest = Math.round(ms / SECOND_MS);
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${String(count)}${unit}`);
  }
  return parts.slice(0, 2).join('');
}
