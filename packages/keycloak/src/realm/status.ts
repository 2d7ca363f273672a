import { addStatusIfChanged, type EventAction, type PlanSteps, type StatusAction } from '@keyward/kernel/plan';
import type { ObjectRef } from '@keyward/kernel';
import { isNewProblem } from '../problems.js';
import { readinessConditions, type Readiness } from '../readiness.js';
import { keycloakRealmType } from '../types.js';
import type { RealmEndpoints } from '../endpoints.js';
import type { RealmManaged } from './managed.js';
import type { KeycloakRealm, KeycloakRealmStatus } from './spec.js';
import { federationStatusFields, withoutFederationStatus, type FederationStatus } from './user-federation/status.js';
import { idpStatusFields, withoutIdpStatus, type IdpStatus } from './identity-providers/status.js';

export function realmRef(cr: { readonly metadata: { readonly namespace?: string; readonly name: string } }): ObjectRef {
  return { type: keycloakRealmType, namespace: cr.metadata.namespace ?? '', name: cr.metadata.name };
}

/** What a reconcile found out about the realm in Keycloak, for status; absent fields keep what status has. */
export interface RealmFacts {
  readonly realmId?: string | undefined;
  readonly endpoints?: RealmEndpoints | undefined;
  /** null: the spec sends no SMTP password, so no version is kept. */
  readonly smtpPasswordVersion?: string | null;
  /** null: nothing is managed any more. */
  readonly managed?: RealmManaged | null;
  /** The required actions this object registered; empty: none, so none is kept. */
  readonly registeredRequiredActions?: readonly string[];
  /** The identity providers' part of the status; absent: keep what status has. */
  readonly identityProviders?: IdpStatus | undefined;
  /** The user federation part of the status; absent: keep what status has. */
  readonly userFederation?: FederationStatus | undefined;
  /** The generation Keycloak refused; null: none (Keycloak took the spec); absent: keep what status has. */
  readonly refusedGeneration?: number | null;
}

/**
 * The status for `readiness` and `facts`, starting from `current`; built from the same fields readRealmStatus
 * keeps, so an unchanged status compares equal and is not written.
 */
export function realmStatus(current: KeycloakRealmStatus, readiness: Readiness, generation: number | undefined, now: Date, facts: RealmFacts = {}): KeycloakRealmStatus {
  const { smtpPasswordVersion: _version, managed: _managed, registeredRequiredActions: _registered, refusedGeneration: _refused, ...kept } = current;
  const withoutIdp = facts.identityProviders === undefined ? kept : withoutIdpStatus(kept);
  const rest = facts.userFederation === undefined ? withoutIdp : withoutFederationStatus(withoutIdp);
  const registered = facts.registeredRequiredActions ?? current.registeredRequiredActions ?? [];
  const version = facts.smtpPasswordVersion === undefined ? current.smtpPasswordVersion : facts.smtpPasswordVersion ?? undefined;
  const managed = facts.managed === undefined ? current.managed : facts.managed ?? undefined;
  const refused = facts.refusedGeneration === undefined ? current.refusedGeneration : facts.refusedGeneration ?? undefined;
  return {
    ...rest,
    conditions: readinessConditions(current.conditions, readiness, generation, now),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    ...(facts.realmId === undefined ? {} : { realmId: facts.realmId }),
    ...(facts.endpoints === undefined ? {} : { endpoints: facts.endpoints }),
    ...(version === undefined ? {} : { smtpPasswordVersion: version }),
    ...(managed === undefined || Object.keys(managed).length === 0 ? {} : { managed }),
    ...(registered.length === 0 ? {} : { registeredRequiredActions: registered }),
    message: readiness.message,
    ...(managed === undefined ? {} : { managed }),
    ...(facts.identityProviders === undefined ? {} : idpStatusFields(facts.identityProviders)),
    ...(facts.userFederation === undefined ? {} : federationStatusFields(facts.userFederation)),
    ...(refused === undefined ? {} : { refusedGeneration: refused }),
  };
}

/** Writes the status for `readiness` only when it differs from the stored one. */
export function reportReadiness(plan: PlanSteps<StatusAction>, cr: KeycloakRealm, readiness: Readiness, now: Date, facts?: RealmFacts): void {
  addStatusIfChanged(plan, realmRef(cr), cr.status, realmStatus(cr.status, readiness, cr.metadata.generation, now, facts), `report: ${readiness.message}`);
}

/**
 * Reports a problem: the status, and a Warning event when the problem is new to the Ready condition (or to
 * this spec), so people are told once per transition rather than on every retry or resync.
 */
export function reportProblem(plan: PlanSteps<StatusAction | EventAction>, cr: KeycloakRealm, readiness: Readiness, now: Date, facts?: RealmFacts): void {
  const news = isNewProblem(cr.status.conditions, readiness, cr.metadata.generation);
  reportReadiness(plan, cr, readiness, now, facts);
  if (!news) return;
  plan.add({ kind: 'k8s.event', regarding: { ...realmRef(cr), uid: cr.metadata.uid }, type: 'Warning', reason: readiness.reason, note: readiness.message, action: 'Reconcile' }, 'tell people why nothing is changed');
}
