import type { GetQuery } from '@keyward/kernel/plan';
import type { Observed } from '@keyward/kernel';
import type { RealmQueries } from '../types.js';
import type { IdpSecretsContext } from './plan.js';
import type { RealmSecretUse } from '../secret-opt-in.js';
import type { KeycloakRealm, KeycloakRealmSpec } from '../spec.js';
import { observedSecret as readSecret, secretChanged, secretQueries, secretQueryName, secretsWatch, secretVersions, type SecretReads } from '../secret-reads.js';

// The Secrets an identity provider's configSecrets name: each read (for its labels and resourceVersion) under
// a query of its own, watched by name, and its resourceVersion kept in status once its values are sent.

const IDP_SECRETS: SecretReads = { queryPrefix: 'identityProviderSecret' };

/** The name of the query that reads a Secret of the identity providers. */
export const idpSecretQueryName = (secret: string): string => secretQueryName(IDP_SECRETS, secret);

/** The Secrets the identity providers read config values from, each once. */
export function idpSecretNames(spec: KeycloakRealmSpec): string[] {
  const names = (spec.identityProviders ?? []).flatMap((idp) => Object.values(idp.configSecrets ?? {}).map((ref) => ref.name));
  return [...new Set(names)];
}

export const idpSecretQueries = (cr: KeycloakRealm): Record<string, GetQuery> => secretQueries(IDP_SECRETS, cr.metadata.namespace, idpSecretNames(cr.spec));

/** One use per config key, so that a message names the provider and the key. */
export function idpSecretUses(cr: KeycloakRealm, observed: Observed<RealmQueries>): RealmSecretUse[] {
  return (cr.spec.identityProviders ?? []).flatMap((idp) => Object.entries(idp.configSecrets ?? {}).map(([key, ref]) => ({
    name: ref.name,
    holds: `config ${key} of identity provider ${idp.alias}`,
    reason: 'IdentityProvider',
    secret: readSecret(IDP_SECRETS, observed, ref.name),
  })));
}

/** The resourceVersion of each Secret as read now: what status records once the plan has sent their values. */
export const idpSecretVersions = (cr: KeycloakRealm, observed: Observed<RealmQueries>): Record<string, string> => secretVersions(IDP_SECRETS, observed, idpSecretNames(cr.spec));

export function idpSecretsContext(cr: KeycloakRealm, observed: Observed<RealmQueries>): IdpSecretsContext {
  return { namespace: cr.metadata.namespace, changed: secretChanged(IDP_SECRETS, observed, cr.status.identityProviderSecretVersions ?? {}), secret: (name) => readSecret(IDP_SECRETS, observed, name) };
}

/** For the controller: the Secrets are watched by name, so a changed or newly labelled one is acted upon. */
export const idpSecretsWatch = secretsWatch(idpSecretNames);
