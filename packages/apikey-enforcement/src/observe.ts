import { coreTypes, type GetQuery } from '@keyward/core';
import type { APIKey } from './api.js';
import type { APIKeyConfig } from './config.js';
import { enforcementSecretRef, managedLabels } from './enforcement-secret.js';

export interface APIKeyQueries {
  readonly [name: string]: GetQuery;
  readonly consumerSecret: GetQuery;
  readonly enforcementSecret: GetQuery;
}

/** The consumer's Secret and our enforcement Secret, both from caches (the consumer's is watched by name). */
export function observe(apiKey: APIKey, config: APIKeyConfig): APIKeyQueries {
  return {
    consumerSecret: { kind: 'k8s.get', ref: { type: coreTypes.secret, namespace: apiKey.metadata.namespace, name: apiKey.spec.secretRef.name } },
    enforcementSecret: { kind: 'k8s.get', ref: enforcementSecretRef(apiKey, config.enforcementNamespace), expectLabels: managedLabels },
  };
}
