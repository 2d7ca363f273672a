import { coreTypes, type ObjectRef, type KubeObject, type Sensitive } from '@keyward/kernel';
import { type SecretKeyRef } from '@keyward/kernel/plan';
import { secretKeyValue } from '@keyward/kernel/interpreter';
import type { KubeClient } from './client.js';

/**
 * Reads one key of a Secret (a service password) at the moment it is needed: through `read` when given (the
 * running controller's watch of the Secret, kept current by the API server), else from the API server. See
 * secretKeyValue for what is refused.
 */
export async function readSecretKey(client: KubeClient, ref: SecretKeyRef, read?: (ref: ObjectRef) => Promise<KubeObject | undefined>): Promise<Sensitive> {
  const secretRef: ObjectRef = { type: coreTypes.secret, namespace: ref.namespace, name: ref.name };
  return secretKeyValue(read === undefined ? await client.get(secretRef) : await read(secretRef), ref);
}
