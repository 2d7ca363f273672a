import { oneOf, uniqueList } from '@keyward/kernel/model';
import * as t from 'io-ts';

// One rule for every list of things Keyward makes inside a realm or client: a list that names some is the
// whole set (what we made and it does not name is removed); an empty or absent list removes nothing, unless
// the object's `pruneUnlisted` names the field. Keyward never removes what it did not make.

/** Whether the unlisted things we made in `list` are removed: the list names some, or pruning is asked for. */
export const removesUnlisted = (list: readonly unknown[] | undefined, pruneWhenEmpty: boolean): boolean => (list?.length ?? 0) > 0 || pruneWhenEmpty;

/** Whether `pruneUnlisted` names `field`: its list removes what we made even when it names none. */
export const prunesWhenEmpty = <F extends string>(pruneUnlisted: readonly F[] | undefined, field: F): boolean => pruneUnlisted?.includes(field) === true;

/** The codec of a `pruneUnlisted` list over `fields`. */
export function pruneUnlistedCodec<const F extends readonly [string, ...string[]]>(fields: F): t.Type<F[number][], F[number][]> {
  return uniqueList(t.array(oneOf(fields)));
}

/** The prune rule as a CRD description says it for the list `field` of pruneUnlisted (or the list it is part of). */
export const pruneRuleDescription = (field: string): string => `Unlisted ones Keyward made are removed while the list names some, or when pruneUnlisted names ${field}; others are never touched.`;

/** The CRD schema of a `pruneUnlisted` list over `fields`. */
export function pruneUnlistedSchema(fields: readonly string[], what: string): Record<string, unknown> {
  return {
    type: 'array',
    items: { type: 'string', enum: [...fields] },
    'x-kubernetes-list-type': 'set',
    description: `Fields whose ${what} Keyward made are removed when the field lists none (or is left out). A field that lists some removes the unlisted ones Keyward made anyway; Keyward never removes what it did not make.`,
  };
}
