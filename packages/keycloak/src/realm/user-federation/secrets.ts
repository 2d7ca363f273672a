import type { GetQuery } from '@keyward/kernel/plan';
import type { KubeObject, Observed } from '@keyward/kernel';
import type { RealmQueries } from '../types.js';
import type { RealmSecretUse } from '../secret-opt-in.js';
import { observedSecret, secretChanged, secretQueries, secretsWatch, secretVersions, type SecretReads } from '../secret-reads.js';
import type { KeycloakRealm, KeycloakRealmSpec } from '../spec.js';
import { BIND_CREDENTIAL_KEY, KEYTAB_KEY, secretConfigKeys } from './config.js';

// The Secrets the user federation providers read their bind credential and keytab path from: under the realm's
// Secret opt-in rule like every Secret a realm reads, and sent again only once changed (status keeps their
// versions).

const FEDERATION_SECRETS: SecretReads = { queryPrefix: 'userFederationSecret' };

const HOLDS: Readonly<Record<string, string>> = { [BIND_CREDENTIAL_KEY]: 'the bind credential', [KEYTAB_KEY]: 'the keytab path' };

export function federationSecretNames(spec: KeycloakRealmSpec): string[] {
  return [...new Set((spec.userFederation ?? []).flatMap((provider) => secretConfigKeys(provider).map(({ secret }) => secret.name)))];
}

export const federationSecretQueries = (cr: KeycloakRealm): Record<string, GetQuery> => secretQueries(FEDERATION_SECRETS, cr.metadata.namespace, federationSecretNames(cr.spec));

export function federationSecretUses(cr: KeycloakRealm, observed: Observed<RealmQueries>): RealmSecretUse[] {
  return (cr.spec.userFederation ?? []).flatMap((provider) => secretConfigKeys(provider).map(({ key, secret }) => ({
    name: secret.name,
    holds: `${HOLDS[key] ?? key} of user federation provider ${provider.name}`,
    reason: 'UserFederation',
    secret: observedSecret(FEDERATION_SECRETS, observed, secret.name),
  })));
}

export const federationSecretVersions = (cr: KeycloakRealm, observed: Observed<RealmQueries>): Record<string, string> => secretVersions(FEDERATION_SECRETS, observed, federationSecretNames(cr.spec));

export const federationSecretChanged = (cr: KeycloakRealm, observed: Observed<RealmQueries>): ((name: string) => boolean) =>
  secretChanged(FEDERATION_SECRETS, observed, cr.status.userFederationSecretVersions ?? {});

/** A bind credential's Secret as read. */
export const federationSecret = (observed: Observed<RealmQueries>) => (name: string): KubeObject | undefined => observedSecret(FEDERATION_SECRETS, observed, name);

/** For the controller: the Secrets are watched by name, so a changed or newly labelled one is acted upon. */
export const federationSecretsWatch = secretsWatch(federationSecretNames);
