import * as t from 'io-ts';
import { atMost, boundedText, characterCount, integerInRange, withDefault, dateTime as dateTimeCodec, dateTimeSchema, kubernetesName as kubernetesNameCodec, minLengthString, patternedText, uniqueList, withRule } from './codec.js';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from './names.js';

// A spec field declared once: each combinator here gives the io-ts codec that reads the field and the OpenAPI
// schema a CRD states for it, so the two cannot drift apart. The static type of a field is its codec's
// (`t.TypeOf<typeof field.codec>`); a field's messages are those of the codec.ts building blocks it is made of.
//
//   const Mapper = object({
//     name: text(255).describe('The mapper\'s name.').required(),
//     config: stringMap().describe('The mapper\'s settings.'),
//   });
//   const Mappers = listMap('name', Mapper, { maxItems: 100 }).describe('Mappers, by name.');
//   Mappers.codec   // decodes a spec's list, naming the field of each problem
//   Mappers.schema  // the CRD's `type: array`, `x-kubernetes-list-type: map`, ... with each description
//
// Fields are optional in their object unless `.required()`. `.describe()` sets the schema's description,
// `.says()` words what the codec's messages say it expects, `.rule()` adds a CEL rule together with the codec
// check that says the same (`.where()` when the codec gives the rule's message), and `.codecOnly()` and
// `.schemaOnly()` add a check only one side can state (say why, next to it). `field()` pairs any codec with
// its schema where no combinator fits.

/** A CEL rule of a CRD field (`x-kubernetes-validations`). */
export interface CelRule {
  readonly rule: string;
  readonly message: string;
  readonly fieldPath?: string;
}

/** The OpenAPI v3 schema of a CRD field, as far as Keyward's CRDs use it. */
export interface FieldSchema {
  readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  readonly format?: string;
  readonly description?: string;
  readonly enum?: readonly (string | number)[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly items?: FieldSchema;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly additionalProperties?: FieldSchema;
  readonly oneOf?: readonly FieldSchema[];
  readonly not?: FieldSchema;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-validations'?: readonly CelRule[];
  /** The value the API server writes when the field is left out (see `withDefaultValue`). */
  readonly default?: unknown;
  /** An object whose fields the API server keeps as sent, unchecked. */
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** A codec and the schema that states the same rules; `R` says whether its object requires it. */
export class Field<out C extends t.Mixed, out R extends boolean = false> {
  constructor(
    readonly codec: C,
    readonly schema: FieldSchema,
    readonly isRequired: R,
  ) {}

  /** The field with `description` in its schema. */
  describe(description: string): Field<C, R> {
    return new Field(this.codec, { ...this.schema, description }, this.isRequired);
  }

  /** The field, required in its object. */
  required(): Field<C, true> {
    return new Field(this.codec, this.schema, true);
  }

  /** The field, its codec's messages saying what it expects in `expected` ("expected <expected>, got ..."). */
  says<A, O>(this: Field<t.Type<A, O>, R>, expected: string): Field<t.Type<A, O>, R> {
    const { codec } = this;
    return new Field(new t.Type<A, O>(expected, codec.is, codec.validate, codec.encode), this.schema, this.isRequired);
  }

  /** The field with a CEL rule, and `check`, the codec that refuses what the rule refuses (in words of its own). */
  rule<A, O>(rule: CelRule, check: (codec: C) => t.Type<A, O>): Field<t.Type<A, O>, R> {
    const rules = [...(this.schema['x-kubernetes-validations'] ?? []), rule];
    return new Field(check(this.codec), { ...this.schema, 'x-kubernetes-validations': rules }, this.isRequired);
  }

  /** The field with a CEL rule whose message the codec gives too, at this field, for a value `holds` says no to. */
  where<A, O>(this: Field<t.Type<A, O>, R>, rule: CelRule, holds: (value: A) => boolean): Field<t.Type<A, O>, R> {
    return this.rule(rule, (codec) => withRule(codec, holds, rule.message));
  }

  /** The field with a check of the codec only: one the schema cannot state (or not within the API server's cost budget). */
  codecOnly<A, O>(check: (codec: C) => t.Type<A, O>): Field<t.Type<A, O>, R> {
    return new Field(check(this.codec), this.schema, this.isRequired);
  }

  /** The field with schema keywords the codec checks in a way of its own (or, for a `format`, needs not). */
  schemaOnly(keywords: FieldSchema): Field<C, R> {
    return new Field(this.codec, { ...this.schema, ...keywords }, this.isRequired);
  }
}

/** A CEL list of `names` (plain names: no quote or backslash in them), for a rule such as `!(self in [...])`. */
export function celList(names: readonly string[]): string {
  return `[${names.map((name) => `'${name}'`).join(', ')}]`;
}

/** Any field: what an object's properties and a list's items are made of. */
export type AnyField = Field<t.Mixed, boolean>;

/** `codec`, with `schema` stating the same rules: for a field no combinator here describes. */
export function field<C extends t.Mixed>(codec: C, schema: FieldSchema): Field<C> {
  return new Field(codec, schema, false);
}

/** Any string. */
export function string(): Field<t.StringC>;
/** A string of at most `maxLength` characters, empty included. */
export function string(maxLength: number): Field<t.Type<string>>;
export function string(maxLength?: number): Field<t.Type<string>> {
  if (maxLength === undefined) return field(t.string, { type: 'string' });
  const fits = (text: string): boolean => characterCount(text) <= maxLength;
  return field(withRule(t.string, fits, `must have at most ${String(maxLength)} characters`), { type: 'string', maxLength });
}

export function boolean(): Field<t.BooleanC> {
  return field(t.boolean, { type: 'boolean' });
}

/** Any integer (branded `t.Int`, as io-ts reads it). */
export function integer(): Field<t.BrandC<t.NumberC, t.IntBrand>> {
  return field(t.Int, { type: 'integer' });
}

/** An integer of at least `minimum` (and at most `maximum`); `says` names it in messages. */
export function integerAtLeast(minimum: number, says: string, maximum?: number): Field<t.RefinementC<t.BrandC<t.NumberC, t.IntBrand>>> {
  const inRange = (n: number): boolean => n >= minimum && (maximum === undefined || n <= maximum);
  return field(t.refinement(t.Int, inRange, says), { type: 'integer', minimum, ...(maximum === undefined ? {} : { maximum }) });
}

/** A string of at least one character (a CRD's minLength 1). */
export function nonEmpty(): Field<t.Type<string>> {
  return field(minLengthString(1), { type: 'string', minLength: 1 });
}

/** A string of 1 to `max` characters. */
export function text(max: number): Field<t.Type<string>> {
  return field(boundedText(max), { type: 'string', minLength: 1, maxLength: max });
}

/** A string of 1 to `max` characters matching `pattern` (JavaScript and RE2 alike); `says` what it allows. */
export function patterned(max: number, pattern: string, says: string): Field<t.Type<string>> {
  return field(patternedText(max, pattern, says), { type: 'string', minLength: 1, maxLength: max, pattern });
}

/** A string matching `pattern` (JavaScript and RE2 alike), of any length; `says` what it allows, for messages. */
export function matching(pattern: string, says: string): Field<t.Type<string>> {
  const regex = new RegExp(pattern);
  const valid = (u: unknown): u is string => typeof u === 'string' && regex.test(u);
  return field(new t.Type<string>(says, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity), { type: 'string', pattern });
}

/** The name of a Kubernetes object (a DNS-1123 subdomain), such as a Secret's. */
export function kubernetesName(): Field<t.Type<string>> {
  return field(kubernetesNameCodec(), { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN });
}

/** An RFC 3339 timestamp (see `dateTimeSchema` for the rule the schema adds). */
export function dateTime(): Field<t.Type<string>> {
  return field(dateTimeCodec(), dateTimeSchema);
}

/** One of `values`; messages say `says`, "one of a, b" by default. */
export function enumOf<const V extends readonly [string, ...string[]]>(values: V, says = `one of ${values.join(', ')}`): Field<t.Type<V[number]>> {
  const allowed = new Set<string>(values);
  const valid = (u: unknown): u is V[number] => typeof u === 'string' && allowed.has(u);
  return field(new t.Type<V[number]>(says, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity), { type: 'string', enum: values });
}

/** An object whose every key maps to a `value`. */
export function record<C extends t.Mixed>(value: Field<C, boolean>): Field<t.RecordC<t.StringC, C>> {
  return field(t.record(t.string, value.codec), { type: 'object', additionalProperties: value.schema });
}

/** An object whose every key maps to a string: Keycloak's config maps. */
export function stringMap(): Field<t.RecordC<t.StringC, t.StringC>> {
  return record(string());
}

/** One field per key of `descriptions`, each `property` with that key's description: fields alike but for what they mean. */
export function each<K extends string, C extends t.Mixed>(descriptions: Readonly<Record<K, string>>, property: Field<C>): Record<K, Field<C>> {
  const entries = Object.entries<string>(descriptions).map(([key, description]) => [key, property.describe(description)] as const);
  // Object.fromEntries types its keys as string; they are the keys of `descriptions`.
  return Object.fromEntries(entries) as Record<K, Field<C>>;
}

type Props = Readonly<Record<string, AnyField>>;
type RequiredKeys<P extends Props> = { [K in keyof P]: P[K] extends Field<t.Mixed, true> ? K : never }[keyof P];
type OptionalKeys<P extends Props> = Exclude<keyof P, RequiredKeys<P>>;
type CodecsOf<P extends Props, K extends keyof P> = { [Q in K]: P[Q] extends Field<infer C, boolean> ? C : never };

/** The io-ts codec of an object of `P`: `t.type` of its required fields, `t.partial` of the others. */
export type ObjectCodec<P extends Props> = [RequiredKeys<P>] extends [never] ? t.PartialC<CodecsOf<P, OptionalKeys<P>>>
  : [OptionalKeys<P>] extends [never] ? t.TypeC<CodecsOf<P, RequiredKeys<P>>>
    : t.IntersectionC<[t.TypeC<CodecsOf<P, RequiredKeys<P>>>, t.PartialC<CodecsOf<P, OptionalKeys<P>>>]>;

function codecs(entries: readonly (readonly [string, AnyField])[]): t.Props {
  return Object.fromEntries(entries.map(([key, property]) => [key, property.codec]));
}

/** An object of `props`, in their order: its codec is `ObjectCodec`, its schema lists the required ones. */
export function object<P extends Props>(props: P): Field<ObjectCodec<P>> {
  const entries = Object.entries(props);
  const required = entries.filter(([, property]) => property.isRequired);
  const optional = entries.filter(([, property]) => !property.isRequired);
  const codec: t.Mixed = required.length === 0 ? t.partial(codecs(optional))
    : optional.length === 0 ? t.type(codecs(required))
      : t.intersection([t.type(codecs(required)), t.partial(codecs(optional))]);
  // A field with a default is there once the API server has written it: the schema need not require it.
  const stated = required.filter(([, property]) => property.schema.default === undefined);
  const schema: FieldSchema = {
    type: 'object',
    ...(stated.length === 0 ? {} : { required: stated.map(([key]) => key) }),
    properties: Object.fromEntries(entries.map(([key, property]) => [key, property.schema])),
  };
  // The codec is the one ObjectCodec<P> names, built key by key, which TypeScript cannot follow through
  // Object.fromEntries.
  return field(codec as ObjectCodec<P>, schema);
}

export interface ListOptions {
  /** The API server's maxItems; the codec checks it after the items and their repeats. */
  readonly maxItems?: number;
}

export interface ListMapOptions<A> extends ListOptions {
  /**
   * What the codec tells items apart by, where it is stricter than the API server's exact comparison of the
   * key (a domain name in any case, say); the key itself by default.
   */
  readonly sameKey?: (item: A) => unknown;
}

function bounded<A, O>(list: t.Type<A[], O[]>, schema: FieldSchema, options: ListOptions): Field<t.Type<A[], O[]>> {
  if (options.maxItems === undefined) return field(list, schema);
  return field(atMost(list, options.maxItems), { ...schema, maxItems: options.maxItems });
}

/** A list of `item`s (an atomic list to server-side apply). */
export function list<A, O>(item: Field<t.Type<A, O>, boolean>, options: ListOptions = {}): Field<t.Type<A[], O[]>> {
  return bounded(t.array(item.codec), { type: 'array', items: item.schema }, options);
}

/** A list of `item`s, none twice (`x-kubernetes-list-type: set`). */
export function set<A, O>(item: Field<t.Type<A, O>, boolean>, options: ListOptions = {}): Field<t.Type<A[], O[]>> {
  return bounded(uniqueList(t.array(item.codec)), { type: 'array', items: item.schema, 'x-kubernetes-list-type': 'set' }, options);
}

/**
 * A list of objects told apart by their `key` field, which they require (`x-kubernetes-list-type: map`):
 * server-side apply merges them item by item, and no key is given twice.
 */
export function listMap<K extends string, A extends Readonly<Record<K, unknown>>, O>(key: K, item: Field<t.Type<A, O>, boolean>, options: ListMapOptions<A> = {}): Field<t.Type<A[], O[]>> {
  const schema: FieldSchema = { type: 'array', items: item.schema, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [key] };
  return bounded(uniqueList(t.array(item.codec), options.sameKey ?? ((value) => value[key])), schema, options);
}

// ---------------------------------------------------------------------------------------------------------------
// Untyped fields and maps refusing keys (the KeycloakClient spec).

/**
 * A field the schema leaves untyped (`x-kubernetes-preserve-unknown-fields`): for a value of more than one
 * type, which a structural schema cannot state; `codec` alone says what it may be.
 */
export function untyped<C extends t.Mixed>(codec: C): Field<C> {
  return field(codec, { 'x-kubernetes-preserve-unknown-fields': true });
}

/**
 * A map of `value`s that must not state any of `keys`, refused with `message` (the keys are ones the operator
 * writes); `says` is what a message calls such a map. The API server refuses them too, unless `value` is
 * untyped: its CEL cannot declare a map of untyped values (it refuses the CRD), so the codec alone does then.
 */
export function recordWithout<A, O>(value: Field<t.Type<A, O>, boolean>, keys: readonly [string, ...string[]], message: string, says: string): Field<t.Type<Record<string, A>, Record<string, O>>> {
  const map = t.record(t.string, value.codec);
  const stated = (decoded: Readonly<Record<string, unknown>>): boolean => keys.some((key) => key in decoded);
  const codec = new t.Type<Record<string, A>, Record<string, O>>(
    says,
    (u): u is Record<string, A> => map.is(u) && !stated(u),
    (u, c) => {
      const decoded = map.validate(u, c);
      return decoded._tag === 'Left' || !stated(decoded.right) ? decoded : t.failure(u, c, message);
    },
    map.encode,
  );
  const rule = { rule: keys.map((key) => `!('${key}' in self)`).join(' && '), message };
  const rules = value.schema.type === undefined ? {} : { 'x-kubernetes-validations': [rule] };
  return field(codec, { type: 'object', additionalProperties: value.schema, ...rules });
}

/** A map of strings that must not state any of `keys`, refused with `message` (the keys are ones the operator writes). */
export function stringMapWithout(keys: readonly [string, ...string[]], message: string): Field<t.Type<Record<string, string>>> {
  return recordWithout(string(), keys, message, 'a map of strings');
}

// ---------------------------------------------------------------------------------------------------------------
// Defaults, integers in a range and fields whose content another party checks (the realm's top-level spec).

/**
 * `inner`, or `value` when it is left out: the schema's `default` (the API server writes it) and the codec's
 * (it reads a spec the API server has not defaulted, as a test's, alike). Its decoded value is always there, so
 * the field counts as required in its object's codec; its schema does not require it.
 */
export function withDefaultValue<C extends t.Mixed>(inner: Field<C, boolean>, value: t.TypeOf<C>): Field<t.Type<t.TypeOf<C>, t.OutputOf<C>>, true> {
  return new Field(withDefault(inner.codec, value), { ...inner.schema, default: value }, true);
}

/** An integer from `minimum` to `maximum`, read as a plain number (unbranded, so a literal spec types as is). */
export function integerIn(minimum: number, maximum: number): Field<t.Type<number>> {
  return field(integerInRange(minimum, maximum), { type: 'integer', minimum, maximum });
}

/** An integer that is one of `values`. */
export function integerOf(values: readonly number[]): Field<t.Type<number>> {
  const valid = (u: unknown): u is number => typeof u === 'number' && values.includes(u);
  return field(new t.Type<number>(`one of ${values.join(', ')}`, valid, (u, c) => (valid(u) ? t.success(u) : t.failure(u, c)), t.identity), { type: 'integer', enum: values });
}

/** A JSON object whose shape another party defines and checks (a Keycloak provider's configuration). */
export function opaqueObject(): Field<t.UnknownRecordC> {
  return field(t.UnknownRecord, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
}
