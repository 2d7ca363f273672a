import { expect } from '@jest/globals';
import { inspect } from 'node:util';
import { KeywardError } from '@keyward/kernel/interpreter';

/** The rejection of `promise`, which must be a KeywardError from Keystone. */
export async function keystoneFailure(promise: Promise<unknown>): Promise<KeywardError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof KeywardError)) throw new Error(`expected a KeywardError, got ${inspect(error)}`);
  expect(error.api).toBe('keystone');
  return error;
}
