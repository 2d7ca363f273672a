import type * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';

// The kinds of field the realm's top-level spec is made of, each one declaration for its codec and its schema.

/** Keycloak keeps numbers of realm settings as Java ints. */
export const INT32_MAX = 2_147_483_647;
/** Keycloak's name columns hold 255 characters (measured on 26.7.3: roles, client scopes, groups, aliases). */
export const NAME_MAX_LENGTH = 255;

export const name = f.text(NAME_MAX_LENGTH);
export const nameSet = f.set(name);

/** An integer of at least `minimum` that Keycloak keeps as a Java int. */
export const int32From = (minimum: number): f.Field<t.Type<number>> => f.integerIn(minimum, INT32_MAX).schemaOnly({ format: 'int32' });

/** A field for each of `keys`, made by `make`. */
export function each<K extends string, F extends f.AnyField>(keys: readonly K[], make: (key: K) => F): Record<K, F> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, F>;
}

export const keysOf = <K extends string>(table: Readonly<Record<K, unknown>>): K[] => Object.keys(table) as K[];

/**
 * A field a sub-folder or a module shared with clients still states as a codec and a schema apart: paired here
 * until it is declared with fields too.
 */
export function declared<C extends t.Mixed>(codec: C, schema: object): f.Field<C> {
  return f.field(codec, schema);
}
