import { coreTypes, type KubeObject, type Observed } from '@keyward/kernel';
import { type GetQuery } from '@keyward/kernel/plan';
import type { RealmQueries } from './types.js';
import type { KeycloakRealm, KeycloakRealmSpec } from './spec.js';

// The Secrets a field group of a realm reads values from: each read (for its labels and resourceVersion) under
// a query of its own named by the group's prefix, watched by name, and its resourceVersion kept in status once
// its values are sent, so that they are sent again only after the Secret changes.

/** One field group's Secrets: the prefix of its query names. */
export interface SecretReads {
  readonly queryPrefix: string;
}

export const secretQueryName = (reads: SecretReads, secret: string): string => `${reads.queryPrefix}:${secret}`;

export function secretQueries(reads: SecretReads, namespace: string, names: readonly string[]): Record<string, GetQuery> {
  return Object.fromEntries([...new Set(names)].map((name) => [secretQueryName(reads, name), { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name } }]));
}

export function observedSecret(reads: SecretReads, observed: Observed<RealmQueries>, name: string): KubeObject | undefined {
  const found = observed[secretQueryName(reads, name)];
  return found !== undefined && 'metadata' in found ? found : undefined;
}

/** The resourceVersion of each Secret as read now: what status records once the plan has sent their values. */
export function secretVersions(reads: SecretReads, observed: Observed<RealmQueries>, names: readonly string[]): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of names) {
    const version = observedSecret(reads, observed, name)?.metadata.resourceVersion;
    if (version !== undefined) versions[name] = version;
  }
  return versions;
}

/** Whether a Secret changed since its values were last sent (its resourceVersion is not the one recorded). */
export function secretChanged(reads: SecretReads, observed: Observed<RealmQueries>, sent: Readonly<Record<string, string>>): (name: string) => boolean {
  return (name) => observedSecret(reads, observed, name)?.metadata.resourceVersion !== sent[name];
}

/** For the controller: the Secrets are watched by name, so a changed or newly labelled one is acted upon. */
export function secretsWatch(names: (spec: KeycloakRealmSpec) => readonly string[]): { readonly type: typeof coreTypes.secret; readonly of: (cr: KeycloakRealm) => { readonly namespace: string; readonly name: string }[] } {
  return { type: coreTypes.secret, of: (cr) => names(cr.spec).map((name) => ({ namespace: cr.metadata.namespace, name })) };
}
