import { deepEqual, type EventAction, type ObjectTemplate, type PlanSteps, type StatusAction, type Template } from '@keyward/kernel/plan';
import { type ObjectRef } from '@keyward/kernel';
import { readinessConditions, type Readiness } from '../readiness.js';
import { keycloakClientType } from '../types.js';
import type { KeycloakClient, KeycloakClientStatus } from './spec.js';

/** Status fields a reconcile sets; values may be known only after a step (the id of a client it creates). */
export type StatusChanges = { readonly [K in keyof KeycloakClientStatus]?: KeycloakClientStatus[K] | Template | undefined };

export const clientObjectRef = (namespace: string, name: string): ObjectRef => ({ type: keycloakClientType, namespace, name });
export const clientRef = (client: KeycloakClient): ObjectRef => clientObjectRef(client.metadata.namespace, client.metadata.name);

export const ready = (reason: string, message: string): Readiness => ({ state: 'ready', reason, message });
export const reconciling = (reason: string, message: string): Readiness => ({ state: 'reconciling', reason, message });
export const stalled = (reason: string, message: string): Readiness => ({ state: 'stalled', reason, message });

/** The status `changes` and `readiness` make of `current`; fields set to undefined are dropped. */
export function statusWith(current: KeycloakClientStatus, generation: number | undefined, readiness: Readiness, now: Date, changes: StatusChanges = {}): ObjectTemplate {
  const merged = Object.entries({ ...current, ...changes }).filter(([, value]) => value !== undefined);
  return {
    ...(Object.fromEntries(merged) as Record<string, Template>),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    conditions: readinessConditions(current.conditions, readiness, generation, now),
  };
}

/** Adds the status write, only when the status differs; says whether it did. */
export function addClientStatus(plan: PlanSteps<StatusAction>, client: KeycloakClient, readiness: Readiness, now: Date, changes: StatusChanges = {}): boolean {
  const status = statusWith(client.status, client.metadata.generation, readiness, now, changes);
  if (deepEqual(client.status, status)) return false;
  plan.add({ kind: 'k8s.status', ref: clientRef(client), status, observed: client.status }, `record where the client stands (${readiness.reason})`);
  return true;
}

/** A Warning event telling people what is wrong (`readiness` names the reason). */
export function addWarning(plan: PlanSteps<EventAction>, regarding: ObjectRef & { readonly uid?: string | undefined }, readiness: Readiness): void {
  plan.add({ kind: 'k8s.event', regarding, type: 'Warning', reason: readiness.reason, note: readiness.message, action: 'Reconcile' }, 'tell people what went wrong');
}
