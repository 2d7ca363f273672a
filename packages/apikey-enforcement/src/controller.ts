import { coreTypes, type ControllerDefinition } from '@keyward/kernel';
import { apiKeyType, type APIKey } from './api.js';
import type { APIKeyConfig } from './config.js';
import { decodeAPIKey } from './decode.js';
import { apiKeyOf, managedLabels } from './enforcement-secret.js';
import { observe, waitsForConsumerSecret, type APIKeyQueries } from './observe.js';
import { orphanPlan, reconcile, reportFailure, reportInvalid } from './reconcile.js';
import { apiKeyApis, type APIKeyAction } from './vocabulary.js';

/** The APIKey enforcement controller as data, for @keyward/runtime's runtime. */
export const apiKeyController: ControllerDefinition<APIKey, APIKeyQueries, APIKeyConfig, APIKeyAction> = {
  name: 'apikey-enforcement',
  apis: apiKeyApis,
  primary: { type: apiKeyType, decode: decodeAPIKey },
  // Our enforcement Secrets: a change (someone deleted one) wakes its APIKey; the sweep finds orphans among them.
  secondary: (config) => [
    {
      type: coreTypes.secret,
      namespace: config.enforcementNamespace,
      labels: managedLabels,
      mapToPrimary: (secret) => {
        const owner = apiKeyOf(secret);
        return owner === undefined ? [] : [owner];
      },
    },
  ],
  // The consumer's Secret carries no labels of ours: it is watched by name, so an APIKey recovers the moment it appears.
  // A consumer's Secret is watched only while its APIKey waits for it, not for every APIKey in the cluster.
  referenced: [{ type: coreTypes.secret, of: (apiKey) => (waitsForConsumerSecret(apiKey) ? [{ namespace: apiKey.metadata.namespace, name: apiKey.spec.secretRef.name }] : []) }],
  observe,
  reconcile,
  reportFailure: (apiKey, failure, now) => reportFailure(apiKey, failure, now),
  reportInvalid: (object, failure) => reportInvalid(object, failure),
  orphans: { watch: 0, ownerOf: apiKeyOf, orphaned: (secret, owner) => orphanPlan(secret, `APIKey ${owner} no longer exists`) },
};
