import { DNS1123_SUBDOMAIN_MAX_LENGTH, truncateWithHash } from '@keyward/kernel/model';
import { addApplyIfChanged, type ApplyAction, type ObjectTemplate, type PlanSteps, type Value } from '@keyward/kernel/plan';
import { coreTypes, sensitive, type KubeObject, type ObjectRef, type Sensitive } from '@keyward/kernel';
import { realmEndpoints } from '../endpoints.js';
import type { KeycloakClient } from './spec.js';

/** The keys of the credentials Secret: what applications read. */
export const CREDENTIALS_KEYS = {
  clientId: 'client-id',
  /** Confidential clients only. */
  clientSecret: 'client-secret',
  keycloakUrl: 'keycloak-url',
  realm: 'realm',
  tokenEndpoint: 'token-endpoint',
  userinfoEndpoint: 'userinfo-endpoint',
  jwksEndpoint: 'jwks-endpoint',
  issuer: 'issuer',
} as const;

const SUFFIX = '-credentials';

/** Random bytes in a secret the operator chooses for a new client. */
const SECRET_BYTES = 32;

/**
 * The secret a new confidential client is created with: chosen here (256 random bits, URL-safe base64) rather
 * than by Keycloak, so the reconcile that creates the client writes its credentials Secret too, without
 * reading the secret back. Keycloak stays the source of truth from then on.
 */
export function newClientSecret(entropy: (bytes: number) => Uint8Array): Sensitive {
  return sensitive(Buffer.from(entropy(SECRET_BYTES)).toString('base64url'));
}

/** `<name>-credentials`; a name too long for that is shortened with a hash, so it stays unique. */
export function credentialsSecretName(clientName: string): string {
  return truncateWithHash(`${clientName}${SUFFIX}`, DNS1123_SUBDOMAIN_MAX_LENGTH);
}

/** The credentials Secret's name: the spec's `secretName`, else `<name>-credentials`. */
export const credentialsSecretNameOf = (client: KeycloakClient): string => client.spec.secretName ?? credentialsSecretName(client.metadata.name);

/** Whether the operator writes the credentials Secret: unless the spec says `manageSecret: false`. */
export const managesSecret = (client: KeycloakClient): boolean => client.spec.manageSecret !== false;

export function credentialsSecretRef(client: KeycloakClient): ObjectRef {
  return { type: coreTypes.secret, namespace: client.metadata.namespace, name: credentialsSecretNameOf(client) };
}

export interface CredentialsContent {
  readonly url: string;
  readonly realm: string;
  /** Keycloak's secret of a confidential client (known, or the output of a regeneration); undefined for a public one. */
  readonly secret: Value<Sensitive> | undefined;
}

/** The Secret as applications read it, owned by the KeycloakClient so it goes with it. */
export function credentialsSecret(client: KeycloakClient, content: CredentialsContent): ObjectTemplate {
  const { metadata, spec } = client;
  const endpoints = realmEndpoints(content.url, content.realm);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: credentialsSecretNameOf(client),
      namespace: metadata.namespace,
      ...(spec.secretMetadata?.labels === undefined ? {} : { labels: spec.secretMetadata.labels }),
      ...(spec.secretMetadata?.annotations === undefined ? {} : { annotations: spec.secretMetadata.annotations }),
      ownerReferences: [{ apiVersion: client.apiVersion, kind: client.kind, name: metadata.name, uid: metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    type: 'Opaque',
    stringData: {
      [CREDENTIALS_KEYS.clientId]: spec.clientId,
      ...(content.secret === undefined ? {} : { [CREDENTIALS_KEYS.clientSecret]: content.secret }),
      [CREDENTIALS_KEYS.keycloakUrl]: content.url,
      [CREDENTIALS_KEYS.realm]: content.realm,
      [CREDENTIALS_KEYS.tokenEndpoint]: endpoints.token,
      [CREDENTIALS_KEYS.userinfoEndpoint]: endpoints.userinfo,
      [CREDENTIALS_KEYS.jwksEndpoint]: endpoints.jwks,
      [CREDENTIALS_KEYS.issuer]: endpoints.issuer,
    },
  };
}

/** Writes the credentials Secret when the stored one differs from it (always after a regeneration). */
export function addCredentialsSecret(plan: PlanSteps<ApplyAction>, client: KeycloakClient, observed: KubeObject | undefined, content: CredentialsContent): boolean {
  if (!managesSecret(client)) return false;
  return addApplyIfChanged(plan, credentialsSecretRef(client), observed, credentialsSecret(client, content), 'keep the credentials Secret as Keycloak has the client', { force: true });
}
