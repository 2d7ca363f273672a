import { coreTypes, type GetQuery, type ListQuery } from '@keyward/vocabulary';
import { keystoneApiType, serviceOf, type KeystoneApplicationCredential } from './api.js';
import type { AppCredConfig } from './config.js';
import { credentialLabels } from './secrets.js';

export interface AppCredQueries {
  readonly [name: string]: GetQuery | ListQuery | undefined;
  /** Only without a configured Keystone URL. */
  readonly keystoneAPIs: ListQuery | undefined;
  readonly serviceSecrets: ListQuery;
  readonly currentSecret: GetQuery | undefined;
  readonly previousSecret: GetQuery | undefined;
}

/**
 * What a reconcile needs to read: the KeystoneAPI objects of the namespace, the service's credential Secrets
 * (by label, from the cache), and the Secrets the status names (from the cache when labelled; an unlabelled
 * one written by the upstream operator is read once and then labelled).
 */
export function observe(cr: KeystoneApplicationCredential, config: AppCredConfig): AppCredQueries {
  const namespace = cr.metadata.namespace;
  const labels = credentialLabels(serviceOf(cr.metadata.name));
  const secret = (name: string | undefined): GetQuery | undefined =>
    name === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name }, expectLabels: labels };
  return {
    keystoneAPIs: config.keystoneUrl === undefined ? { kind: 'k8s.list', type: keystoneApiType, namespace } : undefined,
    serviceSecrets: { kind: 'k8s.list', type: coreTypes.secret, namespace, labels },
    currentSecret: secret(cr.status.secretName),
    previousSecret: secret(cr.status.previousSecretName),
  };
}
