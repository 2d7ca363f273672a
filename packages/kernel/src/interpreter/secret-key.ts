import { hasLabels, type KubeObject } from '../apis/kubernetes/actions.js';
import type { SecretKeyRef } from '../apis/keystone/actions.js';
import { sensitive, type Sensitive } from '../model/sensitive.js';
import { KeywardError } from './errors.js';

/**
 * One key of a Secret as read (undefined: there is none), for the step that needs it: a trailing newline,
 * which `kubectl create secret --from-file` keeps, is trimmed. A missing Secret or key, or one without the
 * labels the reference requires (the Secret's owner never let the operator use it), is a retryable
 * KeywardError naming them, since someone may create or label them; the value is then never decoded.
 */
export function secretKeyValue(secret: KubeObject | undefined, ref: SecretKeyRef): Sensitive {
  const where = `Secret ${ref.namespace}/${ref.name}`;
  const fail = (reason: string, message: string): never => {
    throw new KeywardError({ api: 'kubernetes', code: 404, reason, message, retryable: true });
  };
  if (secret === undefined) return fail('PasswordSecretNotFound', `${where} not found`);
  if (!hasLabels(secret, ref.requiredLabels)) {
    const labels = Object.entries(ref.requiredLabels ?? {}).map(([key, value]) => `${key}=${value}`).join(', ');
    return fail('SecretNotOptedIn', `${where} lacks the label ${labels}, so it is not read`);
  }
  const encoded = (secret['data'] as Record<string, string> | undefined)?.[ref.key];
  const value = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8').replace(/\r?\n$/, '');
  return value === '' ? fail('PasswordKeyNotFound', `${where} has no key ${ref.key} (or it is empty)`) : sensitive(value);
}
