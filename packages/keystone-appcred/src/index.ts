// @keyward/keystone-appcred: KeystoneApplicationCredential objects -> Keystone application credentials, rotated
// and handed over in Secrets. Pure: the controller module for the operator, the reconciler and its parts for
// embedding and for testing a policy, and the naming helpers consumers share.
export { appCredType, keystoneApiType, keystoneType, getACCRName, serviceOf, CONDITION_READY, CONDITION_AC_READY, CR_FINALIZER, CREDENTIAL_NAME_ANNOTATION, LABEL_SERVICE, LABEL_APPLICATION_CREDENTIALS, ACIDSecretKey, ACSecretSecretKey } from './api.js';
export type { KeystoneApplicationCredential, AppCredSpec, AppCredStatus } from './api.js';
export { appCredModule } from './module.js';
export { appCredController } from './controller.js';
export { appCredCrd, keystoneApiCrd } from './crd.js';
export { appCredApis } from './vocabulary.js';
export type { AppCredAction } from './vocabulary.js';
export { defaultAppCredConfig } from './config.js';
export type { AppCredConfig } from './config.js';
export { decodeAppCred, readStatus } from './decode.js';
export { observe } from './observe.js';
export type { AppCredQueries } from './observe.js';
export { reconcile, reportFailure, reportInvalid } from './reconcile.js';
export { computeSecurityHash } from './security-hash.js';
export type { AppCredInput } from './reconcile.js';
