import { coreTypes, sensitive, type ObjectRef, type KubeObject, type Sensitive, type SecretKeyRef } from '@keyward/vocabulary';
import { KeywardError } from '@keyward/vocabulary/interpreter';
import type { KubeClient } from './client.js';

/**
 * Reads one key of a Secret (a service password) at the moment it is needed: through `read` when given (the
 * running controller's watch of the Secret, kept current by the API server), else from the API server. A
 * trailing newline, which `kubectl create secret --from-file` keeps, is trimmed. Missing Secret or key: a
 * KeywardError that names them and is retryable, since someone may create them.
 */
export async function readSecretKey(client: KubeClient, ref: SecretKeyRef, read?: (ref: ObjectRef) => Promise<KubeObject | undefined>): Promise<Sensitive> {
  const where = `Secret ${ref.namespace}/${ref.name}`;
  const secretRef: ObjectRef = { type: coreTypes.secret, namespace: ref.namespace, name: ref.name };
  const secret = read === undefined ? await client.get(secretRef) : await read(secretRef);
  if (secret === undefined) {
    throw new KeywardError({ api: 'kubernetes', code: 404, reason: 'PasswordSecretNotFound', message: `${where} not found`, retryable: true });
  }
  const encoded = (secret['data'] as Record<string, string> | undefined)?.[ref.key];
  const value = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8').replace(/\r?\n$/, '');
  if (value === '') {
    throw new KeywardError({ api: 'kubernetes', code: 404, reason: 'PasswordKeyNotFound', message: `${where} has no key ${ref.key} (or it is empty)`, retryable: true });
  }
  return sensitive(value);
}
