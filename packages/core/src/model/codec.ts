import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';

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

function isWrapper(type: t.Decoder<unknown, unknown>): boolean {
  const tag = (type as { _tag?: string })._tag;
  return tag === 'UnionType' || tag === 'IntersectionType';
}

/** The field path of an io-ts context, skipping the branch indices unions and intersections add. */
function pathOf(context: t.Context): string {
  let path = '';
  context.forEach((entry, index) => {
    const parent = context[index - 1];
    if (index === 0 || parent === undefined || isWrapper(parent.type)) return;
    path += /^\d+$/.test(entry.key) ? `[${entry.key}]` : path === '' ? entry.key : `.${entry.key}`;
  });
  return path;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

function problemOf(error: t.ValidationError): DecodeProblem {
  const path = pathOf(error.context);
  if (error.message !== undefined) return { path, message: error.message };
  const expected = error.context[error.context.length - 1]?.type.name ?? 'a valid value';
  const message = error.value === undefined ? `required (${expected})` : `expected ${expected}, got ${describeValue(error.value)}`;
  return { path, message };
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
