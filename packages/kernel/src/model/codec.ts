import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, isDns1123Subdomain } from './names.js';

/** Why an input was rejected: one readable line per problem, each starting with the field path. */
export interface DecodeFailure {
  /** All problems joined: "spec.roles: expected at least 1 item; spec.expirationDays: expected an integer >= 2, got 1". */
  readonly message: string;
  readonly problems: readonly DecodeProblem[];
}

export interface DecodeProblem {
  /** Dotted path with [index] for arrays: "spec.accessRules[0].method"; "" for the root. */
  readonly path: string;
  readonly message: string;
}

/** At most this many problems are reported, so one broken list does not bury the rest. */
const MAX_PROBLEMS = 5;

/**
 * The field path of an io-ts context as a user writes it. Unions and intersections (also ones wrapped in a
 * Type of a domain's own, which io-ts cannot see through) add an entry per branch with a numeric key and the
 * same value as their parent; an array element has a value of its own. So a numeric key is an index only
 * when its value differs from the parent's.
 */
function pathOf(context: t.Context): string {
  let path = '';
  context.forEach((entry, index) => {
    const parent = context[index - 1];
    if (parent === undefined) return;
    const numeric = /^\d+$/.test(entry.key);
    if (numeric && Object.is(entry.actual, parent.actual)) return;
    path += numeric ? `[${entry.key}]` : path === '' ? entry.key : `.${entry.key}`;
  });
  return path;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  // A JSON number beyond 2^53 was already rounded when it was parsed: printing it would show a value the user
  // never wrote.
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) return 'a number out of range (beyond 2^53)';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** What a codec expects, in words: io-ts names structs and arrays after their whole shape, which reads as noise. */
function describeExpected(type: t.Decoder<unknown, unknown> | undefined): string {
  switch ((type as { _tag?: string } | undefined)?._tag) {
    case undefined: return type?.name ?? 'a valid value';
    case 'InterfaceType': case 'PartialType': case 'IntersectionType': case 'ExactType': case 'StrictType': case 'DictionaryType': case 'UnknownRecordType': return 'an object';
    case 'ArrayType': case 'ReadonlyArrayType': case 'UnknownArrayType': return 'a list';
    case 'StringType': return 'a string';
    case 'NumberType': return 'a number';
    case 'BooleanType': return 'true or false';
    default: return type?.name ?? 'a valid value';
  }
}

function problemOf(error: t.ValidationError): DecodeProblem {
  const path = pathOf(error.context);
  if (error.message !== undefined) return { path, message: error.message };
  if (error.value === undefined) return { path, message: 'required' };
  return { path, message: `expected ${describeExpected(error.context[error.context.length - 1]?.type)}, got ${describeValue(error.value)}` };
}

export function describeErrors(errors: t.Errors): DecodeFailure {
  const seen = new Set<string>();
  const problems: DecodeProblem[] = [];
  for (const problem of errors.map(problemOf)) {
    const line = problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;
    if (seen.has(line)) continue;
    seen.add(line);
    problems.push(problem);
  }
  const shown = problems.slice(0, MAX_PROBLEMS).map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`));
  const more = problems.length > MAX_PROBLEMS ? ` (and ${String(problems.length - MAX_PROBLEMS)} more)` : '';
  return { message: `${shown.join('; ')}${more}`, problems };
}

/** Decodes `input`, turning io-ts errors into one readable message that names each field. Never throws. */
export function decode<A>(codec: t.Decoder<unknown, A>, input: unknown): Either<DecodeFailure, A> {
  const result = codec.decode(input);
  return isLeft(result) ? left(describeErrors(result.left)) : right(result.right);
}

/** A string of at least `min` characters. */
export function minLengthString(min: number): t.Type<string> {
  return new t.Type<string>(
    `a string of at least ${String(min)} character${min === 1 ? '' : 's'}`,
    (u): u is string => typeof u === 'string' && u.length >= min,
    (u, c) => (typeof u === 'string' && u.length >= min ? t.success(u) : t.failure(u, c)),
    t.identity,
  );
}

/** An integer in [min, max]. */
export function integerInRange(min: number, max = Number.MAX_SAFE_INTEGER): t.Type<number> {
  const name = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${String(min)}` : `an integer from ${String(min)} to ${String(max)}`;
  const valid = (u: unknown): u is number => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max;
  return new t.Type<number>(name, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** A list of at least `min` items of `item`. */
export function minLengthArray<C extends t.Mixed>(item: C, min: number): t.Type<t.TypeOf<C>[], t.OutputOf<C>[]> {
  const list = t.array(item);
  return new t.Type<t.TypeOf<C>[], t.OutputOf<C>[]>(
    `a list of at least ${String(min)} item${min === 1 ? '' : 's'}`,
    (u): u is t.TypeOf<C>[] => list.is(u) && u.length >= min,
    (u, c) => {
      const decoded = list.validate(u, c);
      if (isLeft(decoded)) return decoded;
      return decoded.right.length >= min ? t.success(decoded.right) : t.failure(u, c);
    },
    list.encode,
  );
}

/** One of the given string literals; the message lists them. */
export function oneOf<const V extends readonly [string, ...string[]]>(values: V): t.Type<V[number]> {
  const allowed = new Set<string>(values);
  const valid = (u: unknown): u is V[number] => typeof u === 'string' && allowed.has(u);
  return new t.Type<V[number]>(`one of ${values.join(', ')}`, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** `codec`, but a missing (undefined) input decodes to `fallback`: the CRD's default, applied again in code. */
export function withDefault<C extends t.Mixed>(codec: C, fallback: t.TypeOf<C>): t.Type<t.TypeOf<C>, t.OutputOf<C>> {
  return new t.Type<t.TypeOf<C>, t.OutputOf<C>>(
    codec.name,
    (u): u is t.TypeOf<C> => codec.is(u),
    (u, c) => (u === undefined ? t.success(fallback) : codec.validate(u, c)),
    (a) => codec.encode(a) as t.OutputOf<C>,
  );
}

/** `list`, with at most `max` items (a CRD's `maxItems`). */
export function atMost<A, O>(list: t.Type<A[], O[]>, max: number): t.Type<A[], O[]> {
  const valid = (u: unknown): u is A[] => list.is(u) && u.length <= max;
  return new t.Type<A[], O[]>(
    `a list of at most ${String(max)} items`,
    valid,
    (u, c) => {
      const decoded = list.validate(u, c);
      return decoded._tag === 'Left' || decoded.right.length <= max ? decoded : t.failure(u, c, `must have at most ${String(max)} items`);
    },
    list.encode,
  );
}

/** The length of `text` as a CRD's minLength and maxLength count it: in characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  return [...text].length;
}

/** A string of 1 to `max` characters (a CRD's minLength 1 and maxLength). */
export function boundedText(max: number): t.Type<string> {
  const valid = (u: unknown): u is string => typeof u === 'string' && u.length >= 1 && characterCount(u) <= max;
  return new t.Type<string>(`a string of 1 to ${String(max)} characters`, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** A string of 1 to `max` characters matching `pattern` (a CRD's pattern); `says` what the pattern allows, for messages. */
export function patternedText(max: number, pattern: string, says: string): t.Type<string> {
  const regex = new RegExp(pattern);
  const valid = (u: unknown): u is string => typeof u === 'string' && u.length >= 1 && characterCount(u) <= max && regex.test(u);
  return new t.Type<string>(`a string of 1 to ${String(max)} characters (${says})`, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** `codec`, failing at its own path with `message` for a value `holds` says no to (the codec's half of a CEL rule on a field). */
export function withRule<A, O>(codec: t.Type<A, O>, holds: (value: A) => boolean, message: string): t.Type<A, O> {
  return new t.Type<A, O>(
    codec.name,
    (u): u is A => codec.is(u) && holds(u),
    (u, c) => {
      const decoded = codec.validate(u, c);
      return decoded._tag === 'Left' || holds(decoded.right) ? decoded : t.failure(u, c, message);
    },
    codec.encode,
  );
}

/** What a rule across an object's fields finds wrong: the field it is reported at, and why. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * `codec`, plus a rule across its fields (the codec's half of a CRD's CEL rule): a value that breaks it fails
 * at the field the problem names, with the problem's message.
 */
export function withFieldRule<A, O>(name: string, codec: t.Type<A, O>, problemOf: (value: A) => FieldProblem | undefined): t.Type<A, O> {
  return new t.Type<A, O>(
    name,
    (u): u is A => codec.is(u) && problemOf(u) === undefined,
    (u, c) => {
      const decoded = codec.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      const problem = problemOf(decoded.right);
      if (problem === undefined) return decoded;
      const actual = (decoded.right as Readonly<Record<string, unknown>>)[problem.field];
      return t.failure(actual, [...c, { key: problem.field, type: t.unknown, actual }], problem.message);
    },
    (a) => codec.encode(a),
  );
}

/**
 * `list`, with no item twice (by `keyOf`, the item itself by default), as `x-kubernetes-list-type: set` (or
 * `map`) makes the API server check. A repeat is reported at its own index and names the first occurrence.
 * A key of several fields (a list map's keys) is a tuple, compared field by field: joined into one string,
 * "a b" + "c" and "a" + "b c" would read as the same item where the API server sees two.
 */
export function uniqueList<A, O>(list: t.Type<A[], O[]>, keyOf: (item: A) => unknown = (item) => item): t.Type<A[], O[]> {
  const identity = (item: A): unknown => {
    const key = keyOf(item);
    return Array.isArray(key) ? JSON.stringify(key) : key;
  };
  const firstRepeat = (items: readonly A[]): { index: number; first: number } | undefined => {
    const seen = new Map<unknown, number>();
    for (const [index, item] of items.entries()) {
      const first = seen.get(identity(item));
      if (first !== undefined) return { index, first };
      seen.set(identity(item), index);
    }
    return undefined;
  };
  return new t.Type<A[], O[]>(
    `${list.name} without repeats`,
    (u): u is A[] => list.is(u) && firstRepeat(u) === undefined,
    (u, c) => {
      const decoded = list.validate(u, c);
      if (isLeft(decoded)) return decoded;
      const repeat = firstRepeat(decoded.right);
      if (repeat === undefined) return decoded;
      const item = decoded.right[repeat.index] as A;
      const key = keyOf(item);
      const words = Array.isArray(key) ? key.map(String).join(' ') : key;
      const shown = typeof words === 'string' ? JSON.stringify(words) : describeValue(words);
      const context = [...c, { key: String(repeat.index), type: list, actual: item }];
      return t.failure(item, context, `duplicate of ${pathOf(c)}[${String(repeat.first)}] (${shown})`);
    },
    list.encode,
  );
}

/** The name of a Kubernetes object such as a Secret or ConfigMap: a DNS-1123 subdomain. */
export function kubernetesName(): t.Type<string> {
  const valid = (u: unknown): u is string => typeof u === 'string' && isDns1123Subdomain(u);
  return new t.Type<string>(
    `a Kubernetes object name (lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most ${String(DNS1123_SUBDOMAIN_MAX_LENGTH)} characters)`,
    valid,
    (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  );
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** YYYY-MM-DD as Go's time.Parse reads it: fixed widths, and a day that exists in its month. */
function isFullDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** The time after the "t", as the API server's pattern has it (its unescaped "." takes any character but a newline). */
const TIME_OF_DAY = /^(\d{2}):(\d{2}):(\d{2})([^\n]\d+)?(z|[+-]\d{2}:\d{2})$/;

/**
 * Whether the API server takes `text` for a CRD field of `format: date-time`. It checks what kube-openapi's
 * IsDateTime checks, quirks included (it splits the lowercased text at every "t" and reads the first two
 * parts), so that the codec and the CRD give the same verdict on any string.
 */
export function isDateTime(text: string): boolean {
  const [date, time] = text.toLowerCase().split('t');
  if (date === undefined || time === undefined || !isFullDate(date)) return false;
  const match = TIME_OF_DAY.exec(time);
  return match !== null && (match[1] ?? '') <= '23' && (match[2] ?? '') <= '59' && (match[3] ?? '') <= '59';
}

/**
 * What reading the text as a timestamp (go-openapi's ParseDateTime, which a CEL rule on a date-time field
 * does) adds to the format check: an upper-case T and Z, "." or "," before a fraction, nothing after the zone,
 * and a zone offset of at most 24 hours and 60 minutes.
 */
const PARSED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Whether the API server takes `text` for a field of `dateTimeSchema`: the format check, and a timestamp parse. */
export function isParsedDateTime(text: string): boolean {
  const match = PARSED_DATE_TIME.exec(text);
  return match !== null && isDateTime(text) && Number(match[1] ?? 0) <= 24 && Number(match[2] ?? 0) <= 60;
}

/**
 * The CRD schema of a spec timestamp. The API server skips the type check of a string that has a format when it
 * is given a list (`["2030-01-01T00:00:00Z"]`, `[]` would be stored), so a rule reads the value as a timestamp:
 * a list is then refused, naming the field, and so is text the format check lets through but no timestamp
 * parse reads (`2030-01-01T00:00:00ZTlater`). `dateTime()` is its codec.
 */
export const dateTimeSchema = {
  type: 'string',
  format: 'date-time',
  'x-kubernetes-validations': [{ rule: 'self == self', message: 'must be an RFC 3339 date-time (2025-01-31T12:00:00Z)' }],
} as const;

/** A timestamp where a CRD field is `dateTimeSchema` (RFC 3339: 2025-01-31T12:00:00Z). */
export function dateTime(): t.Type<string> {
  const valid = (u: unknown): u is string => typeof u === 'string' && isParsedDateTime(u);
  return new t.Type<string>('an RFC 3339 date-time (2025-01-31T12:00:00Z)', valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}
