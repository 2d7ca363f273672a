import * as t from 'io-ts';
import { fields as f } from '@keyward/kernel/model';
import { isFields, contextAt } from './upstream-spellings.js';

// A field that takes two shapes is untyped in the CRD, and the API server then keeps whatever it holds, a
// misspelt key included, which the codec would drop unseen. So the codec of such a field first looks for keys
// its typed schema does not have, and names the first one.

interface Schema {
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly additionalProperties?: Schema | boolean;
}


/** Where in `value` the first key that `schema` does not have is, with the keys it has there. */
export function unknownKey(value: unknown, schema: Schema, at: readonly (string | number)[] = []): { readonly at: readonly (string | number)[]; readonly known: readonly string[] } | undefined {
  if (Array.isArray(value) && schema.items !== undefined) {
    for (const [index, item] of (value as readonly unknown[]).entries()) {
      const found = unknownKey(item, schema.items, [...at, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isFields(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const property = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (property === undefined) {
      if (schema.properties !== undefined && schema.additionalProperties === undefined) return { at: [...at, key], known: Object.keys(schema.properties) };
      continue;
    }
    const found = unknownKey(inner, property, [...at, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The refusal of a key that is not a field where it stands, naming the fields that are. */
export function notAField(value: unknown, c: t.Context, at: readonly (string | number)[], known: readonly string[]): t.Validation<never> {
  return t.failure(value, contextAt(c, at), `not a field here (the fields are ${known.join(', ')})`);
}

/** `codec`, refusing first a key the schema `schema` does not have, named where it is. */
export function refusingUnknownKeys<A, O>(codec: t.Type<A, O>, schema: object): t.Type<A, O> {
  return new t.Type<A, O>(
    codec.name,
    codec.is,
    (u, c) => {
      const found = unknownKey(u, schema);
      return found === undefined ? codec.validate(u, c) : notAField(u, c, found.at, found.known);
    },
    codec.encode,
  );
}

/** `typed` untyped in the CRD, its codec checking the shape the schema would have, unknown keys included. */
export function untypedAs<A, O>(typed: f.Field<t.Type<A, O>, boolean>): f.Field<t.Type<A, O>> {
  return f.untyped(refusingUnknownKeys(typed.codec, typed.schema));
}
