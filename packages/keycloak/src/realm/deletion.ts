import type { Observed, PlanBuilder } from '@keyward/vocabulary';
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


/**
 * A deleted KeycloakRealm: its realm is deleted in Keycloak when it is ours and the policy says Delete, and
 * only then is the finalizer removed. A failed delete fails the plan, so the finalizer stays and deletion is
 * retried; only a realm that is gone (404) counts as deleted. Someone else's realm, or one retained, is left.
 */
export function planDeletion(plan: PlanBuilder<KeycloakRealmAction>, cr: KeycloakRealm, observed: Observed<RealmQueries>, config: KeycloakConfig, now: Date): void {
  if (cr.metadata.finalizers?.includes(REALM_FINALIZER) !== true) return;
  const name = cr.spec.realmName;
  const release = (reason: string): void => {
    plan.add({ kind: 'k8s.removeFinalizer', ref: realmRef(cr), finalizer: REALM_FINALIZER }, reason);
  };
  if (reservedRealm(name) !== undefined) {
    // Even one this object was let adopt before adoption was scoped: Keycloak's admin realm is never deleted.
    release(`realm ${name} is Keycloak's admin realm; it is left in Keycloak`);
    return;
  }
  if (cr.spec.deletionPolicy === 'Retain') {
    release(`the deletion policy retains realm ${name} in Keycloak`);
    return;
  }
  const call = keycloakCall(config, cr.metadata.namespace);
  if (call === undefined) {
    const message = `realm ${name} cannot be deleted: no Keycloak is configured; configure one, or set deletionPolicy to Retain`;
    reportReadiness(plan, cr, stalled('NoKeycloak', message), now);
    return;
  }
  const current = observed.realm;
  if (current === undefined) {
    release(`realm ${name} does not exist in Keycloak`);
    return;
  }
  if (ownershipOf(current.realm.attributes, cr.metadata).kind !== 'ours') {
    release(`realm ${name} is not this object's; it is left in Keycloak`);
    return;
  }
  plan.add({ kind: 'keycloak.delete', ...call, resource: { type: 'realm', realm: name } }, 'its KeycloakRealm is deleted and the deletion policy is Delete');
  release(`realm ${name} is deleted`);
}
