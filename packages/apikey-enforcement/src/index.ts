export * from './api.js';
export { decodeAPIKey } from './decode.js';
export { apiKeyCrd } from './crd.js';
export { observe } from './observe.js';
export type { APIKeyQueries } from './observe.js';
export { reconcile, failed, invalid, orphanPlan, apiKeyRef } from './reconcile.js';
export type { APIKeyInput } from './reconcile.js';
export { enforcementSecret, enforcementSecretRef, apiKeyOf, managedLabels } from './enforcement-secret.js';
export type { APIKeyConfig } from './config.js';
