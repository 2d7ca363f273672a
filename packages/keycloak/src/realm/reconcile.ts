import { PlanBuilder, type KubeObject, type Plan } from '@keyward/kernel';
import { cleanUp, withFinalizer } from '@keyward/kernel/plan';
import type { KeycloakCall } from '../apis/keycloak/actions.js';
import { mayAdopt } from '../adoption.js';
import { ADMIN_GRANT_REASON, adminGrantMessage, adminRoleGrants } from './admin-grants.js';
import { claimRealm, type RealmClaim } from './claim.js';
import { planClientPolicies } from './client-policies.js';
import { planContents } from './contents.js';
import { toManaged } from './managed.js';
import { planDeletion, realmFinalizer } from './deletion.js';
import { planAuthentication } from './flows/plan.js';
import { planRequiredActions } from './required-actions/plan.js';
import { prunesWhenEmpty } from '../prune.js';
import { desiredRealm } from './desired.js';
import { addDriftReport } from '../drift.js';
import { diffRealm, realmCreation } from './diff.js';
import type { RealmInput } from './types.js';
import { ready, reconciling, stalled } from './readiness.js';
import { realmEndpoints } from '../endpoints.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import { KEYCLOAK_CLIENTS } from '../reserved.js';
import type { KeycloakRealm } from './spec.js';
import { realmRef, reportProblem, reportReadiness } from './status.js';
import { realmSecretsProblem } from './secret-opt-in.js';
import { realmSecretUses } from './secret-uses.js';
import { planRealmIdentityProviders } from './identity-providers/reconcile.js';
import { planRealmUserFederation } from './user-federation/reconcile.js';
import { organizationsPruneWhenEmpty, planRealmOrganizations } from './organizations/plan.js';
import type { KeycloakRealmAction } from './vocabulary.js';
import { upstreamSpellingsNote } from '../upstream-spellings.js';
import { CLIENT_WAIT_CHECK_MS, WAITING_FOR_CLIENT, describeWaits, withoutMissingClients } from './client-waits.js';

/** Whether the operator lets this object take over its realm, or flows in it, that no object made. */
const adoptsUnowned = ({ primary: cr, config }: RealmInput): boolean => mayAdopt(config.keycloakAdoptUnownedNamespaces, cr.metadata.namespace, cr.spec.realmName);

/** Whether the SMTP password is due again: its Secret changed since the password was last sent. */
function passwordChanged(cr: KeycloakRealm, secret: KubeObject | undefined): boolean {
  return secret !== undefined && secret.metadata.resourceVersion !== cr.status.smtpPasswordVersion;
}

/** Creates the realm, or updates the fields that differ; adds nothing when Keycloak has the spec's values. */
function planRealm(plan: PlanBuilder<KeycloakRealmAction>, input: RealmInput, call: KeycloakCall, claim: Exclude<RealmClaim, { kind: 'refused' }>): void {
  const { primary: cr, observed } = input;
  const desired = desiredRealm(cr, observed.smtpPasswordSecret);
  const resource = { type: 'realm', realm: cr.spec.realmName } as const;
  if (claim.kind === 'create' || observed.realm === undefined) {
    plan.add({ kind: 'keycloak.create', ...call, resource, ...realmCreation(desired) }, 'no realm of this name exists in Keycloak');
    return;
  }
  const change = diffRealm(desired, observed.realm.realm, passwordChanged(cr, observed.smtpPasswordSecret));
  if (change === undefined) return;
  const reason = claim.adopted ? 'adopt the realm no object owns, as the operator is told to' : 'the realm differs from the spec';
  plan.add({ kind: 'keycloak.update', ...call, resource, ...change }, reason);
}

/**
 * The steady state: the realm and its contents brought to the spec, then the status. A plan that writes to
 * Keycloak reports Reconciling: the status write wakes the next reconcile, which reads the realm back and
 * reports Ready once Keycloak holds what the spec says (a converged realm then writes nothing at all).
 */
function planManaged(plan: PlanBuilder<KeycloakRealmAction>, input: RealmInput, call: KeycloakCall, url: string, claim: Exclude<RealmClaim, { kind: 'refused' }>): void {
  const { primary: cr, observed, now } = input;
  const realm = cr.spec.realmName;
  planRealm(plan, input, call, claim);
  // What names a client the realm lacks waits (a new realm has only Keycloak's own); the rest goes on, and
  // status gets the id.
  const { spec: contentsSpec, waits } = withoutMissingClients(cr.spec, observed.realm === undefined ? KEYCLOAK_CLIENTS : observed.realm.clients);
  const contents = planContents({ plan, call, realm }, contentsSpec, observed.realm, cr.status.managed);
  const policies = planClientPolicies({ plan, call, realm }, cr.spec, observed.realm?.realm, cr.status.managed);
  const managed = toManaged({ ...contents, clientProfiles: policies.clientProfiles, clientPolicies: policies.clientPolicies });
  const registeredRequiredActions = planRequiredActions({ plan, call, realm }, cr.spec.requiredActions ?? [], prunesWhenEmpty(cr.spec.pruneUnlisted, 'requiredActions'), observed.realm?.requiredActions, cr.status.registeredRequiredActions ?? []);
  const flowProblems = observed.realm === undefined ? [] : planAuthentication({ plan, call, realm }, cr.spec, observed.realm.authenticationFlows, observed.realm.realm, adoptsUnowned(input));
  const identityProviders = planRealmIdentityProviders({ plan, call, realm }, input);
  const userFederation = planRealmUserFederation({ plan, call, realm }, input);
  const organizationsProblem = planRealmOrganizations({ plan, call, realm }, cr.spec, observed.realm, organizationsPruneWhenEmpty(cr.spec));
  const secret = observed.smtpPasswordSecret;
  const facts = {
    realmId: observed.realm?.realm.id,
    endpoints: realmEndpoints(url, realm),
    smtpPasswordVersion: cr.spec.smtpServer?.passwordSecret === undefined ? null : secret?.metadata.resourceVersion ?? null,
    registeredRequiredActions,
    managed: managed ?? null,
    // Keycloak is sent this spec: a refusal of an earlier one is over.
    refusedGeneration: null,
    identityProviders,
    userFederation,
  };
  const readiness = flowProblems.length > 0
    ? stalled('AuthenticationFlowRefused', flowProblems.join('; '))
    : organizationsProblem !== undefined
    ? stalled('OrganizationsDisabled', organizationsProblem)
    : waits.length > 0
    ? reconciling(WAITING_FOR_CLIENT, `realm ${realm}: ${describeWaits(waits)}`)
    : plan.size > 0
    ? reconciling('Applying', `applying ${String(plan.size)} change${plan.size === 1 ? '' : 's'} to realm ${realm} in Keycloak`)
    : ready(`realm ${realm} matches the spec${upstreamSpellingsNote(cr.spec)}`);
  reportReadiness(plan, cr, readiness, now, facts);
  // A KeycloakClient that makes the client wakes the realm; one made otherwise is found by this check. A realm
  // this plan creates is read back by the next reconcile, which its status write wakes.
  if (waits.length > 0 && observed.realm !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: CLIENT_WAIT_CHECK_MS }, 'look again for the clients the spec names');
}

/** The pure reconcile of a KeycloakRealm. */
export function reconcile(input: RealmInput): Plan<KeycloakRealmAction> {
  const { primary: cr, observed, config, now } = input;
  const plan = new PlanBuilder<KeycloakRealmAction>();
  if (isAnotherOperators(cr.spec.operatorRef, config)) {
    // Its operatorRef may have moved it here from us: our finalizer must not keep it from being deleted.
    cleanUp(plan, cr, realmFinalizer(cr), () => `the operator in namespace ${cr.spec.operatorRef?.namespace ?? ''} manages this realm`);
    return plan.build();
  }
  withFinalizer(plan, cr, realmFinalizer(cr), { apply: () => { reconcileHeld(plan, input); }, cleanup: () => planDeletion(plan, cr, observed, config, now) });
  return plan.build();
}

/** A KeycloakRealm that holds the finalizer and is not being deleted. */
function reconcileHeld(plan: PlanBuilder<KeycloakRealmAction>, input: RealmInput): void {
  const { primary: cr, observed, config, now } = input;
  const call = keycloakCall(config, cr.metadata.namespace);
  if (call === undefined || config.keycloakUrl === undefined) {
    reportReadiness(plan, cr, stalled('NoKeycloak', 'no Keycloak configured: the operator has no Keycloak URL or admin credentials Secret'), now);
    return;
  }
  const secretsProblem = realmSecretsProblem(realmSecretUses(cr, observed), cr.metadata.namespace, cr.spec.realmName);
  if (secretsProblem !== undefined) {
    reportReadiness(plan, cr, secretsProblem, now);
    return;
  }
  const claim = claimRealm(cr.spec.realmName, observed.realm?.realm, cr.metadata, adoptsUnowned(input));
  if (claim.kind === 'refused') {
    reportProblem(plan, cr, stalled(claim.reason, claim.message), now);
    return;
  }
  const adminGrants = adminRoleGrants(cr.spec, observed.realm?.roles, observed.grantReach);
  if (adminGrants.length > 0) {
    reportProblem(plan, cr, stalled(ADMIN_GRANT_REASON, adminGrantMessage(cr.spec.realmName, adminGrants)), now);
    return;
  }
  planManaged(plan, input, call, config.keycloakUrl, claim);
  addDriftReport(plan, cr, realmRef(cr), `realm ${cr.spec.realmName}`);
}
