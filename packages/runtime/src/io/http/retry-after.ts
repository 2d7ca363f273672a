/**
 * The delay a Retry-After header asks for, in ms: either delay-seconds ("120") or an HTTP date ("Wed, 21 Oct
 * 2015 07:28:00 GMT", relative to `now`; a date in the past asks for no delay). Undefined when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only a date with a weekday or month name: Date.parse also reads bare numbers and "-1" as dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
