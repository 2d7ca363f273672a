import { coreTypes, findCondition } from '@keyward/kernel';
import { isConditionTrue } from '@keyward/kernel/model';
import { type BurstRead, type GetQuery } from '@keyward/kernel/plan';
import { CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, FailureReason, type APIKey } from './api.js';
import type { APIKeyConfig } from './config.js';
import { enforcementSecretRef, managedLabels } from './enforcement-secret.js';

export interface APIKeyQueries {
  readonly [name: string]: GetQuery | undefined;
  readonly enforcementSecret: GetQuery;
  readonly consumerSecret: GetQuery | undefined;
}

/** Approved and not denied: the state in which an enforcement Secret should exist. */
export function isApproved(apiKey: APIKey): boolean {
  return isConditionTrue(apiKey.status.conditions, CONDITION_APPROVED) && !isConditionTrue(apiKey.status.conditions, CONDITION_DENIED);
}

/** Failures that only a change to the consumer's Secret can resolve. */
const CONSUMER_SECRET_FAILURES: readonly string[] = [FailureReason.secretNotFound, FailureReason.apiKeyNotFound, FailureReason.secretReadError];

/**
 * Approved, but the consumer's Secret is missing, unreadable or has no key: the APIKey waits for that Secret,
 * so the runtime watches it by name until the enforcement Secret exists. Other APIKeys need no such watch.
 */
export function waitsForConsumerSecret(apiKey: APIKey): boolean {
  const failure = findCondition(apiKey.status.conditions, CONDITION_FAILED);
  return isApproved(apiKey) && failure?.status === 'True' && CONSUMER_SECRET_FAILURES.includes(failure.reason);
}

/**
 * Many approvals at once read their consumer Secrets through a watch of the namespace. Consumer Secrets are
 * Opaque, and the watch holds only those, never the large Secrets of other types (Helm release records) that
 * application namespaces are full of; a consumer Secret of another type is still read, by GET.
 */
const CONSUMER_SECRETS_IN_BULK: BurstRead = { watch: 'namespace', fields: 'type=Opaque' };

/**
 * Our enforcement Secret, from the cache of our labelled Secrets alone (a Secret of that name without our
 * labels is not ours: creating ours then fails and says so, rather than taking it over), and the consumer's
 * Secret only when it is about to be copied: approved, and no enforcement Secret yet. A converged or waiting
 * APIKey therefore costs no request. Many approvals at once in one namespace (a bulk approval, or adopting
 * existing APIKeys) read their consumer Secrets through a short-lived watch of that namespace.
 */
export function observe(apiKey: APIKey, config: APIKeyConfig): APIKeyQueries {
  const consumerRef = { type: coreTypes.secret, namespace: apiKey.metadata.namespace, name: apiKey.spec.secretRef.name };
  return {
    enforcementSecret: { kind: 'k8s.get', ref: enforcementSecretRef(apiKey, config.enforcementNamespace), requireLabels: managedLabels },
    consumerSecret: isApproved(apiKey) ? { kind: 'k8s.get', ref: consumerRef, whenAbsent: 'enforcementSecret', onBurst: CONSUMER_SECRETS_IN_BULK } : undefined,
  };
}
