import * as t from 'io-ts';
import { isLeft, left, right, type Either } from 'fp-ts/lib/Either.js';
import { decode, storedMeta, type Condition, type DecodeFailure, type KubeObject } from '@keyward/core';
import { SpecCodec, type APIKey } from './api.js';

const ObjectCodec = t.type({ spec: SpecCodec });

function conditionsOf(status: unknown): Condition[] {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? conditions.filter((c): c is Condition => typeof (c as { type?: unknown }).type === 'string') : [];
}

/** Validates an APIKey read from the API server; its status is read leniently (others write it too). */
export function decodeAPIKey(object: KubeObject): Either<DecodeFailure, APIKey> {
  const decoded = decode(ObjectCodec, object);
  if (isLeft(decoded)) return left(decoded.left);
  const metadata = storedMeta(object);
  if (isLeft(metadata)) return metadata;
  return right({
    ...object,
    metadata: metadata.right,
    spec: decoded.right.spec,
    status: { conditions: conditionsOf(object['status']) },
  });
}
