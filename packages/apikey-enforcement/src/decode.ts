import type { Either } from 'fp-ts/lib/Either.js';
import { decodeStored } from '@keyward/kernel/plan';
import { type Condition, type KubeObject } from '@keyward/kernel';
import { type DecodeFailure } from '@keyward/kernel/model';
import { SpecCodec, type APIKey } from './api.js';

function conditionsOf(status: unknown): Condition[] {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? conditions.filter((c): c is Condition => typeof c === 'object' && c !== null && typeof (c as { type?: unknown }).type === 'string') : [];
}

/** Validates an APIKey read from the API server; its status is read leniently (others write it too). */
export function decodeAPIKey(object: KubeObject): Either<DecodeFailure, APIKey> {
  return decodeStored(object, SpecCodec, (status) => ({ conditions: conditionsOf(status) }));
}
