import * as t from 'io-ts';
import { parseCron } from './cron.js';

// Small codecs the spec's parts share: each states a rule the CRD states too, in the same words.

/** A string matching `pattern`; `says` names what is expected. */
export function matching(pattern: string, says: string): t.Type<string> {
  const regex = new RegExp(pattern);
  const valid = (u: unknown): u is string => typeof u === 'string' && regex.test(u);
  return new t.Type<string>(says, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity);
}

/** `codec`, plus a rule on the decoded value (the schema's CEL rule); the failure names the object. */
export function refine<A, O>(codec: t.Type<A, O>, problem: (value: A) => string | undefined): t.Type<A, O> {
  return new t.Type<A, O>(
    codec.name,
    (u): u is A => codec.is(u) && problem(u) === undefined,
    (u, c) => {
      const decoded = codec.validate(u, c);
      if (decoded._tag === 'Left') return decoded;
      const message = problem(decoded.right);
      return message === undefined ? decoded : t.failure(u, c, message);
    },
    codec.encode,
  );
}

/** A cron schedule as CronJobs take it (five fields or a macro); a bad one is refused saying why. */
export const cronSchedule = new t.Type<string>(
  'a cron schedule',
  (u): u is string => typeof u === 'string' && parseCron(u).ok,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const parsed = parseCron(u);
    return parsed.ok ? t.success(u) : t.failure(u, c, `not a cron schedule: ${parsed.error}`);
  },
  t.identity,
);
