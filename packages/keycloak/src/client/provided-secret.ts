import { Sensitive, type KubeObject } from '@keyward/kernel';
import { type SecretKeyRef } from '@keyward/kernel/plan';
import type { KeycloakClient } from './spec.js';

/** The Secret key the spec names as the client secret to set in Keycloak. */
export function providedSecretRef(client: KeycloakClient): SecretKeyRef | undefined {
  const ref = client.spec.clientSecret;
  return ref === undefined ? undefined : { kind: 'secretKey', namespace: client.metadata.namespace, name: ref.name, key: ref.key };
}

/** The value of `key` in a Secret as read from the API server; undefined when it has no such key. */
export function secretValue(secret: KubeObject, key: string): Sensitive | undefined {
  const data: unknown = secret['data'];
  const encoded = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
  return typeof encoded === 'string' ? new Sensitive(Buffer.from(encoded, 'base64').toString('utf8')) : undefined;
}

/** Whether Keycloak's secret differs from the provided one (compared, never shown). */
export function differs(provided: Sensitive, keycloak: Sensitive | undefined): boolean {
  return keycloak === undefined || !provided.equals(keycloak);
}
