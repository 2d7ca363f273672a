import { addStatusIfChanged, type PlanSteps, type StatusAction } from '@keyward/vocabulary';
import type { ObjectRef } from '@keyward/vocabulary';
import { readinessConditions, type Readiness } from '../readiness.js';
import { keycloakRealmType } from '../types.js';
import type { RealmEndpoints } from '../endpoints.js';
import type { KeycloakRealm, KeycloakRealmStatus } from './spec.js';
import { idpStatusFields, withoutIdpStatus, type IdpStatus } from './idp-status.js';

export function realmRef(cr: { readonly metadata: { readonly namespace?: string; readonly name: string } }): ObjectRef {
  return { type: keycloakRealmType, namespace: cr.metadata.namespace ?? '', name: cr.metadata.name };
}

/** What a reconcile found out about the realm in Keycloak, for status; absent fields keep what status has. */
export interface RealmFacts {
  readonly realmId?: string | undefined;
  readonly endpoints?: RealmEndpoints | undefined;
  /** null: the spec sends no SMTP password, so no version is kept. */
  readonly smtpPasswordVersion?: string | null;
  /** The identity providers' part of the status; absent: keep what status has. */
  readonly identityProviders?: IdpStatus | undefined;
}

/**
 * The status for `readiness` and `facts`, starting from `current`; built from the same fields readRealmStatus
 * keeps, so an unchanged status compares equal and is not written.
 */
export function realmStatus(current: KeycloakRealmStatus, readiness: Readiness, generation: number | undefined, now: Date, facts: RealmFacts = {}): KeycloakRealmStatus {
  const { smtpPasswordVersion: _version, ...kept } = current;
  const rest = facts.identityProviders === undefined ? kept : withoutIdpStatus(kept);
  const version = facts.smtpPasswordVersion === undefined ? current.smtpPasswordVersion : facts.smtpPasswordVersion ?? undefined;
  return {
    ...rest,
    conditions: readinessConditions(current.conditions, readiness, generation, now),
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    ...(facts.realmId === undefined ? {} : { realmId: facts.realmId }),
    ...(facts.endpoints === undefined ? {} : { endpoints: facts.endpoints }),
    ...(version === undefined ? {} : { smtpPasswordVersion: version }),
    message: readiness.message,
    ...(facts.identityProviders === undefined ? {} : idpStatusFields(facts.identityProviders)),
  };
}

/** Writes the status for `readiness` only when it differs from the stored one. */
export function reportReadiness(plan: PlanSteps<StatusAction>, cr: KeycloakRealm, readiness: Readiness, now: Date, facts?: RealmFacts): void {
  addStatusIfChanged(plan, realmRef(cr), cr.status, realmStatus(cr.status, readiness, cr.metadata.generation, now, facts), `report: ${readiness.message}`);
}
