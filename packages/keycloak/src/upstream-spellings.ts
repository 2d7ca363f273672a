import * as t from 'io-ts';

// The Kopf-based keycloak-operator spells some fields of its KeycloakRealm and KeycloakClient otherwise than
// Keyward, or has fields Keyward has no use for. Its manifests must apply unchanged, so each kind declares a
// table of those spellings: the CRD schema accepts the upstream field with the schema of the field it means,
// the codec moves its value there before decoding, and the object's Ready message names what it read. Where
// the shape differs beyond a name, a kind also lists shapes: readers of the whole spec, run after the spellings.

/** One field of the Kopf operator's CRD that Keyward spells otherwise, or accepts and does not act on. */
export interface UpstreamSpelling {
  /**
   * Where the Kopf operator's manifests have it, dotted below `spec` (`security.maxFailureWait`); `list[].field`
   * is a field of each item of a list, and its Keyward field is then one of the same items.
   */
  readonly upstream: string;
  /** Keyward's field it means, dotted below `spec`; absent when Keyward accepts it and has nothing to do with it. */
  readonly keyward?: string;
  /** For a field Keyward does not act on: why (said in the Ready message, and in the schema's description). */
  readonly ignoredBecause?: string;
  /** Its schema when it has no Keyward field to take the schema from. */
  readonly schema?: object;
}

/** A field of the Kopf operator's that Keyward accepts and does not act on, of a JSON `type` (or a schema), and why. */
export const ignoredField = (upstream: string, type: 'string' | 'boolean' | object, ignoredBecause: string): UpstreamSpelling =>
  ({ upstream, ignoredBecause, schema: typeof type === 'string' ? { type } : type });

/**
 * A part of the Kopf operator's CRD shaped otherwise than Keyward's, beyond a field's name (its sub-flows listed
 * beside its flows, say): read into Keyward's shape by a function of the whole spec, after the spellings.
 */
export interface UpstreamShape {
  /** What the Ready message says when a spec has it. */
  readonly note: string;
  /**
   * `spec` in Keyward's shape (a copy), or what is wrong with it, named within the spec's context `c`
   * (`contextAt`); undefined when the spec has none of this shape.
   */
  readonly read: (spec: Readonly<Record<string, unknown>>, c: t.Context) => t.Validation<Record<string, unknown>> | undefined;
  /** The spec's schema, accepting the Kopf operator's fields as well. */
  readonly schema: <S extends object>(spec: S) => S;
}

/** The context `c` continued by `keys` below it; each entry has a value of its own, so an index reads as one. */
export const contextAt = (c: t.Context, keys: readonly (string | number)[]): t.Context =>
  [...c, ...keys.map((key) => ({ key: String(key), type: t.unknown, actual: String(key) }))];

/** What decoding read in the Kopf operator's spellings, for the Ready message; absent when nothing. */
export interface UpstreamSpellingNotes {
  readonly upstreamSpellings?: readonly string[];
}

/** A JSON object as a spec holds it. */
export type Fields = Record<string, unknown>;

/** Whether a spec's value is an object (not a list, not null). */
export const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object at `path` of `root`, made (as copies) along the way when `create`; undefined when one is not an object. */
function parentOf(root: Fields, path: readonly string[], create: boolean): Fields | undefined {
  let node = root;
  for (const key of path) {
    const next = node[key];
    if (!isFields(next)) {
      if (!create || next !== undefined) return undefined;
      node[key] = {};
    } else {
      node[key] = { ...next };
    }
    node = node[key] as Fields;
  }
  return node;
}

const split = (path: string): { readonly parent: string[]; readonly key: string } => {
  const parts = path.split('.');
  return { parent: parts.slice(0, -1), key: parts[parts.length - 1] ?? path };
};

/** The note a spelling gives when a spec used it. */
export function upstreamNote(spelling: UpstreamSpelling): string {
  return spelling.keyward === undefined ? `${spelling.upstream} has no effect (${spelling.ignoredBecause ?? 'Keyward does not use it'})` : `${spelling.upstream} is read as ${spelling.keyward}`;
}

/**
 * The message when a spec states both spellings of one field: refused when they differ, and always for a list
 * or an object (the API server's CEL cannot compare two of them, whose schemas are distinct types).
 */
export const bothSpellingsMessage = (spelling: UpstreamSpelling, scalar: boolean): string =>
  `${spelling.upstream} and ${spelling.keyward ?? ''} are the same field (the first is the Kopf operator's spelling)${scalar ? ' and differ' : ''}: state one of them`;

const isScalar = (value: unknown): boolean => typeof value !== 'object' || value === null;

interface Conflict {
  readonly conflict: UpstreamSpelling;
  readonly scalar: boolean;
  /** Where the upstream field is, when it is in a list's item (`realmRoles`, `1`, `compositeRoles`). */
  readonly at?: readonly string[];
}
type Read = { readonly spec: Fields; readonly notes: string[] } | Conflict;

const ITEMS = '[].';

/** For a spelling of a field of a list's items: the list's path, and the spelling within one item. */
function itemsOf(spelling: UpstreamSpelling): { readonly list: string; readonly inItem: UpstreamSpelling } | undefined {
  const at = spelling.upstream.indexOf(ITEMS);
  if (at < 0) return undefined;
  const list = spelling.upstream.slice(0, at);
  const within = (path: string): string => path.slice(list.length + ITEMS.length);
  return { list, inItem: { ...spelling, upstream: within(spelling.upstream), ...(spelling.keyward === undefined ? {} : { keyward: within(spelling.keyward) }) } };
}

/** Each item of the list at `list` in Keyward's spelling (in place, in the copy `spec`); whether any item had it. */
function readItems(spec: Fields, { list, inItem }: { readonly list: string; readonly inItem: UpstreamSpelling }): { readonly moved: boolean } | Conflict | undefined {
  const { parent, key } = split(list);
  const holder = parentOf(spec, parent, false);
  const items: unknown = holder?.[key];
  if (holder === undefined || !Array.isArray(items)) return undefined;
  let moved = false;
  const read: unknown[] = [];
  for (const [index, item] of (items as readonly unknown[]).entries()) {
    const one = isFields(item) ? toKeywardSpelling(item, [inItem]) : { spec: item, notes: [] };
    if ('conflict' in one) return { ...one, at: [...list.split('.'), String(index), ...inItem.upstream.split('.')] };
    moved ||= one.notes.length > 0;
    read.push(one.spec);
  }
  holder[key] = read;
  return { moved };
}

/**
 * `spec` in Keyward's spellings: each upstream field it states moved to Keyward's field (or dropped, when
 * Keyward does not use it), with the notes of what was read. A field stated in both spellings with different
 * values is a problem naming both.
 */
export function toKeywardSpelling(spec: Fields, spellings: readonly UpstreamSpelling[]): Read {
  const result: Fields = { ...spec };
  const notes: string[] = [];
  for (const spelling of spellings) {
    const inItems = itemsOf(spelling);
    if (inItems !== undefined) {
      const read = readItems(result, inItems);
      if (read !== undefined && 'conflict' in read) return { ...read, conflict: spelling };
      if (read?.moved === true) notes.push(upstreamNote(spelling));
      continue;
    }
    const from = split(spelling.upstream);
    const source = parentOf(result, from.parent, false);
    if (source === undefined || !(from.key in source)) continue;
    const value = source[from.key];
    Reflect.deleteProperty(source, from.key);
    notes.push(upstreamNote(spelling));
    if (spelling.keyward === undefined) continue;
    const to = split(spelling.keyward);
    const target = parentOf(result, to.parent, true);
    // Keyward's field holds something else there (a list where the upstream field goes into an object): both stated.
    if (target === undefined) return { conflict: spelling, scalar: false };
    if (to.key in target && (!isScalar(value) || target[to.key] !== value)) return { conflict: spelling, scalar: isScalar(value) };
    target[to.key] = value;
  }
  return { spec: result, notes };
}

/** `spec` with each of `shapes` read into Keyward's shape, with the notes of what was read. */
function toKeywardShape(spec: Fields, notes: readonly string[], shapes: readonly UpstreamShape[], c: t.Context): t.Validation<{ readonly spec: Fields; readonly notes: readonly string[] }> {
  let read = { spec, notes };
  for (const shape of shapes) {
    const next = shape.read(read.spec, c);
    if (next === undefined) continue;
    if (next._tag === 'Left') return next;
    read = { spec: next.right, notes: [...read.notes, shape.note] };
  }
  return t.success(read);
}

/** `codec`, reading the upstream spellings and then shapes first; what it read is in `upstreamSpellings`. */
export function acceptingUpstreamSpellings<A extends object>(codec: t.Type<A, unknown>, spellings: readonly UpstreamSpelling[], shapes: readonly UpstreamShape[] = []): t.Type<A & UpstreamSpellingNotes, unknown> {
  return new t.Type<A & UpstreamSpellingNotes, unknown>(
    codec.name,
    (u): u is A & UpstreamSpellingNotes => codec.is(u),
    (u, c): t.Validation<A & UpstreamSpellingNotes> => {
      const spelled = isFields(u) ? toKeywardSpelling(u, spellings) : { spec: u, notes: [] };
      if ('conflict' in spelled) {
        return t.failure(u, contextAt(c, spelled.at ?? spelled.conflict.upstream.split('.')), bothSpellingsMessage(spelled.conflict, spelled.scalar));
      }
      const shaped = isFields(spelled.spec) ? toKeywardShape(spelled.spec, spelled.notes, shapes, c) : t.success(spelled);
      if (shaped._tag === 'Left') return shaped;
      const read = shaped.right;
      // The context holds the value decoded, so that messages name the fields inside it as the API server does.
      const last = c[c.length - 1];
      const decoded = codec.validate(read.spec, last === undefined ? c : [...c.slice(0, -1), { ...last, actual: read.spec }]);
      if (decoded._tag === 'Left') return decoded;
      // A spec decodes to an object; the notes ride along with it.
      const spec: A & UpstreamSpellingNotes = read.notes.length === 0 ? decoded.right : { ...decoded.right, upstreamSpellings: read.notes };
      return t.success(spec);
    },
    (a) => {
      const { upstreamSpellings: _notes, ...spec } = a as A & UpstreamSpellingNotes & Fields;
      return codec.encode(spec as A);
    },
  );
}

type Schema = Readonly<Record<string, unknown>> & { readonly properties?: Readonly<Record<string, Schema>>; readonly description?: string };

function schemaAt(schema: Schema, path: readonly string[]): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const key of path) node = node?.properties?.[key];
  return node;
}

function withProperty(schema: Schema, path: readonly string[], key: string, property: Schema): Schema {
  const [head, ...rest] = path;
  const properties = schema.properties ?? {};
  if (head === undefined) return { ...schema, properties: { ...properties, [key]: property } };
  // An object only the Kopf operator has (its `roles`) holds nothing but upstream spellings.
  const child = properties[head] ?? { type: 'object', description: 'Holds fields in the Kopf operator\'s spelling.' };
  return { ...schema, properties: { ...properties, [head]: withProperty(child, rest, key, property) } };
}

/** CEL: every object on the way to `path` (dotted, below self) and the field itself are there. */
const presence = (path: string): string => path.split('.').map((_, index, keys) => `has(self.${keys.slice(0, index + 1).join('.')})`).join(' && ');

/** The API server's side of the codec's refusal: both spellings stated, with different values. */
function sameValueRule(spelling: UpstreamSpelling & { readonly keyward: string }, scalar: boolean): object {
  const both = `${presence(spelling.upstream)} && ${presence(spelling.keyward)}`;
  return {
    rule: scalar ? `!(${both}) || self.${spelling.upstream} == self.${spelling.keyward}` : `!(${both})`,
    message: bothSpellingsMessage(spelling, scalar),
    fieldPath: `.${spelling.upstream}`,
  };
}

/** `schema` with the items of its list at `path` made by `items`. */
function withItems(schema: Schema, path: readonly string[], items: (schema: Schema) => Schema): Schema {
  const [head, ...rest] = path;
  if (head === undefined) return { ...schema, items: items(schema['items'] as Schema) };
  const child = schema.properties?.[head];
  if (child === undefined) throw new Error(`no list at ${path.join('.')} for an upstream spelling of its items`);
  return { ...schema, properties: { ...schema.properties, [head]: withItems(child, rest, items) } };
}

/**
 * The spec's schema with each upstream field, described as what it means, refusing both spellings that differ.
 * The fields of a list's items come first, so that a list the Kopf operator spells otherwise has them too.
 */
export function withUpstreamSpellingSchemas<S extends object>(spec: S, spellings: readonly UpstreamSpelling[], shapes: readonly UpstreamShape[] = []): S {
  let schema = shapes.reduce((each, shape) => shape.schema(each), spec as Schema);
  for (const spelling of spellings) {
    const inItems = itemsOf(spelling);
    if (inItems !== undefined) schema = withItems(schema, inItems.list.split('.'), (items) => withUpstreamSpellingSchemas(items, [inItems.inItem]));
  }
  const ofSpec = spellings.filter((each) => itemsOf(each) === undefined);
  for (const spelling of ofSpec) {
    const from = split(spelling.upstream);
    const meant = spelling.keyward === undefined ? undefined : schemaAt(schema, spelling.keyward.split('.'));
    const base = spelling.schema ?? meant;
    if (base === undefined) throw new Error(`no schema for the upstream spelling ${spelling.upstream}`);
    const description = spelling.keyward === undefined
      ? `Accepted from the Kopf operator's manifests and not used: ${spelling.ignoredBecause ?? ''}.`
      : `The Kopf operator's spelling of ${spelling.keyward}, read as that field (stating both with different values is refused).${meant?.description === undefined ? '' : ` ${meant.description}`}`;
    schema = withProperty(schema, from.parent, from.key, { ...base, description });
  }
  const rules = ofSpec.flatMap(({ keyward, ...spelling }) => {
    if (keyward === undefined) return [];
    const type = schemaAt(schema, keyward.split('.'))?.['type'];
    // The API server's CEL cannot read an untyped field (one of two shapes, such as defaultRoles): the codec alone refuses both.
    if (type === undefined) return [];
    return [sameValueRule({ ...spelling, keyward }, type !== 'object' && type !== 'array')];
  });
  if (rules.length === 0) return schema as S;
  const existing = (schema['x-kubernetes-validations'] ?? []) as readonly object[];
  return { ...schema, 'x-kubernetes-validations': [...existing, ...rules] } as S;
}

/** The note for a Ready message: what the spec said in the Kopf operator's spellings, or nothing. */
export function upstreamSpellingsNote(spec: UpstreamSpellingNotes): string {
  const notes = spec.upstreamSpellings ?? [];
  return notes.length === 0 ? '' : `; in the Kopf operator's spellings: ${notes.join(', ')}`;
}
