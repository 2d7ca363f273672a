// @keyward/apikey-enforcement: Kuadrant APIKey objects -> the enforcement Secrets Authorino reads. Pure: the
// controller module for the operator, the reconciler and its parts for embedding and for testing a policy.
export { apiKeyType, enforcementSecretName, API_KEY_DATA_KEY, CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, CONDITION_PENDING, OUR_FAILURE_REASONS, FailureReason } from './api.js';
export type { APIKey, APIKeySpec } from './api.js';
export { apiKeyModule } from './module.js';
export { apiKeyController } from './controller.js';
export { apiKeyCrd } from './crd.js';
export { apiKeyApis } from './vocabulary.js';
export type { APIKeyAction } from './vocabulary.js';
export { defaultAPIKeyConfig } from './config.js';
export type { APIKeyConfig } from './config.js';
export { decodeAPIKey } from './decode.js';
export { observe } from './observe.js';
export type { APIKeyQueries } from './observe.js';
export { reconcile, reportFailure, reportInvalid } from './reconcile.js';
export type { APIKeyInput } from './reconcile.js';
export { enforcementSecret, enforcementSecretRef, apiKeyOf, managedLabels } from './enforcement-secret.js';
