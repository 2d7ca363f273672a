// Whether a CRD and the codec that reads its objects give the same verdict on the same spec, fuzzed: one field
// of a valid spec at a time is given a value of the wrong type or a near miss of its own, and the API server's
// own validation decides. What the server stores, the codec must read; what it refuses, the codec must refuse.
import fc from 'fast-check';
import type { KubeConfig } from '@kubernetes/client-node';
import { sendJson } from './raw-json.js';

/** The part of an OpenAPI schema the fuzzing reads. */
interface Schema {
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
}

/** A CRD (as its module defines it) and what the codec says of an object of it. */
export interface CrdCodecSubject {
  readonly crd: object;
  /** A spec both accept; each case changes one field of it. */
  readonly validSpec: Readonly<Record<string, unknown>>;
  /** The codec's verdict on an object as the API server would hand it over (metadata with uid and generation). */
  readonly decodes: (object: Readonly<Record<string, unknown>>) => boolean;
}

export interface Disagreement {
  readonly path: string;
  readonly value: unknown;
  /** 'stored', or the API server's refusal. */
  readonly server: string;
  readonly codec: 'accepts' | 'refuses';
}

interface Served {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly spec: Schema;
}

function served(crd: object): Served {
  const { spec } = crd as { spec: { group: string; names: { plural: string; kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] } };
  const version = spec.versions[0];
  const specSchema = version?.schema.openAPIV3Schema.properties?.['spec'];
  if (version === undefined || specSchema === undefined) throw new Error('the CRD serves no version with a spec schema');
  return { group: spec.group, version: version.name, plural: spec.names.plural, kind: spec.names.kind, spec: specSchema };
}

/** Every field below the spec, with its schema; a list's items as its first element. */
function fields(schema: Schema, path: readonly (string | number)[] = []): { path: readonly (string | number)[]; schema: Schema }[] {
  const own = path.length === 0 ? [] : [{ path, schema }];
  if (schema.type === 'array' && schema.items !== undefined) return [...own, ...fields(schema.items, [...path, 0])];
  return [...own, ...Object.entries(schema.properties ?? {}).flatMap(([key, inner]) => fields(inner, [...path, key]))];
}

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant([]),
  fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** A timestamp and its near misses: the case of T and Z, the fraction's separator, the zone, text after it. */
const dateTimeLike: fc.Arbitrary<string> = fc
  .record({
    date: fc.constantFrom('2030-01-31', '2028-02-29', '2030-02-29', '0000-02-29', '2030-13-01'),
    t: fc.constantFrom('T', 't', ' '),
    time: fc.constantFrom('12:00:00', '23:59:59', '24:00:00', '12:60:00'),
    fraction: fc.constantFrom('', '.5', ',123456', 'x5', '.'),
    zone: fc.constantFrom('Z', 'z', '+01:00', '-24:60', '+25:00', '+01:61', '+0100', ''),
    rest: fc.constantFrom('', '', 'Tlater', ' '),
  })
  .map(({ date, t, time, fraction, zone, rest }) => `${date}${t}${time}${fraction}${zone}${rest}`);

/** Values near what `schema` takes: its own kind of value, at and beyond its bounds. */
function nearMiss(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.format === 'date-time') return dateTimeLike;
  if (schema.enum !== undefined) return fc.oneof(fc.constantFrom(...schema.enum), fc.string({ maxLength: 6 }));
  if (schema.type === 'string') return fc.string({ unit: 'binary', maxLength: (schema.maxLength ?? 20) + 2 });
  if (schema.type === 'integer') return fc.integer({ min: (schema.minimum ?? -10) - 2, max: Math.min((schema.maximum ?? 1000) + 2, Number.MAX_SAFE_INTEGER) });
  if (schema.type === 'boolean') return fc.boolean();
  return anyJson;
}

function withValue(spec: Readonly<Record<string, unknown>>, path: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(spec) as Record<string, unknown>;
  let node: Record<string | number, unknown> = copy;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    const container = typeof next === 'object' && next !== null ? next : typeof path[index + 1] === 'number' ? [] : {};
    node[key] = container;
    node = container as Record<string | number, unknown>;
  });
  return copy;
}

const written = (path: readonly (string | number)[]): string => `spec${path.map((key) => (typeof key === 'number' ? `[${String(key)}]` : `.${key}`)).join('')}`;

/**
 * Creates `runs` objects in `namespace`, each the valid spec with one field changed (seeded, so a run can be
 * repeated), and returns every case where the API server and the codec disagree.
 */
export async function crdCodecDisagreements(config: KubeConfig, namespace: string, subject: CrdCodecSubject, options: { readonly runs: number; readonly seed: number }): Promise<Disagreement[]> {
  const crd = served(subject.crd);
  const targets = fields(crd.spec);
  const cases = fc.sample(
    fc.constantFrom(...targets).chain((target) => fc.record({ path: fc.constant(target.path), value: fc.oneof(anyJson, nearMiss(target.schema)) })),
    { numRuns: options.runs, seed: options.seed },
  );
  const disagreements: Disagreement[] = [];
  for (const [index, { path, value }] of cases.entries()) {
    const name = `agreement-${String(index)}`;
    const object = { apiVersion: `${crd.group}/${crd.version}`, kind: crd.kind, metadata: { name, namespace }, spec: withValue(subject.validSpec, path, value) };
    const answer = await sendJson(config, 'POST', `/apis/${crd.group}/${crd.version}/namespaces/${namespace}/${crd.plural}`, JSON.stringify(object));
    if (answer.status === 201) {
      if (!subject.decodes(answer.body as Record<string, unknown>)) disagreements.push({ path: written(path), value, server: 'stored', codec: 'refuses' });
    } else if (answer.status === 422 || answer.status === 400) {
      if (subject.decodes({ ...object, metadata: { ...object.metadata, uid: 'u', generation: 1 } })) {
        disagreements.push({ path: written(path), value, server: (answer.body as { message?: string }).message ?? String(answer.status), codec: 'accepts' });
      }
    } else {
      throw new Error(`the API server answered ${String(answer.status)} to ${written(path)} = ${JSON.stringify(value)}`);
    }
  }
  return disagreements;
}
