// A rotation at a time of day (the Kopf operator's `rotationTime` and `timezone`): once the period has passed,
// the secret is rotated at the next moment the clock in that zone shows that time.

/** "HH:MM", 00:00 to 23:59. */
export const ROTATION_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** An IANA zone name's characters (Europe/Amsterdam, UTC, Etc/GMT+1); the codec also asks the runtime whether it knows it. */
export const TIMEZONE_PATTERN = '^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$';
export const DEFAULT_TIMEZONE = 'UTC';

/** Whether the runtime knows the zone. */
export function isKnownTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const DAY_MS = 86_400_000;

/** The wall clock of `zone` at `instant`, as if it were UTC: its difference from `instant` is the zone's offset. */
function wallClock(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

/** The instant whose wall clock in `zone` is `wall` (a wall time read as UTC); twice corrected, for an offset that changes near it. */
function instantOf(zone: string, wall: number): number {
  const first = wall - (wallClock(zone, wall) - wall);
  return wall - (wallClock(zone, first) - first);
}

/** The first instant at or after `from` whose wall clock in `zone` shows `time` ("HH:MM"). */
export function nextTimeOfDay(from: number, time: string, zone: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const day = Math.floor(wallClock(zone, from) / DAY_MS) * DAY_MS;
  const sameDay = instantOf(zone, day + (hours * 60 + minutes) * 60_000);
  return sameDay >= from ? sameDay : instantOf(zone, day + DAY_MS + (hours * 60 + minutes) * 60_000);
}
