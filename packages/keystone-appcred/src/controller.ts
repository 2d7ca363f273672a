import { coreTypes, type ControllerDefinition, type KubeObject } from '@keyward/kernel';
import { LABEL_APPLICATION_CREDENTIALS, LABEL_SERVICE, appCredType, getACCRName, keystoneApiType, keystoneType, type KeystoneApplicationCredential } from './api.js';
import type { AppCredConfig } from './config.js';
import { decodeAppCred } from './decode.js';
import { observe, type AppCredQueries } from './observe.js';
import { reconcile, reportFailure, reportInvalid } from './reconcile.js';
import { appCredApis, type AppCredAction } from './vocabulary.js';

/** A change to a credential Secret wakes the CR of its service. */
export function secretToCr(secret: KubeObject): string[] {
  const service = secret.metadata.labels?.[LABEL_SERVICE];
  const namespace = secret.metadata.namespace;
  return service === undefined || namespace === undefined ? [] : [`${namespace}/${getACCRName(service)}`];
}

/** The KeystoneApplicationCredential controller as data, for @keyward/runtime's runtime. */
export const appCredController: ControllerDefinition<KeystoneApplicationCredential, AppCredQueries, AppCredConfig, AppCredAction> = {
  name: 'keystone-appcred',
  apis: appCredApis,
  primary: { type: appCredType, decode: decodeAppCred },
  secondary: () => [{ type: coreTypes.secret, labels: { [LABEL_APPLICATION_CREDENTIALS]: 'true' }, mapToPrimary: secretToCr }],
  referenced: [
    // The password Secret, watched with the others of the namespace in one watch: a CR waiting for it continues
    // as soon as it appears or changes, and its login reads the password from the watch.
    { type: coreTypes.secret, of: (cr) => [{ namespace: cr.metadata.namespace, name: cr.spec.secret }] },
    // Without a configured URL, the KeystoneAPIs of the CR's namespace: read from the watch, and a change (a
    // new endpoint, readiness) wakes the CRs there. Not a secondary watch, which would keep the controller
    // from starting without their CRD; a CR then reports the missing CRD, as any read of it does (unless the
    // Keystone CRD is installed: see observe).
    { type: keystoneApiType, of: (cr, config) => (config.keystoneUrl === undefined ? [{ namespace: cr.metadata.namespace }] : []) },
    // Likewise Keyward's own Keystone objects. Without their CRD the watch retries quietly, with backoff, and
    // answers the reads (which ask only if the type is served) with "not served" without a request each.
    { type: keystoneType, of: (cr, config) => (config.keystoneUrl === undefined ? [{ namespace: cr.metadata.namespace }] : []) },
  ],
  observe,
  reconcile,
  reportFailure: (cr, failure, now) => reportFailure(cr, failure, now),
  reportInvalid,
};
