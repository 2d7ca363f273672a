// The fields of the CRDs in deploy/crds, read from the manifests as the API server and `kubectl explain` see them.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The part of an OpenAPI schema that holds fields. */
export interface FieldSchema {
  readonly description?: string;
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly items?: FieldSchema;
  readonly additionalProperties?: FieldSchema | boolean;
}

export interface Field {
  /** As `kubectl explain` names it: dotted from the top of the object, list items not counted (spec.middleware.name). */
  readonly path: string;
  readonly schema: FieldSchema;
}

interface CrdManifest {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly versions: readonly { readonly name: string; readonly schema: { readonly openAPIV3Schema: FieldSchema } }[] };
}

const folder = new URL('../../deploy/crds/', import.meta.url);

/** Every CRD in deploy/crds, by its name. */
export function deployedCrds(): CrdManifest[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .map((file) => parse(readFileSync(new URL(file, folder), 'utf8')) as CrdManifest);
}

/** The fields below `schema`, at every depth: those of its objects, of its lists' items and of its maps' values. */
export function fieldsBelow(schema: FieldSchema, path: string): Field[] {
  const nested = [schema.items, typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined].filter((inner) => inner !== undefined);
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, field]) => [{ path: `${path}.${name}`, schema: field }, ...fieldsBelow(field, `${path}.${name}`)]),
    ...nested.flatMap((inner) => fieldsBelow(inner, path)),
  ];
}

/** spec and status of a CRD's versions, and every field below them. */
export function specAndStatusFields(crd: CrdManifest): Field[] {
  return crd.spec.versions.flatMap(({ schema }) =>
    (['spec', 'status'] as const).flatMap((top) => {
      const field = schema.openAPIV3Schema.properties?.[top];
      return field === undefined ? [] : [{ path: top, schema: field }, ...fieldsBelow(field, top)];
    }),
  );
}
