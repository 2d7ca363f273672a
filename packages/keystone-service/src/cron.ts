// A small evaluator of the five-field cron expressions Kubernetes CronJobs take (minute hour day-of-month
// month day-of-week, names for months and days, ranges, steps, lists, and the @ macros), in UTC. When both
// day fields are restricted a day matches either, as in Vixie cron and Kubernetes.

export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  readonly dayRestricted: boolean;
  readonly weekdayRestricted: boolean;
}

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  // 7 is Sunday too.
  { name: 'day of week', min: 0, max: 7, names: DAYS },
];

export const CRON_MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export type CronParse = { readonly ok: true; readonly schedule: CronSchedule } | { readonly ok: false; readonly error: string };

function value(text: string, field: FieldSpec): number | undefined {
  const index = field.names?.indexOf(text.toLowerCase()) ?? -1;
  if (index >= 0) return index + field.min;
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= field.min && n <= field.max ? n : undefined;
}

function parseField(text: string, field: FieldSpec): Set<number> | string {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const match = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d{1,2}))?$/i.exec(item);
    if (match === null) return `${field.name}: "${item}" is not a value, range or step`;
    const [, range = '', stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1 || step > field.max) return `${field.name}: step ${stepText ?? ''} is out of range`;
    let low = field.min;
    let high = field.max;
    if (range !== '*') {
      const [from = '', to] = range.split('-');
      const start = value(from, field);
      const end = to === undefined ? (stepText === undefined ? start : field.max) : value(to, field);
      if (start === undefined || end === undefined) return `${field.name}: "${range}" is out of range ${String(field.min)}-${String(field.max)}`;
      if (start > end) return `${field.name}: range ${range} starts after it ends`;
      [low, high] = [start, end];
    }
    for (let n = low; n <= high; n += step) values.add(n);
  }
  return values;
}

/** Parses a cron expression, or says which field is wrong. */
export function parseCron(expression: string): CronParse {
  const trimmed = expression.trim();
  const expanded = CRON_MACROS[trimmed.toLowerCase()] ?? trimmed;
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) return { ok: false, error: 'expected five fields (minute hour day-of-month month day-of-week) or a macro such as @daily' };
  const sets: Set<number>[] = [];
  for (const [i, field] of FIELDS.entries()) {
    const parsed = parseField(parts[i] ?? '', field);
    if (typeof parsed === 'string') return { ok: false, error: parsed };
    sets.push(parsed);
  }
  const [minutes, hours, days, months, weekdays] = sets as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.has(7)) weekdays.add(0);
  return {
    ok: true,
    schedule: { minutes, hours, days, months, weekdays, dayRestricted: !(parts[2] ?? '').startsWith('*'), weekdayRestricted: !(parts[4] ?? '').startsWith('*') },
  };
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const day = schedule.days.has(date.getUTCDate());
  const weekday = schedule.weekdays.has(date.getUTCDay());
  if (schedule.dayRestricted && schedule.weekdayRestricted) return day || weekday;
  return day && weekday;
}

const MINUTE = 60_000;
/** Far enough for any schedule that can fire at all (29 February on a Monday repeats within 28 years). */
const SEARCH_YEARS = 30;

/** The first time strictly after `after` the schedule fires (whole minutes, UTC); undefined if it never does (31 February). */
export function nextRun(schedule: CronSchedule, after: Date): Date | undefined {
  const t = new Date(Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE);
  const limit = after.getUTCFullYear() + SEARCH_YEARS;
  // Skips whole months, days and hours that cannot match, so a search is a few hundred steps at most.
  while (t.getUTCFullYear() <= limit) {
    if (!schedule.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(schedule, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!schedule.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!schedule.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    return t;
  }
  return undefined;
}
