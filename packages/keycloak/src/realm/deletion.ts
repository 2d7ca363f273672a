import type { Finalizer } from '@keyward/kernel/plan';
import type { Observed, PlanBuilder } from '@keyward/kernel';
import type { KeycloakConfig } from '../config.js';
import { ownershipOf } from '../ownership.js';
import { reservedRealm } from '../reserved.js';
import { REALM_FINALIZER } from '../types.js';
import type { RealmQueries } from './types.js';
import { stalled } from './readiness.js';
import { keycloakCall } from '../server.js';
import type { KeycloakRealm } from './spec.js';
import { realmRef, reportReadiness } from './status.js';
import type { KeycloakRealmAction } from './vocabulary.js';


/** The finalizer that keeps a KeycloakRealm until its realm is deleted or retained. */
export function realmFinalizer(cr: KeycloakRealm): Finalizer {
  return { ref: realmRef(cr), name: REALM_FINALIZER, purpose: 'keep the object until its realm is deleted or retained' };
}

/**
 * A deleted KeycloakRealm's cleanup (see cleanUp): its realm is deleted in Keycloak when it is ours and the
 * policy says Delete, and only then may the finalizer go. A failed delete fails the plan, so the finalizer stays
 * and deletion is retried; only a realm that is gone (404) counts as deleted. Someone else's realm, or one
 * retained, is left. Why the finalizer may go, or undefined to keep it.
 */
export function planDeletion(plan: PlanBuilder<KeycloakRealmAction>, cr: KeycloakRealm, observed: Observed<RealmQueries>, config: KeycloakConfig, now: Date): string | undefined {
  const name = cr.spec.realmName;
  if (reservedRealm(name) !== undefined) {
    // Even one this object was let adopt before adoption was scoped: Keycloak's admin realm is never deleted.
    return `realm ${name} is Keycloak's admin realm; it is left in Keycloak`;
  }
  if (cr.spec.deletionPolicy === 'Retain') return `the deletion policy retains realm ${name} in Keycloak`;
  const call = keycloakCall(config, cr.metadata.namespace);
  if (call === undefined) {
    const message = `realm ${name} cannot be deleted: no Keycloak is configured; configure one, or set deletionPolicy to Retain`;
    reportReadiness(plan, cr, stalled('NoKeycloak', message), now);
    return undefined;
  }
  const current = observed.realm;
  if (current === undefined) return `realm ${name} does not exist in Keycloak`;
  if (ownershipOf(current.realm.attributes, cr.metadata).kind !== 'ours') return `realm ${name} is not this object's; it is left in Keycloak`;
  plan.add({ kind: 'keycloak.delete', ...call, resource: { type: 'realm', realm: name } }, 'its KeycloakRealm is deleted and the deletion policy is Delete');
  return `realm ${name} is deleted`;
}
