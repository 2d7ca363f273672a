import { coreTypes, sensitive, type Sensitive } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';
import { type KubeClient } from '@keyward/runtime/io';
import type { KeycloakServer } from '../actions.js';

/** Where a server's admin credentials are kept. */
export type CredentialsSecret = KeycloakServer['credentials'];

/** How Keyward logs in to Keycloak's master realm: as an admin user, or as an admin service account. */
export type AdminCredentials =
  | { readonly grant: 'password'; readonly username: string; readonly password: Sensitive }
  | { readonly grant: 'client_credentials'; readonly clientId: string; readonly clientSecret: Sensitive };

/** The keys of the two kinds of credentials Secret. */
export const ADMIN_SECRET_KEYS = { username: 'username', password: 'password', clientId: 'client-id', clientSecret: 'client-secret' } as const;

const describeSecret = (secret: CredentialsSecret): string => `Secret ${secret.namespace}/${secret.name}`;

/** A key's value, decoded; a trailing newline (which `kubectl create secret --from-file` keeps) is trimmed. */
function value(data: Readonly<Record<string, string>>, key: string): string | undefined {
  const encoded = data[key];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8').replace(/\r?\n$/, '');
  return decoded === '' ? undefined : decoded;
}

/**
 * The credentials in a Secret's data: `username` and `password` (the password grant, on admin-cli), else
 * `client-id` and `client-secret` (client_credentials). A Secret with neither pair is an error that names
 * the keys; it is retryable, since someone may fix the Secret.
 */
export function adminCredentialsFrom(data: Readonly<Record<string, string>> | undefined, secret: CredentialsSecret): AdminCredentials {
  const keys = ADMIN_SECRET_KEYS;
  const username = value(data ?? {}, keys.username);
  const password = value(data ?? {}, keys.password);
  if (username !== undefined && password !== undefined) return { grant: 'password', username, password: sensitive(password) };
  const clientId = value(data ?? {}, keys.clientId);
  const clientSecret = value(data ?? {}, keys.clientSecret);
  if (clientId !== undefined && clientSecret !== undefined) return { grant: 'client_credentials', clientId, clientSecret: sensitive(clientSecret) };
  throw new KeywardError({
    api: 'kubernetes',
    // Not 422: the default error policy would wait for a change of the object, and nothing watches this Secret.
    code: 404,
    reason: 'AdminCredentialsIncomplete',
    message: `${describeSecret(secret)} holds no Keycloak admin credentials: it needs the keys ${keys.username} and ${keys.password}, or ${keys.clientId} and ${keys.clientSecret}`,
    retryable: true,
  });
}

/** Reads the admin credentials from their Secret, at the moment a token is needed. */
export async function readAdminCredentials(kube: KubeClient, secret: CredentialsSecret): Promise<AdminCredentials> {
  const object = await kube.get({ type: coreTypes.secret, namespace: secret.namespace, name: secret.name });
  if (object === undefined) {
    throw new KeywardError({ api: 'kubernetes', code: 404, reason: 'AdminSecretNotFound', message: `${describeSecret(secret)} with the Keycloak admin credentials not found`, retryable: true });
  }
  return adminCredentialsFrom(object['data'] as Readonly<Record<string, string>> | undefined, secret);
}
