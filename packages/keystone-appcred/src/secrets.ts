import type { KubeObject } from '@keyward/kernel';
import { ACIDSecretKey, CONSUMER_FINALIZER, CREDENTIAL_NAME_ANNOTATION, LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, SECRET_PROTECTION_FINALIZER } from './api.js';

/** The labels every credential Secret of a service carries: how we find them, and how consumers do. */
export function credentialLabels(service: string): Record<string, string> {
  return { [LABEL_APPLICATION_CREDENTIALS]: 'true', [LABEL_SERVICE]: service };
}

export function hasCredentialLabels(secret: KubeObject, service: string): boolean {
  return Object.entries(credentialLabels(service)).every(([key, value]) => secret.metadata.labels?.[key] === value);
}

/** Consumers holding a Secret: the `<consumer>` of each `openstack.org/<consumer>-ac-consumer` finalizer. */
export function consumersOf(secret: KubeObject): string[] {
  return (secret.metadata.finalizers ?? []).flatMap((finalizer) => {
    const match = CONSUMER_FINALIZER.exec(finalizer);
    return match?.[1] === undefined ? [] : [match[1]];
  });
}

export function isProtected(secret: KubeObject): boolean {
  return secret.metadata.finalizers?.includes(SECRET_PROTECTION_FINALIZER) === true;
}

/** The credential id a Secret holds (an id, not a secret), if it holds one; a Secret is read, not trusted. */
export function credentialIdOf(secret: KubeObject): string | undefined {
  const data: unknown = secret['data'];
  const encoded = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[ACIDSecretKey] : undefined;
  if (typeof encoded !== 'string') return undefined;
  const id = Buffer.from(encoded, 'base64').toString('utf8').trim();
  return id === '' ? undefined : id;
}

/** The Keystone name of the credential a Secret holds, when Keyward wrote it there (Secrets stored before it say nothing). */
export function credentialNameOf(secret: KubeObject): string | undefined {
  return secret.metadata.annotations?.[CREDENTIAL_NAME_ANNOTATION];
}

export interface OldSecrets {
  /** No consumer holds them: revoke their credential and delete them. */
  readonly releasable: readonly KubeObject[];
  /** Still held: kept, and reported. */
  readonly held: readonly { readonly secret: KubeObject; readonly consumers: readonly string[] }[];
}

/** A service's Secrets that are neither the current nor the previous one, split by whether a consumer holds them. */
export function oldSecrets(serviceSecrets: readonly KubeObject[], current: string | undefined, previous: string | undefined): OldSecrets {
  const old = serviceSecrets.filter((s) => s.metadata.name !== current && s.metadata.name !== previous);
  return {
    releasable: old.filter((s) => consumersOf(s).length === 0),
    held: old.filter((s) => consumersOf(s).length > 0).map((secret) => ({ secret, consumers: consumersOf(secret) })),
  };
}

/** "old credential ac-nova-1a2b3-secret is still used by nova-compute, ceilometer" for each held Secret. */
export function describeHeld(held: OldSecrets['held']): string | undefined {
  if (held.length === 0) return undefined;
  return held.map(({ secret, consumers }) => `old credential ${secret.metadata.name} is still used by ${consumers.join(', ')}`).join('; ');
}
