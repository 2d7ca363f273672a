import type { KeycloakClient } from './spec.js';

/**
 * Where a new KeycloakClient records its realm: in the same patch as its finalizer, before any client exists in
 * Keycloak, so the next reconcile reads the client there without a status write first.
 */
export const REALM_ANNOTATION = 'keycloak.keyward.io/realm-name';

/**
 * The realm in Keycloak the client is read in, created in and deleted from: the one its status records, else
 * the one recorded with its finalizer. Status supersedes the annotation, which is written once and never
 * moved: a realm renamed, or a client moved to another realm, is recorded in status.
 */
export function recordedRealm(client: KeycloakClient): string | undefined {
  const annotated = client.metadata.annotations?.[REALM_ANNOTATION];
  return client.status.realm ?? (annotated === '' ? undefined : annotated);
}
