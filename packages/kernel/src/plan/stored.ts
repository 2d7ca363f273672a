import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decode, type DecodeFailure } from '../model/codec.js';
import type { ResourceType } from '../model/refs.js';
import type { KubeObject, ObjectMeta } from '../apis/kubernetes/actions.js';

/** Metadata of a namespaced object as the API server stores it: what reconcilers rely on is present. */
export interface StoredMeta extends ObjectMeta {
  readonly namespace: string;
  readonly uid: string;
  readonly generation: number;
  readonly resourceVersion: string;
}

/** The stored metadata of an object read from the API server, or why it is not one. */
export function storedMeta(object: KubeObject): Either<DecodeFailure, StoredMeta> {
  const { metadata } = object;
  if (metadata.namespace === undefined || metadata.uid === undefined) {
    return left({ message: 'metadata: namespace and uid are required', problems: [{ path: 'metadata', message: 'namespace and uid are required' }] });
  }
  return right({ ...metadata, namespace: metadata.namespace, uid: metadata.uid, generation: metadata.generation ?? 0, resourceVersion: metadata.resourceVersion ?? '' });
}

/**
 * The OpenAPI schema of a metav1.Condition, for CRDs, plus the optional `severity` of openstack-k8s-operators'
 * conditions, so conditions those operators wrote survive schema pruning.
 */
export const conditionSchema = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string', description: 'What the condition is about, in CamelCase (Ready).' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'], description: 'Whether the condition holds: True, False or Unknown (not known yet).' },
    reason: { type: 'string', description: 'Why the status is what it is, one CamelCase word for programs and alerts to match on.' },
    message: { type: 'string', description: 'Why the status is what it is, for people; never holds a password or key.' },
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'When the status last changed (RFC 3339); a new reason or message alone keeps it.' },
    observedGeneration: { type: 'integer', format: 'int64', description: 'The metadata.generation of the object (its spec) the condition was set for.' },
    severity: { type: 'string', description: 'How bad a False condition is (Error, Warning, Info), as openstack-k8s-operators write it; kept, never written by Keyward.' },
  },
} as const;

/**
 * Decodes an object read from the API server: its spec through `spec` (validation and defaults, a Left names
 * the field), its metadata as stored, and its status through a lenient reader (status is written by
 * controllers, and sometimes by other ones).
 */
export function decodeStored<Spec, Status>(
  object: KubeObject,
  spec: t.Type<Spec, unknown>,
  readStatus: (raw: unknown) => Status,
): Either<DecodeFailure, KubeObject & { readonly metadata: StoredMeta; readonly spec: Spec; readonly status: Status }> {
  const decoded = decode(t.type({ spec }), object);
  if (isLeft(decoded)) return decoded;
  const metadata = storedMeta(object);
  if (isLeft(metadata)) return metadata;
  const { spec: decodedSpec } = decoded.right as { readonly spec: Spec };
  return right({ ...object, metadata: metadata.right, spec: decodedSpec, status: readStatus(object['status']) });
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
}

/** A printer column showing one field (`status` by default) of the condition of type `condition`. */
export function conditionColumn(name: string, condition: string, field: 'status' | 'reason' | 'message' = 'status'): PrinterColumn {
  return { name, type: 'string', jsonPath: `.status.conditions[?(@.type=="${condition}")].${field}` };
}

/** kubectl's own Age column, which custom printer columns would otherwise replace. */
const AGE_COLUMN: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/**
 * A CustomResourceDefinition with one served and stored version and a status subresource. Printer columns
 * end with Age unless they name one themselves.
 */
export function namespacedCrd(options: {
  readonly type: ResourceType;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly printerColumns?: readonly PrinterColumn[];
  /**
   * The OpenAPI schemas of spec and status; the object envelope (apiVersion, kind, metadata) is added here.
   * `required: ['spec']` makes the API server refuse an object without a spec, as a codec that needs one does.
   */
  readonly schema: { readonly description?: string; readonly required?: readonly 'spec'[]; readonly spec: object; readonly status: object };
}) {
  const { type } = options;
  const columns = options.printerColumns?.some((column) => column.name === 'Age') === false ? [...options.printerColumns, AGE_COLUMN] : options.printerColumns;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${type.plural}.${type.group}` },
    spec: {
      group: type.group,
      scope: 'Namespaced',
      names: {
        kind: type.kind,
        listKind: `${type.kind}List`,
        plural: type.plural,
        singular: options.singular,
        ...(options.shortNames === undefined ? {} : { shortNames: options.shortNames }),
      },
      versions: [
        {
          name: type.version,
          served: true,
          storage: true,
          subresources: { status: {} },
          ...(columns === undefined ? {} : { additionalPrinterColumns: columns }),
          schema: {
            openAPIV3Schema: {
              type: 'object',
              ...(options.schema.description === undefined ? {} : { description: options.schema.description }),
              ...(options.schema.required === undefined ? {} : { required: options.schema.required }),
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: options.schema.spec,
                status: options.schema.status,
              },
            },
          },
        },
      ],
    },
  } as const;
}
