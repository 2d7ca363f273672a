/** The parts of an OpenAPI v3 schema that decide what the API server keeps of a value. */
export interface StructuralSchema {
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly items?: StructuralSchema;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/**
 * What the API server stores of `value` under a structural schema: object fields the schema does not name are
 * dropped (unless it preserves unknown fields), recursively. A status stated with a field that is pruned here
 * differs from its stored self forever, so a test that stores through this sees the patch every reconcile sends.
 */
export function pruneToSchema(value: unknown, schema: StructuralSchema): unknown {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return value;
  if (Array.isArray(value)) {
    const { items } = schema;
    return items === undefined ? value : value.map((item: unknown) => pruneToSchema(item, items));
  }
  if (typeof value !== 'object' || value === null) return value;
  const { properties, additionalProperties } = schema;
  if (properties === undefined && additionalProperties === undefined) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const fieldSchema = properties?.[key] ?? (typeof additionalProperties === 'object' ? additionalProperties : undefined);
    if (fieldSchema !== undefined) kept[key] = pruneToSchema(field, fieldSchema);
    else if (additionalProperties === true) kept[key] = field;
  }
  return kept;
}
