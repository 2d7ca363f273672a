import { PlanBuilder, addFreshnessGuard, type Plan, type ReconcileInput, type Sensitive, type Value } from '@keyward/vocabulary';
import type { ClientAddress, KeycloakCall } from '../apis/keycloak/actions.js';
import type { ObservedClient } from '../apis/keycloak/queries.js';
import type { KeycloakConfig } from '../config.js';
import { ownershipOf, type OwnerObject } from '../ownership.js';
import type { Readiness } from '../readiness.js';
import { CLIENT_FINALIZER } from '../types.js';
import { reconcileContents } from './contents.js';
import { addDriftReport } from '../drift.js';
import { realmEndpoints } from '../endpoints.js';
import { isAnotherOperators, keycloakCall } from '../server.js';
import type { ClientQueries } from './observe.js';
import { differs, providedSecretRef, secretValue } from './provided-secret.js';
import { describeRealmObject, grantFor, readRealm, realmObjectRef } from './realm.js';
import { clientChanges, creationBody, desiredClient } from './representation.js';
import { renewalOnCreation, secretRenewal, type SecretRenewal } from './rotation.js';
import { addCredentialsSecret, credentialsSecretName, newClientSecret } from './secret.js';
import type { KeycloakClient, ManagedLists } from './spec.js';
import { addClientStatus, clientRef, ready, reconciling, stalled, type StatusChanges } from './status.js';
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
}

const ownerOf = (client: KeycloakClient): OwnerObject => ({ namespace: client.metadata.namespace, name: client.metadata.name });

const describeClient = (client: KeycloakClient, realm: string): string => `client ${client.spec.clientId} in realm ${realm}`;

/** Where a reconcile stops before Keycloak: what status says, and whether to look again soon. */
interface Stop {
  readonly readiness: Readiness;
  readonly changes?: StatusChanges;
  readonly followUp?: string;
}

const stop = (readiness: Readiness, changes?: StatusChanges, followUp?: string): Stop => ({ readiness, ...(changes === undefined ? {} : { changes }), ...(followUp === undefined ? {} : { followUp }) });

/**
 * The gates before Keycloak is touched, in order: the realm object exists, states a realm and grants the
 * client's namespace; the realm is ready; status records the realm (the client is read from Keycloak in it
 * from the next reconcile on, so no client is looked up in a realm not there yet); Keycloak is configured;
 * a provided client secret can be read. A stop writes status only: no Keycloak writes, and the credentials
 * Secret is left as it is.
 */
function resolve(input: ClientInput): Resolved | Stop {
  const { primary: client, observed, config } = input;
  const ref = realmObjectRef(client);
  if (observed.realm === undefined) return stop(reconciling('RealmNotFound', `realm object ${describeRealmObject(ref)} not found`));
  const realm = readRealm(observed.realm);
  if (realm.realmName === undefined) return stop(stalled('RealmInvalid', `realm object ${describeRealmObject(ref)} states no spec.realmName`));
  const grant = grantFor(realm, ref, client.metadata.namespace);
  if (!grant.granted) return stop(stalled('NotAuthorized', grant.message));
  if (!realm.ready) return stop(reconciling('WaitingForRealm', `waiting for KeycloakRealm ${describeRealmObject(ref)} to be ready`));
  if (client.status.realm !== realm.realmName) {
    return stop(reconciling('RealmFound', `realm ${realm.realmName} found; reading the client from Keycloak`), { realm: realm.realmName }, 'read the client from Keycloak in the realm now recorded');
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
  return { input, realm: realm.realmName, url: call.server.url, call, owner: ownerOf(client), provided };
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
      body: { ...creationBody(spec.clientId, desiredClient(spec, resolved.owner)), ...(chosen === undefined ? {} : { secret: chosen }) },
      ...secretFieldsOf(client),
    },
    `no ${describeClient(client, resolved.realm)} exists yet`,
  );
  const id = created.output('id');
  const address: ClientAddress = { realm: resolved.realm, clientId: spec.clientId, id };
  const managed = reconcileContents({ plan, call: resolved.call, client: address }, spec, undefined, undefined);
  addCredentialsSecret(plan, client, observed.credentials, { url: resolved.url, realm: resolved.realm, secret: confidential ? (resolved.provided ?? chosen) : undefined });
  const renewal = confidential ? renewalOnCreation(client, now) : undefined;
  addClientStatus(plan, client, ready('Ready', `${describeClient(client, resolved.realm)} is as specified`), now, {
    ...reachedStatus(resolved, id, renewal, managed),
    secretName: credentialsSecretName(client.metadata.name),
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
  const changes = clientChanges(desiredClient(spec, resolved.owner), found.client);
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
  const secretName = waiting === undefined || observed.credentials !== undefined ? credentialsSecretName(client.metadata.name) : undefined;
  const readiness = waiting === undefined ? ready('Ready', `${describeClient(client, resolved.realm)} is as specified`) : reconciling('SecretPending', waiting);
  addClientStatus(plan, client, readiness, now, { ...reachedStatus(resolved, found.client.id, renewal, managed), secretName });
  const next = [renewal?.requeueAfterMs, waiting === undefined ? undefined : FOLLOW_UP_MS].filter((ms): ms is number => ms !== undefined);
  if (next.length > 0) plan.add({ kind: 'control.requeueAfter', afterMs: Math.min(...next) }, waiting ?? 'rotate the client secret when its period ends');
}

/** A client in Keycloak that is not ours: nothing is changed, and its secret was never read. */
function refuse(plan: Builder, resolved: Resolved, readiness: Readiness): void {
  const { primary: client, now } = resolved.input;
  addClientStatus(plan, client, readiness, now, { realm: resolved.realm });
}

function reconcileInRealm(plan: Builder, resolved: Resolved): void {
  const { primary: client, observed, config } = resolved.input;
  const found = observed.client;
  if (found === undefined) {
    create(plan, resolved);
    return;
  }
  const ownership = ownershipOf(found.client.attributes, resolved.owner);
  const what = describeClient(client, resolved.realm);
  if (ownership.kind === 'other') {
    refuse(plan, resolved, stalled('Conflict', `${what} belongs to KeycloakClient ${ownership.owner}; it is not changed, and its secret is not read`));
    return;
  }
  if (ownership.kind === 'unowned' && !config.keycloakAdoptUnowned) {
    refuse(plan, resolved, stalled('NotOwned', `${what} exists and no object owns it; it is taken over only when the operator is configured to adopt unowned clients`));
    return;
  }
  maintain(plan, resolved, found);
}

/**
 * Deletion: the client in Keycloak goes with the object when it is ours and the policy is Delete; then the
 * finalizer is removed. A failed delete keeps the finalizer (the plan stops), so deletion is retried; only
 * a client that is gone counts as deleted. A client that is not ours, a Retain policy, or a realm never
 * recorded let the object go at once.
 */
function remove(plan: Builder, input: ClientInput): void {
  const { primary: client, observed, config, now } = input;
  if (client.metadata.finalizers?.includes(CLIENT_FINALIZER) !== true) return;
  const realm = client.status.realm;
  if (client.spec.deletionPolicy === 'Delete' && realm !== undefined) {
    const call = keycloakCall(config, client.metadata.namespace);
    if (call === undefined && client.status.clientUuid !== undefined) {
      addClientStatus(plan, client, stalled('KeycloakNotConfigured', 'the client cannot be deleted from Keycloak: no Keycloak is configured'), now);
      return;
    }
    const found = observed.client;
    if (call !== undefined && found !== undefined && ownershipOf(found.client.attributes, ownerOf(client)).kind === 'ours') {
      plan.add(
        { kind: 'keycloak.delete', ...call, resource: { type: 'client', realm, clientId: client.spec.clientId, id: found.client.id } },
        'the KeycloakClient is deleted and its deletionPolicy is Delete',
      );
    }
  }
  plan.add({ kind: 'k8s.removeFinalizer', ref: clientRef(client), finalizer: CLIENT_FINALIZER }, 'nothing of the client is left to delete in Keycloak');
}

/** The pure reconcile of a KeycloakClient. */
export function reconcileClient(input: ClientInput): Plan<ClientAction> {
  const { primary: client, observed, config } = input;
  const plan: Builder = new PlanBuilder<ClientAction>();
  // A realm another operator manages is that operator's, clients included.
  const operatorNamespace = observed.realm === undefined ? undefined : readRealm(observed.realm).operatorNamespace;
  if (isAnotherOperators(operatorNamespace === undefined ? undefined : { namespace: operatorNamespace }, config)) return plan.build();
  if (client.metadata.deletionTimestamp !== undefined) {
    remove(plan, input);
    return plan.build();
  }
  if (client.metadata.finalizers?.includes(CLIENT_FINALIZER) !== true) {
    // Alone: the change wakes the next reconcile, which then works from the object with the finalizer.
    plan.add({ kind: 'k8s.addFinalizer', ref: clientRef(client), finalizer: CLIENT_FINALIZER }, 'keep the object until its client in Keycloak is deleted');
    return plan.build();
  }
  const resolved = resolve(input);
  if ('call' in resolved) {
    reconcileInRealm(plan, resolved);
    addDriftReport(plan, client, clientRef(client), describeClient(client, resolved.realm));
    return plan.build();
  }
  addClientStatus(plan, client, resolved.readiness, input.now, resolved.changes);
  if (resolved.followUp !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: FOLLOW_UP_MS }, resolved.followUp);
  return plan.build();
}
