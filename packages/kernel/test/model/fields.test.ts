import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decode, withFieldRule } from '../../src/model/codec.js';
import * as f from '../../src/model/fields.js';
import type { FieldSchema } from '../../src/model/fields.js';

/**
 * What the API server's structural validation says of `value` under `schema`, for the keywords the combinators
 * write (CEL rules aside): unknown fields of an object are pruned, not refused, as the codecs ignore them.
 */
function schemaAccepts(schema: FieldSchema, value: unknown): boolean {
  const { type } = schema;
  if (type === 'string') {
    if (typeof value !== 'string') return false;
    const length = [...value].length;
    return (schema.enum === undefined || schema.enum.includes(value))
      && length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity)
      && (schema.pattern === undefined || new RegExp(schema.pattern).test(value));
  }
  if (type === 'integer') {
    return typeof value === 'number' && Number.isInteger(value) && value >= (schema.minimum ?? -Infinity) && value <= (schema.maximum ?? Infinity)
      && (schema.enum === undefined || schema.enum.includes(value));
  }
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'array') {
    if (!Array.isArray(value) || value.length > (schema.maxItems ?? Infinity)) return false;
    const items = schema.items;
    if (items !== undefined && !value.every((item) => schemaAccepts(items, item))) return false;
    const keys = schema['x-kubernetes-list-map-keys'];
    const identity = (item: unknown): string => JSON.stringify(keys === undefined ? item : keys.map((key) => (item as Readonly<Record<string, unknown>>)[key]));
    return schema['x-kubernetes-list-type'] === undefined || new Set(value.map(identity)).size === value.length;
  }
  if (type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    const { properties, additionalProperties } = schema;
    return (schema.required ?? []).every((key) => key in value)
      && entries.every(([key, inner]) => {
        const own = properties?.[key] ?? additionalProperties;
        return own === undefined || schemaAccepts(own, inner);
      });
  }
  throw new Error(`no check for the schema type ${String(type)}`);
}

/** Text of a few characters from an alphabet with what the fields' rules are about: '/', space, an astral character. */
const word = fc.array(fc.constantFrom('a', 'b', 'Z', '-', '.', '/', ' ', '\u{1F600}'), { maxLength: 5 }).map((chars) => chars.join(''));
const junk: fc.Arbitrary<unknown> = fc.oneof(word, fc.integer({ min: -3, max: 3 }), fc.constant(1.5), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));

/** Values near what `schema` accepts: mostly of its shape with near misses inside, sometimes of another type. */
function near(schema: FieldSchema): fc.Arbitrary<unknown> {
  const shaped = ((): fc.Arbitrary<unknown> => {
    switch (schema.type) {
      case 'string': return schema.enum === undefined ? word : fc.oneof(fc.constantFrom(...schema.enum), word);
      case 'integer': {
        const integers = fc.oneof(fc.integer({ min: (schema.minimum ?? -2) - 2, max: (schema.maximum ?? 3) + 2 }), fc.constant(2.5));
        return schema.enum === undefined ? integers : fc.oneof(fc.constantFrom(...schema.enum), integers);
      }
      case 'boolean': return fc.boolean();
      case 'array': return fc.array(near(schema.items ?? {}), { maxLength: (schema.maxItems ?? 3) + 1 });
      case 'object': {
        const properties = schema.properties ?? {};
        const known = fc.record(Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, near(inner)])), { requiredKeys: [] });
        const additional = schema.additionalProperties;
        return additional === undefined ? known : fc.dictionary(fc.constantFrom('a', 'b', 'c'), near(additional), { maxKeys: 3 });
      }
      default: return junk;
    }
  })();
  return fc.oneof({ arbitrary: shaped, weight: 6 }, { arbitrary: junk, weight: 1 });
}

/** The codec and the schema of `declared` give the same verdict on values near the schema, and `is` agrees. */
function expectAgreement(declared: f.AnyField): void {
  fc.assert(fc.property(near(declared.schema), (value) => {
    const accepted = schemaAccepts(declared.schema, value);
    expect(isRight(declared.codec.decode(value))).toBe(accepted);
    expect(declared.codec.is(value)).toBe(accepted);
  }), { numRuns: 2000 });
}

const Secret = f.object({
  name: f.kubernetesName().describe('Name of the Secret.').required(),
  key: f.nonEmpty().describe('Key in that Secret.').required(),
});

const Mapper = f.object({
  name: f.text(4).describe('The mapper\'s name.').required(),
  kind: f.enumOf(['a', 'b'], 'a | b').required(),
  config: f.stringMap(),
});

const Provider = f.object({
  name: f.patterned(4, '^[^/]+$', 'no /').describe('The provider\'s name.').required(),
  priority: f.integer(),
  period: f.integerAtLeast(-1, 'an integer of -1 or more', 5),
  enabled: f.boolean(),
  note: f.string(),
  secret: Secret,
  tags: f.set(f.nonEmpty(), { maxItems: 3 }),
  classes: f.list(f.string()),
  labels: f.record(f.list(f.text(3))),
  mappers: f.listMap('name', Mapper, { maxItems: 2 }).describe('Mappers, by name.'),
});

const Providers = f.listMap('name', Provider, { maxItems: 3 }).describe('Providers, by name.');
const Spec = f.object({ providers: Providers.required() });

const messageOf = (input: unknown): string => {
  const result = decode(t.type({ spec: Spec.codec }), { spec: input });
  if (!isLeft(result)) throw new Error('expected a failure');
  return result.left.message;
};

describe('a field declared once', () => {
  it('gives a codec and a schema that accept the same values: each combinator', () => {
    const declarations = [
      f.string(), f.string(3), f.boolean(), f.integer(), f.integerAtLeast(0, 'n', 2), f.nonEmpty(), f.text(3), f.patterned(3, '^[a-z]+$', 'a-z'),
      f.matching('^(/[^/]+)+$', 'a path'), f.kubernetesName(), f.enumOf(['a', 'a b']), f.stringMap(), Secret, Mapper,
    ];
    for (const declared of declarations) {
      expectAgreement(declared);
    }
  });

  it('gives a codec and a schema that accept the same values: lists, sets, list maps and nested objects', () => {
    expectAgreement(f.set(f.text(2), { maxItems: 2 }));
    expectAgreement(f.list(Secret, { maxItems: 1 }));
    expectAgreement(Providers);
  });

  it('states in the schema what it is declared with: descriptions, required fields, list types, bounds', () => {
    expect(Provider.schema.required).toEqual(['name']);
    expect(Provider.schema.properties?.['name']).toEqual({ type: 'string', minLength: 1, maxLength: 4, pattern: '^[^/]+$', description: 'The provider\'s name.' });
    expect(Provider.schema.properties?.['period']).toEqual({ type: 'integer', minimum: -1, maximum: 5 });
    expect(Provider.schema.properties?.['tags']).toEqual({ type: 'array', items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set', maxItems: 3 });
    expect(Provider.schema.properties?.['labels']).toEqual({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 3 } } });
    expect(Providers.schema).toMatchObject({ type: 'array', maxItems: 3, description: 'Providers, by name.', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(f.object({ a: f.string() }).schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(f.enumOf(['x', 'y']).schema).toEqual({ type: 'string', enum: ['x', 'y'] });
  });

  it('reads a value to the type its codec states, and its messages name the field', () => {
    const providers: t.TypeOf<typeof Providers.codec> = [{ name: 'p', mappers: [{ name: 'm', kind: 'a' }] }];
    expect(Spec.codec.decode({ providers })).toEqual({ _tag: 'Right', right: { providers } });
    expect(messageOf({})).toBe('spec.providers: required');
    expect(messageOf({ providers: [{ name: 'a/b' }] })).toBe('spec.providers[0].name: expected a string of 1 to 4 characters (no /), got "a/b"');
    expect(messageOf({ providers: [{ name: 'p', mappers: [{ name: 'm', kind: 'c' }] }] })).toBe('spec.providers[0].mappers[0].kind: expected a | b, got "c"');
    expect(messageOf({ providers: [{ name: 'p' }, { name: 'p' }] })).toBe('spec.providers[1]: duplicate of spec.providers[0] ("p")');
    expect(messageOf({ providers: [{ name: 'p', period: -2 }] })).toBe('spec.providers[0].period: expected an integer of -1 or more, got -2');
    expect(messageOf({ providers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] })).toBe('spec.providers: must have at most 3 items');
    expect(messageOf({ providers: [{ name: 'p', secret: { name: 'Bad' } }] })).toMatch(/^spec\.providers\[0\]\.secret\.name: expected a Kubernetes object name .*; spec\.providers\[0\]\.secret\.key: required$/);
  });

  it('adds a CEL rule to the schema together with the codec check that says the same', () => {
    const Range = f.object({ low: f.integer().required(), high: f.integer().required() })
      .rule({ rule: 'self.low <= self.high', message: 'low must not exceed high', fieldPath: '.low' }, (codec) =>
        withFieldRule('Range', codec, (range) => (range.low <= range.high ? undefined : { field: 'low', message: 'low must not exceed high' })))
      .describe('A range.');
    expect(Range.schema).toMatchObject({ description: 'A range.', 'x-kubernetes-validations': [{ rule: 'self.low <= self.high', message: 'low must not exceed high', fieldPath: '.low' }] });
    const result = decode(t.type({ range: Range.codec }), { range: { low: 2, high: 1 } });
    expect(isLeft(result) && result.left.message).toBe('range.low: low must not exceed high');
  });

  it('keeps a check only one side can state on that side', () => {
    const odd = f.integer().codecOnly((codec) => t.refinement(codec, (n) => n % 2 === 1, 'an odd integer'));
    expect(odd.schema).toEqual({ type: 'integer' });
    expect(odd.codec.is(2)).toBe(false);
    const int32 = f.integer().schemaOnly({ format: 'int32' });
    expect(int32.schema).toEqual({ type: 'integer', format: 'int32' });
    expect(int32.codec).toBe(t.Int);
  });

  it('words what a codec expects as told, keeping its checks', () => {
    const path = f.matching('^(/[^/]+)+$', 'a group path').says('a path like /a/b');
    expect(path.schema).toEqual({ type: 'string', pattern: '^(/[^/]+)+$' });
    const result = decode(t.type({ path: path.codec }), { path: 'a' });
    expect(isLeft(result) && result.left.message).toBe('path: expected a path like /a/b, got "a"');
    expect(path.codec.is('/a')).toBe(true);
  });

  it('gives a CEL rule\'s message from the codec too, at the field, with where', () => {
    const scope = f.nonEmpty().where({ rule: `!(self in ${f.celList(['email', 'profile'])})`, message: 'is built in' }, (name) => !['email', 'profile'].includes(name));
    expect(scope.schema).toEqual({ type: 'string', minLength: 1, 'x-kubernetes-validations': [{ rule: "!(self in ['email', 'profile'])", message: 'is built in' }] });
    const result = decode(t.type({ scope: scope.codec }), { scope: 'email' });
    expect(isLeft(result) && result.left.message).toBe('scope: is built in');
    expect(scope.codec.is('api')).toBe(true);
  });

  it('bounds a string in characters, as the API server counts them', () => {
    const note = f.string(2);
    expect(note.codec.is('\u{1F600}\u{1F600}')).toBe(true);
    const result = decode(t.type({ note: note.codec }), { note: 'abc' });
    expect(isLeft(result) && result.left.message).toBe('note: must have at most 2 characters');
  });

  it('makes fields alike but for their descriptions, one per key', () => {
    const flags = f.object(f.each({ enabled: 'Whether it is on.', hidden: 'Whether it is hidden.' }, f.boolean()));
    expect(flags.schema.properties).toEqual({ enabled: { type: 'boolean', description: 'Whether it is on.' }, hidden: { type: 'boolean', description: 'Whether it is hidden.' } });
    const value: t.TypeOf<typeof flags.codec> = { enabled: true };
    expect(flags.codec.is(value)).toBe(true);
  });

  it('tells a list map\'s items apart in the codec by what it is told, where that is stricter than the API server', () => {
    const domains = f.listMap('name', f.object({ name: f.text(20).required() }), { sameKey: (domain) => domain.name.toLowerCase() });
    expect(domains.schema['x-kubernetes-list-map-keys']).toEqual(['name']);
    const result = decode(t.type({ domains: domains.codec }), { domains: [{ name: 'a.org' }, { name: 'A.org' }] });
    expect(isLeft(result) && result.left.message).toBe('domains[1]: duplicate of domains[0] ("a.org")');
  });
});

describe('untyped fields and maps refusing keys', () => {
  it('still refuses a value a defaulted field refuses', () => {
    const Rotation = f.object({ enabled: f.withDefaultValue(f.boolean(), false), period: f.withDefaultValue(f.text(4), '90d'), zone: f.string() });
    const result = decode(t.type({ rotation: Rotation.codec }), { rotation: { period: 'too long' } });
    expect(isLeft(result) && result.left.message).toBe('rotation.period: expected a string of 1 to 4 characters, got "too long"');
  });

  it('leaves an untyped field to its codec', () => {
    const token = f.untyped(t.union([t.string, t.boolean])).describe('A token or a flag.');
    expect(token.schema).toEqual({ 'x-kubernetes-preserve-unknown-fields': true, description: 'A token or a flag.' });
    expect(token.codec.is(true)).toBe(true);
    expect(token.codec.is(1)).toBe(false);
  });

  it('refuses the keys a map must not state, in the codec and with a CEL rule', () => {
    const labels = f.stringMapWithout(['owner', 'a.b/c'], 'owner and a.b/c are the operator\'s');
    expect(labels.schema).toEqual({ type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-validations': [{ rule: '!(\'owner\' in self) && !(\'a.b/c\' in self)', message: 'owner and a.b/c are the operator\'s' }] });
    expect(isRight(labels.codec.decode({ team: 'x' }))).toBe(true);
    const result = decode(t.type({ labels: labels.codec }), { labels: { team: 'x', 'a.b/c': 'y' } });
    expect(isLeft(result) && result.left.message).toBe('labels: owner and a.b/c are the operator\'s');
    expect(labels.codec.is({ owner: 'x' })).toBe(false);
  });
});

describe('a field with a default, an integer in a range or of a few values, and a provider\'s object', () => {
  it('gives a codec and a schema that accept the same values', () => {
    for (const declared of [f.integerIn(-1, 3), f.integerOf([6, 8]), f.opaqueObject(), f.withDefaultValue(f.enumOf(['a', 'b']), 'a')]) {
      expectAgreement(declared);
    }
  });

  it('states the default in the schema, reads a field left out as it, and its object does not require it', () => {
    const Ref = f.object({ name: f.nonEmpty().required(), key: f.withDefaultValue(f.nonEmpty(), 'password').describe('Key.') });
    expect(Ref.schema).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1, default: 'password', description: 'Key.' } },
    });
    const read: { readonly name: string; readonly key: string } | undefined = ((result) => (isRight(result) ? result.right : undefined))(Ref.codec.decode({ name: 's' }));
    expect(read).toEqual({ name: 's', key: 'password' });
    expect(Ref.codec.decode({ name: 's', key: 'other' })).toEqual({ _tag: 'Right', right: { name: 's', key: 'other' } });
    expect(f.object({ on: f.withDefaultValue(f.boolean(), true) }).schema).toEqual({ type: 'object', properties: { on: { type: 'boolean', default: true } } });
  });

  it('bounds integers as the schema states and names the bounds in messages', () => {
    expect(f.integerIn(1, 5).schema).toEqual({ type: 'integer', minimum: 1, maximum: 5 });
    expect(f.integerOf([6, 8]).schema).toEqual({ type: 'integer', enum: [6, 8] });
    const messageFor = (declared: f.AnyField, value: unknown): string => {
      const result = decode(t.type({ n: declared.codec }), { n: value });
      return isLeft(result) ? result.left.message : 'accepted';
    };
    expect(messageFor(f.integerIn(1, 5), 0)).toBe('n: expected an integer from 1 to 5, got 0');
    expect(messageFor(f.integerOf([6, 8]), 7)).toBe('n: expected one of 6, 8, got 7');
  });

  it('keeps a provider\'s object as sent, and the schema tells the API server to keep its fields', () => {
    expect(f.opaqueObject().schema).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(f.opaqueObject().codec.decode({ a: { b: [1] } })).toEqual({ _tag: 'Right', right: { a: { b: [1] } } });
  });
});
