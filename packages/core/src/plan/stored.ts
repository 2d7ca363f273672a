import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DecodeFailure } from '../model/codec.js';
import type { KubeObject, ObjectMeta } from './kubernetes.js';

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
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string' },
    message: { type: 'string' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', format: 'int64' },
    severity: { type: 'string' },
  },
} as const;
