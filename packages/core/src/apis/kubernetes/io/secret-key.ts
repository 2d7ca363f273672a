import { coreTypes } from '../../../model/refs.js';
import { sensitive, type Sensitive } from '../../../model/sensitive.js';
import type { SecretKeyRef } from '../../keystone/actions.js';
import { KeywardError } from '../../../interpreter/errors.js';
import type { KubeClient } from './client.js';

/**
 * Reads one key of a Secret (a service password) at the moment it is needed. A trailing newline, which
 * `kubectl create secret --from-file` keeps, is trimmed. Missing Secret or key: a KeywardError that names
 * them and is retryable, since someone may create them.
 */
export async function readSecretKey(client: KubeClient, ref: SecretKeyRef): Promise<Sensitive> {
  const where = `Secret ${ref.namespace}/${ref.name}`;
  const secret = await client.get({ type: coreTypes.secret, namespace: ref.namespace, name: ref.name });
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
