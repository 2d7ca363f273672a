// @keyward/keystone-service: runs Keystone itself from a Keystone object. Pure: plans of Kubernetes actions; the
// controller module for the operator, the reconciler and its parts for embedding and for testing a policy.
export { keystoneType, mariaDbDatabaseType, mariaDbUserType, mariaDbGrantType, names, API_PORT, CONDITION_READY } from './api.js';
export type { Keystone, KeystoneSpec, KeystoneStatus } from './spec.js';
export { keystoneServiceModule } from './module.js';
export { keystoneServiceController } from './controller.js';
export { keystoneCrd } from './crd.js';
export { keystoneServiceApis } from './vocabulary.js';
export type { KeystoneAction } from './vocabulary.js';
export { defaultKeystoneServiceConfig } from './config.js';
export type { KeystoneServiceConfig } from './config.js';
export { decodeKeystone, readStatus } from './decode.js';
export { observe } from './observe.js';
export type { KeystoneQueries } from './observe.js';
export { reconcile, reportFailure, reportInvalid } from './reconcile.js';
export type { KeystoneInput } from './reconcile.js';
export { internalEndpoint } from './keystone-conf.js';
export { fernetKey, rotate } from './fernet.js';
export { renderIni } from './ini.js';
export { parseCron, nextRun } from './cron.js';
