import { coreTypes } from '@keyward/kernel';
import { type GetQuery, type ListIfServedQuery, type ListQuery } from '@keyward/kernel/plan';
import { keystoneApiType, keystoneType, serviceOf, type KeystoneApplicationCredential } from './api.js';
import type { AppCredConfig } from './config.js';
import { credentialLabels } from './secrets.js';

export interface AppCredQueries {
  readonly [name: string]: GetQuery | ListQuery | ListIfServedQuery | undefined;
  /** The next three only without a configured Keystone URL. Undefined when their CRD is not installed. */
  readonly keystoneAPIs: ListIfServedQuery | undefined;
  readonly keystones: ListIfServedQuery | undefined;
  /**
   * The KeystoneAPIs again, read only when the Keystone CRD is not installed (a cluster without Keyward's
   * Keystone): there a missing KeystoneAPI CRD fails the read, naming the CRD, exactly as before Keystone
   * objects were read too. Answered from the same watch as keystoneAPIs, so it costs no request of its own.
   */
  readonly keystoneAPIsRequired: ListQuery | undefined;
  readonly serviceSecrets: ListQuery;
  readonly currentSecret: GetQuery | undefined;
  readonly previousSecret: GetQuery | undefined;
}

/**
 * What a reconcile needs to read: the KeystoneAPI and Keystone objects of the namespace, the service's
 * credential Secrets (by label, from the cache), and the Secrets the status names (from the cache when
 * labelled; an unlabelled one written by the upstream operator is read once and then labelled).
 */
export function observe(cr: KeystoneApplicationCredential, config: AppCredConfig): AppCredQueries {
  const namespace = cr.metadata.namespace;
  const labels = credentialLabels(serviceOf(cr.metadata.name));
  const secret = (name: string | undefined): GetQuery | undefined =>
    name === undefined ? undefined : { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace, name }, expectLabels: labels };
  const lookUp = config.keystoneUrl === undefined;
  return {
    keystoneAPIs: lookUp ? { kind: 'k8s.list', type: keystoneApiType, namespace, ifServed: true } : undefined,
    keystones: lookUp ? { kind: 'k8s.list', type: keystoneType, namespace, ifServed: true } : undefined,
    keystoneAPIsRequired: lookUp ? { kind: 'k8s.list', type: keystoneApiType, namespace, whenAbsent: 'keystones' } : undefined,
    serviceSecrets: { kind: 'k8s.list', type: coreTypes.secret, namespace, labels },
    currentSecret: secret(cr.status.secretName),
    previousSecret: secret(cr.status.previousSecretName),
  };
}
