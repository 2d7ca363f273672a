import { coreTypes, type GetQuery, type KubeObject, type Observed } from '@keyward/vocabulary';
import type { RealmQueries } from './observe.js';
import type { IdpSecretsContext } from './identity-providers.js';
import type { RealmSecretUse } from './secret-opt-in.js';
import type { KeycloakRealm, KeycloakRealmSpec } from './spec.js';

// The Secrets an identity provider's configSecrets name: each read (for its labels and resourceVersion) under
// a query of its own, watched by name, and its resourceVersion kept in status once its values are sent.

/** The name of the query that reads a Secret of the identity providers. */
export const idpSecretQueryName = (secret: string): string => `identityProviderSecret:${secret}`;

/** The Secrets the identity providers read config values from, each once. */
export function idpSecretNames(spec: KeycloakRealmSpec): string[] {
  const names = (spec.identityProviders ?? []).flatMap((idp) => Object.values(idp.configSecrets ?? {}).map((ref) => ref.name));
  return [...new Set(names)];
}

export function idpSecretQueries(cr: KeycloakRealm): Record<string, GetQuery> {
  const namespace = cr.metadata.namespace;
  return Object.fromEntries(idpSecretNames(cr.spec).map((name) => [idpSecretQueryName(name), { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name } }]));
}

function observedSecret(observed: Observed<RealmQueries>, name: string): KubeObject | undefined {
  const found = observed[idpSecretQueryName(name)];
  return found !== undefined && 'metadata' in found ? found : undefined;
}

/** One use per config key, so that a message names the provider and the key. */
export function idpSecretUses(cr: KeycloakRealm, observed: Observed<RealmQueries>): RealmSecretUse[] {
  return (cr.spec.identityProviders ?? []).flatMap((idp) => Object.entries(idp.configSecrets ?? {}).map(([key, ref]) => ({
    name: ref.name,
    holds: `config ${key} of identity provider ${idp.alias}`,
    reason: 'IdentityProvider',
    secret: observedSecret(observed, ref.name),
  })));
}

/** The resourceVersion of each Secret as read now: what status records once the plan has sent their values. */
export function idpSecretVersions(cr: KeycloakRealm, observed: Observed<RealmQueries>): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of idpSecretNames(cr.spec)) {
    const version = observedSecret(observed, name)?.metadata.resourceVersion;
    if (version !== undefined) versions[name] = version;
  }
  return versions;
}

export function idpSecretsContext(cr: KeycloakRealm, observed: Observed<RealmQueries>): IdpSecretsContext {
  const sent = cr.status.identityProviderSecretVersions ?? {};
  return {
    namespace: cr.metadata.namespace,
    changed: (name) => observedSecret(observed, name)?.metadata.resourceVersion !== sent[name],
  };
}

/** For the controller: the Secrets are watched by name, so a changed or newly labelled one is acted upon. */
export const idpSecretsWatch = {
  type: coreTypes.secret,
  of: (cr: KeycloakRealm): { readonly namespace: string; readonly name: string }[] => idpSecretNames(cr.spec).map((name) => ({ namespace: cr.metadata.namespace, name })),
};
