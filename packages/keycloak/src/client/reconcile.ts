import { PlanBuilder, type Plan, type ReconcileInput, type Sensitive } from '@keyward/kernel';
import { addFreshnessGuard, withFinalizer, type Finalizer, type Value } from '@keyward/kernel/plan';
import { refusedJsPolicies } from './js-policy-guard.js';
import type { ClientAddress, KeycloakCall } from '../apis/keycloak/actions.js';
import type { ObservedClient } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { mayAdopt } from '../adoption.js';
import { ownershipOf, type OwnerObject } from '../ownership.js';
import { RESERVED_REASON, reservedClient } from '../reserved.js';
import { claimClient } from './claim.js';
import { isNewProblem } from '../problems.js';
import type { Readiness } from '../readiness.js';
import { CLIENT_FINALIZER } from '../types.js';
import { reconcileContents } from './contents.js';
import { addDriftReport } from '../drift.js';
import { realmEndpoints } from '../endpoints.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import type { ClientQueries } from './observe.js';
import { differs, providedSecretRef, secretValue } from './provided-secret.js';
import { describeRealmObject, grantFor, readRealm, realmObjectRef } from './realm.js';
import { REALM_ANNOTATION, recordedRealm } from './recorded-realm.js';
import { clientChanges, creationBody, desiredClient } from './representation.js';
import { forbiddenServiceAccountRoles } from './role-guard.js';
import { knownFrom } from '../known-roles.js';
import { resolveFlowOverrides, type FlowOverrides } from './flow-overrides.js';
import { rotatedSecretStep } from './rotated-secret.js';
import { renewalOnCreation, secretRenewal, type SecretRenewal } from './rotation.js';
import { upstreamSpellingsNote } from '../upstream-spellings.js';
import { addCredentialsSecret, credentialsSecretNameOf, managesSecret, newClientSecret } from './secret.js';
import type { KeycloakClient, ManagedLists } from './spec.js';
import { addClientStatus, addWarning, clientRef, ready, reconciling, stalled, type StatusChanges } from './status.js';
import type { ClientAction } from './vocabulary.js';

export type ClientInput = ReconcileInput<KeycloakClient, ClientQueries, KeycloakConfig>;

/** How soon to look again after a step whose result the next reconcile reads (a new client, its secret). */
export const FOLLOW_UP_MS = 2_000;

type Builder = PlanBuilder<ClientAction>;

/** Everything a reconcile that reached Keycloak knows: the realm, how to call Keycloak, and whose the client is. */
interface Resolved {
  readonly input: ClientInput;
  readonly realm: string;
  readonly url: string;
  readonly call: KeycloakCall;
  readonly owner: OwnerObject;
  /** The provided client secret, when the spec names one (its Secret was found). */
  readonly provided: Sensitive | undefined;
  /** The spec's flow overrides as flow ids, when it states them. */
  readonly flowOverrides: FlowOverrides | undefined;
}

const ownerOf = (client: KeycloakClient): OwnerObject => ({ namespace: client.metadata.namespace, name: client.metadata.name });

const describeClient = (client: KeycloakClient, realm: string): string => `client ${client.spec.clientId} in realm ${realm}`;

/** Where a reconcile stops before Keycloak: what status says, and whether to look again soon. */
interface Stop {
  readonly readiness: Readiness;
  readonly changes?: StatusChanges;
  readonly followUp?: string;
  /** Tell people with a Warning event too (once: when the problem is new to the Ready condition). */
  readonly warn?: boolean;
  /** The realm to record before the client is read from Keycloak in it (see recordedRealm). */
  readonly records?: string;
}

const stop = (readiness: Readiness, changes?: StatusChanges, followUp?: string): Stop => ({ readiness, ...(changes === undefined ? {} : { changes }), ...(followUp === undefined ? {} : { followUp }) });

/**
 * Service-account roles the operator is not allowed to grant: the spec must change, or the operator's option.
 * Composites are known from the recorded realm (read there), never from another realm's.
 */
function forbiddenRoles(input: ClientInput, realm: string): Stop | undefined {
  const { primary: client, observed, config } = input;
  const reach = recordedRealm(client) === realm ? observed.grantReach : undefined;
  const forbidden = forbiddenServiceAccountRoles(realm, client.spec.serviceAccountRoles, config.keycloakAllowedServiceAccountRoles, knownFrom(reach).compositesOf);
  if (forbidden.length === 0) return undefined;
  const message = `spec.serviceAccountRoles lists ${forbidden.join(', ')}, which the operator does not grant (they administer the realm or impersonate its users); `
    + 'remove them, or have the operator started with --keycloak-allowed-service-account-roles naming them. Nothing is changed in Keycloak until then';
  return { readiness: stalled('ForbiddenServiceAccountRoles', message), warn: true };
}

/**
 * The gates before Keycloak is touched, in order: the realm object exists, states a realm and grants the
 * client's namespace; the realm is ready; the realm is recorded (the client is read from Keycloak in it from
 * the next reconcile on, so no client is looked up in a realm not there yet); Keycloak is configured;
 * a provided client secret can be read. A stop writes status only: no Keycloak writes, and the credentials
 * Secret is left as it is.
 */
function resolve(input: ClientInput): Resolved | Stop {
  const { primary: client, observed, config } = input;
  const ref = realmObjectRef(client);
  if (observed.realm === undefined) return stop(reconciling('RealmNotFound', `realm object ${describeRealmObject(ref)} not found`));
  const realm = readRealm(observed.realm);
  if (realm.realmName === undefined) return stop(stalled('RealmInvalid', `realm object ${describeRealmObject(ref)} states no spec.realmName`));
  const reserved = reservedClient(realm.realmName, client.spec.clientId);
  if (reserved !== undefined) return { readiness: stalled(RESERVED_REASON, reserved), warn: true };
  const grant = grantFor(realm, ref, client.metadata.namespace);
  if (!grant.granted) return { readiness: stalled('NotAuthorized', grant.message), warn: true };
  const forbidden = forbiddenRoles(input, realm.realmName);
  if (forbidden !== undefined) return forbidden;
  const jsRefused = refusedJsPolicies(client.spec, config.keycloakAllowJsPolicies);
  if (jsRefused !== undefined) return { readiness: stalled('JavaScriptPoliciesNotAllowed', jsRefused), warn: true };
  if (!realm.exists) return stop(reconciling('WaitingForRealm', `waiting for KeycloakRealm ${describeRealmObject(ref)} to make its realm in Keycloak`));
  if (recordedRealm(client) !== realm.realmName) {
    const found = stop(reconciling('RealmFound', `realm ${realm.realmName} found; reading the client from Keycloak`), { realm: realm.realmName }, 'read the client from Keycloak in the realm now recorded');
    return { ...found, records: realm.realmName };
  }
  const call = keycloakCall(config, client.metadata.namespace);
  if (call === undefined) return stop(stalled('KeycloakNotConfigured', 'no Keycloak is configured (URL and admin credentials Secret)'));
  let provided: Sensitive | undefined;
  if (client.spec.clientSecret !== undefined) {
    const { name, key } = client.spec.clientSecret;
    if (observed.providedSecret === undefined) return stop(reconciling('SecretNotFound', `Secret ${client.metadata.namespace}/${name} with the client secret not found`));
    provided = secretValue(observed.providedSecret, key);
    if (provided === undefined) return stop(stalled('SecretKeyNotFound', `Secret ${client.metadata.namespace}/${name} has no key ${key}`));
  }
  const flows = resolveFlowOverrides(client.spec, observed.flows, realm.realmName);
  // The realm object changes once its realm has the flow, and wakes the client.
  if (!flows.ok) return stop(stalled('FlowNotFound', flows.message));
  return { input, realm: realm.realmName, url: call.server.url, call, owner: ownerOf(client), provided, flowOverrides: flows.overrides };
}

function secretFieldsOf(client: KeycloakClient) {
  const ref = providedSecretRef(client);
  return ref === undefined ? {} : { secretFields: { secret: ref } };
}

/** Status fields every reconcile that reached Keycloak states. */
function reachedStatus(resolved: Resolved, id: Value<string>, renewal: SecretRenewal | undefined, managed: ManagedLists): StatusChanges {
  return {
    realm: resolved.realm,
    clientUuid: id,
    endpoints: realmEndpoints(resolved.url, resolved.realm),
    ...(renewal === undefined ? {} : { lastSecretRotation: renewal.lastSecretRotation, secretRegeneratedFor: renewal.secretRegeneratedFor }),
    managed: Object.keys(managed).length === 0 ? undefined : managed,
    // Reached Keycloak with this spec: a refusal of an earlier one is over.
    refusedGeneration: undefined,
  };
}

/**
 * Creates the client, then its contents (addressed by the new id), and its credentials Secret: a
 * confidential client gets the provided secret or a new one chosen here, so nothing has to be read back.
 */
function create(plan: Builder, resolved: Resolved): void {
  const { primary: client, observed, now, entropy } = resolved.input;
  const { spec } = client;
  const confidential = spec.publicClient !== true;
  const chosen = confidential && resolved.provided === undefined ? newClientSecret(entropy) : undefined;
  const created = plan.add(
    {
      kind: 'keycloak.create',
      ...resolved.call,
      resource: { type: 'client', realm: resolved.realm, clientId: spec.clientId },
      body: { ...creationBody(spec.clientId, desiredClient(spec, resolved.owner, resolved.flowOverrides)), ...(chosen === undefined ? {} : { secret: chosen }) },
      ...secretFieldsOf(client),
    },
    `no ${describeClient(client, resolved.realm)} exists yet`,
  );
  const id = created.output('id');
  const address: ClientAddress = { realm: resolved.realm, clientId: spec.clientId, id };
  const managed = reconcileContents({ plan, call: resolved.call, client: address }, spec, undefined, undefined);
  addCredentialsSecret(plan, client, observed.credentials, { url: resolved.url, realm: resolved.realm, secret: confidential ? (resolved.provided ?? chosen) : undefined });
  const renewal = confidential ? renewalOnCreation(client, now) : undefined;
  addClientStatus(plan, client, ready('Ready', `${describeClient(client, resolved.realm)} is as specified${upstreamSpellingsNote(spec)}`), now, {
    ...reachedStatus(resolved, id, renewal, managed),
    ...(managesSecret(client) ? { secretName: credentialsSecretNameOf(client) } : {}),
  });
  if (renewal?.requeueAfterMs !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: renewal.requeueAfterMs }, 'rotate the client secret when its period ends');
}

/**
 * Brings a client of ours to the spec: only what differs is written, so a converged client makes no write
 * of any kind. Keycloak holds the secret: the credentials Secret follows it, and is rewritten at once after
 * a regeneration (with the new secret as the regeneration's output).
 */
function maintain(plan: Builder, resolved: Resolved, found: ObservedClient): void {
  const { primary: client, observed, now } = resolved.input;
  const { spec } = client;
  const address: ClientAddress = { realm: resolved.realm, clientId: spec.clientId, id: found.client.id };
  const changes = clientChanges(desiredClient(spec, resolved.owner, resolved.flowOverrides), found.client);
  const push = resolved.provided !== undefined && differs(resolved.provided, found.secret);
  if (changes.changed.length > 0 || push) {
    plan.add(
      {
        kind: 'keycloak.update',
        ...resolved.call,
        resource: { type: 'client', realm: resolved.realm, clientId: spec.clientId, id: found.client.id },
        body: changes.body,
        ...(push ? secretFieldsOf(client) : {}),
        changed: [...changes.changed, ...(push ? ['secret'] : [])],
      },
      `${describeClient(client, resolved.realm)} differs from the spec`,
    );
  }
  const managed = reconcileContents({ plan, call: resolved.call, client: address }, spec, found, client.status.managed);

  const confidential = (spec.publicClient ?? found.client['publicClient']) !== true;
  const renewal = confidential ? secretRenewal(client, now) : undefined;
  let secret: Value<Sensitive> | undefined;
  let waiting: string | undefined;
  if (renewal !== undefined && renewal.reasons.length > 0) {
    // A regeneration cannot be taken back, and a reconcile may start from a cached object that does not yet
    // show the status recording the last one (status.secretRegeneratedFor, lastSecretRotation): it would
    // regenerate again for the same token. The guard stops such a plan before Keycloak is touched.
    addFreshnessGuard(plan, clientRef(client), client.metadata.resourceVersion, 'regenerate only from the current object, whose status records the last regeneration');
    secret = plan.add({ kind: 'keycloak.regenerateClientSecret', ...resolved.call, client: address }, renewal.reasons.join('; ')).output('secret');
  } else if (confidential && push) {
    waiting = 'the client secret from the provided Secret was set in Keycloak; the credentials Secret follows once it is read back';
  } else if (confidential && found.secret === undefined) {
    waiting = 'waiting to read the client secret from Keycloak';
  } else if (confidential) {
    secret = found.secret;
  }
  if (waiting === undefined) addCredentialsSecret(plan, client, observed.credentials, { url: resolved.url, realm: resolved.realm, secret });
  const secretName = managesSecret(client) && (waiting === undefined || observed.credentials !== undefined) ? credentialsSecretNameOf(client) : undefined;
  const readiness = waiting === undefined ? ready('Ready', `${describeClient(client, resolved.realm)} is as specified${upstreamSpellingsNote(spec)}`) : reconciling('SecretPending', waiting);
  addClientStatus(plan, client, readiness, now, { ...reachedStatus(resolved, found.client.id, renewal, managed), secretName });
  const rotated = rotatedSecretStep(found.client.attributes, spec.secretRotation?.gracePeriod, now);
  if (rotated.kind === 'invalidate') plan.add({ kind: 'keycloak.delete', ...resolved.call, resource: { type: 'rotatedClientSecret', client: address } }, rotated.reason);
  const next: (readonly [number | undefined, string])[] = [
    [waiting === undefined ? undefined : FOLLOW_UP_MS, waiting ?? ''],
    [rotated.kind === 'wait' ? rotated.afterMs : undefined, 'invalidate the rotated secret when its grace period ends'],
    [renewal?.requeueAfterMs, 'rotate the client secret when its period ends'],
  ];
  const soonest = next.filter((entry): entry is readonly [number, string] => entry[0] !== undefined).sort(([a], [b]) => a - b)[0];
  if (soonest !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: soonest[0] }, soonest[1]);
}

/** A client in Keycloak that is not ours: nothing is changed, and its secret was never read. */
function refuse(plan: Builder, resolved: Resolved, readiness: Readiness): void {
  const { primary: client, now } = resolved.input;
  const news = isNewProblem(client.status.conditions, readiness, client.metadata.generation);
  addClientStatus(plan, client, readiness, now, { realm: resolved.realm });
  if (news) addWarning(plan, { ...clientRef(client), uid: client.metadata.uid }, readiness);
}

function reconcileInRealm(plan: Builder, resolved: Resolved): void {
  const { primary: client, observed, config } = resolved.input;
  const found = observed.client;
  const adopts = mayAdopt(config.keycloakAdoptUnownedNamespaces, client.metadata.namespace, resolved.realm);
  const claim = claimClient(resolved.realm, client.spec.clientId, found?.client, resolved.owner, adopts);
  if (claim.kind === 'refused') refuse(plan, resolved, stalled(claim.reason, claim.message));
  else if (found === undefined) create(plan, resolved);
  else maintain(plan, resolved, found);
}

/**
 * The finalizer that keeps a KeycloakClient until its client in Keycloak is deleted. A client that records no
 * realm yet records the one it found in the same patch (see recordedRealm): one write fewer than a status write
 * of it, and still before the client can exist in Keycloak.
 */
function clientFinalizer(client: KeycloakClient, found: Resolved | Stop | undefined): Finalizer {
  const purpose = 'keep the object until its client in Keycloak is deleted';
  const realm = found !== undefined && 'records' in found && recordedRealm(client) === undefined ? found.records : undefined;
  if (realm === undefined) return { ref: clientRef(client), name: CLIENT_FINALIZER, purpose };
  return { ref: clientRef(client), name: CLIENT_FINALIZER, purpose: `${purpose}, and record realm ${realm}, where it is read`, annotations: { [REALM_ANNOTATION]: realm } };
}

/**
 * Deletion's cleanup (see cleanUp): the client in Keycloak goes with the object when it is ours and the policy
 * is Delete; then the finalizer may go. A failed delete keeps the finalizer (the plan stops), so deletion is
 * retried; only a client that is gone counts as deleted. A client that is not ours, a Retain policy, or a realm
 * never recorded let the object go at once.
 */
function remove(plan: Builder, input: ClientInput): string | undefined {
  const { primary: client, observed, config, now } = input;
  const realm = recordedRealm(client);
  if (client.spec.deletionPolicy === 'Delete' && realm !== undefined) {
    const call = keycloakCall(config, client.metadata.namespace);
    if (call === undefined && client.status.clientUuid !== undefined) {
      addClientStatus(plan, client, stalled('KeycloakNotConfigured', 'the client cannot be deleted from Keycloak: no Keycloak is configured'), now);
      return undefined;
    }
    const found = observed.client;
    // Never one of Keycloak's own, even one this object was let adopt before adoption was scoped.
    if (call !== undefined && found !== undefined && ownershipOf(found.client.attributes, ownerOf(client)).kind === 'ours' && reservedClient(realm, client.spec.clientId) === undefined) {
      plan.add(
        { kind: 'keycloak.delete', ...call, resource: { type: 'client', realm, clientId: client.spec.clientId, id: found.client.id } },
        'the KeycloakClient is deleted and its deletionPolicy is Delete',
      );
    }
  }
  return 'nothing of the client is left to delete in Keycloak';
}

/** The pure reconcile of a KeycloakClient. */
export function reconcileClient(input: ClientInput): Plan<ClientAction> {
  const { primary: client, observed, config } = input;
  const plan: Builder = new PlanBuilder<ClientAction>();
  // A realm another operator manages is that operator's, clients included.
  const operatorNamespace = observed.realm === undefined ? undefined : readRealm(observed.realm).operatorNamespace;
  if (isAnotherOperators(operatorNamespace === undefined ? undefined : { namespace: operatorNamespace }, config)) return plan.build();
  const resolved = client.metadata.deletionTimestamp === undefined ? resolve(input) : undefined;
  withFinalizer(plan, client, clientFinalizer(client, resolved), { apply: () => { if (resolved !== undefined) reconcileHeld(plan, input, resolved); }, cleanup: () => remove(plan, input) });
  return plan.build();
}

/** A KeycloakClient that holds the finalizer and is not being deleted, with what resolve found. */
function reconcileHeld(plan: Builder, input: ClientInput, resolved: Resolved | Stop): void {
  const { primary: client } = input;
  if ('call' in resolved) {
    reconcileInRealm(plan, resolved);
    addDriftReport(plan, client, clientRef(client), describeClient(client, resolved.realm));
    return;
  }
  const news = isNewProblem(client.status.conditions, resolved.readiness, client.metadata.generation);
  addClientStatus(plan, client, resolved.readiness, input.now, resolved.changes);
  if (news && resolved.warn === true) addWarning(plan, { ...clientRef(client), uid: client.metadata.uid }, resolved.readiness);
  if (resolved.followUp !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: FOLLOW_UP_MS }, resolved.followUp);
}
