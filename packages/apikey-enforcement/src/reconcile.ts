import { PlanBuilder, coreTypes, type Condition, type KubeObject, type ObjectRef, type Plan, type PlanFailure, type ReconcileInput } from '@keyward/kernel';
import { addStatusIfChanged } from '@keyward/kernel/plan';
import { isConditionTrue, setCondition, type DecodeFailure } from '@keyward/kernel/model';
import type { APIKeyAction } from './vocabulary.js';
import { API_KEY_DATA_KEY, CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, FailureReason, OUR_FAILURE_REASONS, apiKeyType, type APIKey } from './api.js';
import type { APIKeyConfig } from './config.js';
import { enforcementSecret, enforcementSecretRef } from './enforcement-secret.js';
import type { APIKeyQueries } from './observe.js';

export type APIKeyInput = ReconcileInput<APIKey, APIKeyQueries, APIKeyConfig>;

export function apiKeyRef(apiKey: Pick<APIKey, 'metadata'>): ObjectRef {
  return { type: apiKeyType, namespace: apiKey.metadata.namespace, name: apiKey.metadata.name };
}

/**
 * Writes the conditions with Failed set (or, with `failure` undefined, cleared when we had set it) only
 * if that changes them. The status is shared with the devportal, so the write is guarded by resourceVersion.
 */
function writeFailure(plan: PlanBuilder<APIKeyAction>, apiKey: APIKey, failure: { reason: string; message: string } | undefined, now: Date): void {
  const current = apiKey.status.conditions;
  let conditions: Condition[];
  if (failure === undefined) {
    conditions = current.filter((c) => !(c.type === CONDITION_FAILED && OUR_FAILURE_REASONS.includes(c.reason)));
  } else {
    conditions = setCondition(current, { type: CONDITION_FAILED, status: 'True', reason: failure.reason, message: failure.message }, now);
  }
  addStatusIfChanged(plan, apiKeyRef(apiKey), apiKey.status, { ...apiKey.status, conditions }, failure === undefined ? 'the earlier failure is resolved' : 'report the failure', {
    resourceVersion: apiKey.metadata.resourceVersion,
  });
}

/**
 * Denied: the enforcement Secret goes. Approved: it is created once from the consumer's Secret (never updated
 * afterwards). Anything else: nothing changes. The consumer's Secret is only ever read.
 */
export function reconcile({ primary: apiKey, observed, now, config }: APIKeyInput): Plan<APIKeyAction> {
  const plan = new PlanBuilder<APIKeyAction>();
  const target = enforcementSecretRef(apiKey, config.enforcementNamespace);
  const existing = observed.enforcementSecret;

  if (isConditionTrue(apiKey.status.conditions, CONDITION_DENIED)) {
    if (existing !== undefined) {
      plan.add({ kind: 'k8s.delete', ref: target, precondition: { uid: existing.metadata.uid ?? '' } }, 'the APIKey was denied');
    }
    writeFailure(plan, apiKey, undefined, now);
    return plan.build();
  }
  if (!isConditionTrue(apiKey.status.conditions, CONDITION_APPROVED) || existing !== undefined) {
    if (existing !== undefined) writeFailure(plan, apiKey, undefined, now);
    return plan.build();
  }

  const consumer = observed.consumerSecret;
  const where = `Secret ${apiKey.metadata.namespace}/${apiKey.spec.secretRef.name}`;
  if (consumer === undefined) {
    writeFailure(plan, apiKey, { reason: FailureReason.secretNotFound, message: `${where} not found` }, now);
    return plan.build();
  }
  const value = (consumer['data'] as Record<string, string> | undefined)?.[API_KEY_DATA_KEY];
  if (value === undefined || value === '') {
    writeFailure(plan, apiKey, { reason: FailureReason.apiKeyNotFound, message: `${where} has no ${API_KEY_DATA_KEY} (or it is empty)` }, now);
    return plan.build();
  }
  plan.add({ kind: 'k8s.create', ref: target, object: enforcementSecret(apiKey, config.enforcementNamespace, value) }, 'the APIKey was approved');
  writeFailure(plan, apiKey, undefined, now);
  return plan.build();
}

/** Failed=True with the reason the issue names: reading the consumer Secret failed, or creating ours did. */
export function reportFailure(apiKey: APIKey, failure: PlanFailure, now: Date): Plan<APIKeyAction> {
  const plan = new PlanBuilder<APIKeyAction>();
  const reading = failure.action === 'observe';
  writeFailure(plan, apiKey, {
    reason: reading ? FailureReason.secretReadError : FailureReason.creationFailed,
    message: reading
      ? `Secret ${apiKey.metadata.namespace}/${apiKey.spec.secretRef.name} could not be read: ${failure.message}`
      : `${failure.step} failed: ${failure.message}`,
  }, now);
  return plan.build();
}

/** An APIKey whose spec we cannot read: say so in a Warning event (its status belongs to the devportal). */
export function reportInvalid(object: KubeObject, failure: DecodeFailure): Plan<APIKeyAction> {
  const plan = new PlanBuilder<APIKeyAction>();
  plan.add(
    {
      kind: 'k8s.event',
      regarding: { type: apiKeyType, namespace: object.metadata.namespace, name: object.metadata.name, uid: object.metadata.uid },
      type: 'Warning',
      reason: 'InvalidSpec',
      note: `invalid spec: ${failure.message}`,
      action: 'Validate',
    },
    'tell people why no enforcement Secret is managed',
  );
  return plan.build();
}

/** When an APIKey is gone, so is its enforcement Secret (no owner reference can cross namespaces). */
export function orphanPlan(secret: KubeObject, reason: string): Plan<APIKeyAction> {
  const plan = new PlanBuilder<APIKeyAction>();
  const ref: ObjectRef = { type: coreTypes.secret, namespace: secret.metadata.namespace, name: secret.metadata.name };
  plan.add({ kind: 'k8s.delete', ref, precondition: { uid: secret.metadata.uid ?? '' } }, reason);
  return plan.build();
}
