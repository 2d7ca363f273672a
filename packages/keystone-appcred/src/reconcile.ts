import { DAY_MS, formatTime, type DecodeFailure, type DesiredCondition } from '@keyward/kernel/model';
import { PlanBuilder, coreTypes, findCondition, type Condition, type KubeObject, type ObjectRef, type Plan, type PlanFailure, type ReconcileInput } from '@keyward/kernel';
import { addFreshnessGuard, addStatusIfChanged, cleanUp, deepEqual, finalizersAdding, formatOutput, withFinalizer, type Finalizer, type KeystoneAuthenticateAction, type KeystoneSession, type OutputRef, type StepHandle } from '@keyward/kernel/plan';
import type { AppCredAction } from './vocabulary.js';
import {
  CONDITION_AC_READY,
  CONDITION_KEYSTONE_API_READY,
  CREDENTIAL_NAME_ANNOTATION,
  CR_FINALIZER,
  SECRET_PROTECTION_FINALIZER,
  SERVICE_DOMAIN,
  SERVICE_PROJECT,
  appCredType,
  serviceOf,
  unsupportedName,
  type AppCredStatus,
  type KeystoneApplicationCredential,
} from './api.js';
import type { AppCredConfig } from './config.js';
import { readStatus } from './decode.js';
import { keystoneEndpoint, type KeystoneEndpoint } from './endpoint.js';
import type { AppCredQueries } from './observe.js';
import { currentRotationEligibleAt, rotationEligibleAt, rotationReasons, untilRotation } from './rotation.js';
import { credentialIdOf, credentialLabels, credentialNameOf, describeHeld, hasCredentialLabels, isProtected, oldSecrets } from './secrets.js';
import { computeSecurityHash } from './security-hash.js';
import { CREDENTIAL_READY_MESSAGE, KEYSTONE_API_READY, conditionsFor, credentialCondition, keystoneApiNotReady } from './status.js';

export type AppCredInput = ReconcileInput<KeystoneApplicationCredential, AppCredQueries, AppCredConfig>;

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The upstream controller's name as it reports events; alert rules and tooling match on it. */
export const UPSTREAM_REPORTING_CONTROLLER = 'keystoneapplicationcredential-controller';

/** The rotation event's message, byte for byte as upstream writes it (alert rules match on it). */
export function rotationNote(userName: string, expiresAt: string, eligibleAt: string, gracePeriodDays: number, previousExpiresAt: string): string {
  return `Rotated credentials for user ${userName}. New expiration: ${expiresAt}, next rotation eligible: ${eligibleAt} (grace period: ${String(gracePeriodDays)} days). Previous credential expires: ${previousExpiresAt}`;
}

/** `<cr name>-<5 characters>`: the Keystone name of a new credential; the characters come from the entropy input. */
export function credentialName(crName: string, entropy: Uint8Array): string {
  const suffix = Array.from(entropy.slice(0, 5), (byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length] ?? 'b').join('');
  return `${crName}-${suffix}`;
}

const SUFFIX = new RegExp(`^[${SUFFIX_ALPHABET}]{5}$`);

/**
 * `name` when it is one this CR could have drawn (`<cr name>-<5 characters>`). Others may write the CR too: a
 * name that is not ours would be revoked by name (another CR's credential of the same user) or sent to
 * Keystone to create (a name it may not even store), so it is left alone (and dropped from the status).
 */
function drawnBy(cr: KeystoneApplicationCredential, name: string | undefined): string | undefined {
  const prefix = `${cr.metadata.name}-`;
  return name?.startsWith(prefix) === true && SUFFIX.test(name.slice(prefix.length)) ? name : undefined;
}

/**
 * The name of a creation that was interrupted (or failed) before its Secret was stored, if the CR records one.
 * A rotation records its name in status.pendingACName, cleared with the status write that points at the new
 * credential. The first creation records it in the annotation, together with the finalizer; the annotation
 * stays, so its name is pending only while the status holds no credential and no Secret the reconcile sees
 * bears the name.
 */
function interruptedCreation(input: AppCredInput): string | undefined {
  const { primary: cr } = input;
  const pending = drawnBy(cr, cr.status.pendingACName);
  if (pending !== undefined || cr.status.acID !== undefined) return pending;
  const first = drawnBy(cr, cr.metadata.annotations?.[CREDENTIAL_NAME_ANNOTATION]);
  return first === undefined || seenSecrets(input).some((secret) => credentialNameOf(secret) === first) ? undefined : first;
}

/** Keystone's expires_at: ISO 8601 without a zone, microsecond precision. */
export function keystoneExpiry(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000`;
}

/** The Keystone of the CR (see keystoneEndpoint); the KeystoneAPIs as whichever of their reads was made. */
function endpointOf({ primary: cr, observed, config }: AppCredInput): KeystoneEndpoint {
  return keystoneEndpoint(observed.keystoneAPIs ?? observed.keystoneAPIsRequired, config.keystoneUrl, cr.metadata.namespace, observed.keystones);
}

export function crRef(cr: KeystoneApplicationCredential): ObjectRef {
  return { type: appCredType, namespace: cr.metadata.namespace, name: cr.metadata.name };
}

function secretRef(cr: KeystoneApplicationCredential, name: string): ObjectRef {
  return { type: coreTypes.secret, namespace: cr.metadata.namespace, name };
}

/** A condition as stored, reduced to what a reconciler states (the transition time is derived again). */
function stated(condition: Condition | undefined, fallback: DesiredCondition): DesiredCondition {
  if (condition === undefined) return fallback;
  const { lastTransitionTime: _time, ...desired } = condition;
  return desired;
}

function withoutPending(status: AppCredStatus): AppCredStatus {
  const { pendingACName: _pending, ...rest } = status;
  return rest;
}

/**
 * The credentials this CR's Secrets and status hold. A revoke by name spares them, in case the name of an
 * interrupted creation was also given to a stored credential (names come from five random characters).
 */
function storedIds(input: AppCredInput): string[] {
  const { primary: cr } = input;
  const ids = new Set(seenSecrets(input).map(credentialIdOf).filter((id): id is string => id !== undefined));
  if (cr.status.acID !== undefined) ids.add(cr.status.acID);
  return [...ids];
}

/** The service's Secrets (by label) and those the status names. */
function seenSecrets({ observed }: AppCredInput): KubeObject[] {
  return [...observed.serviceSecrets, observed.currentSecret, observed.previousSecret].filter((s): s is KubeObject => s !== undefined);
}

function revokeInterrupted(plan: PlanBuilder<AppCredAction>, input: AppCredInput, session: OutputRef<KeystoneSession>, name: string, reason: string): void {
  plan.add({ kind: 'keystone.revokeApplicationCredential', session, name, keep: storedIds(input) }, reason);
}

function authenticate(plan: PlanBuilder<AppCredAction>, cr: KeystoneApplicationCredential, url: string, reason: string): StepHandle<KeystoneAuthenticateAction> {
  return plan.add(
    {
      kind: 'keystone.authenticate',
      endpoint: url,
      userName: cr.spec.userName,
      userDomain: SERVICE_DOMAIN,
      projectName: SERVICE_PROJECT,
      projectDomain: SERVICE_DOMAIN,
      password: { kind: 'secretKey', namespace: cr.metadata.namespace, name: cr.spec.secret, key: cr.spec.passwordSelector },
    },
    reason,
  );
}

/**
 * The first credential's name, recorded on the CR with the finalizer when the CR lacks it: one metadata patch,
 * guarded by the resourceVersion the plan was made from, so a stale view is stopped before any Keystone call.
 */
function recordFirstName(plan: PlanBuilder<AppCredAction>, cr: KeystoneApplicationCredential, name: string): void {
  const finalizers = finalizersAdding(cr, crFinalizer(cr));
  plan.add(
    {
      kind: 'k8s.patch',
      ref: crRef(cr),
      patch: { type: 'merge', body: { metadata: { ...(finalizers === undefined ? {} : { finalizers }), annotations: { [CREDENTIAL_NAME_ANNOTATION]: name } } } },
      precondition: { resourceVersion: cr.metadata.resourceVersion },
      observed: cr,
    },
    `record the name ${name} before creating the credential, so an interrupted creation can be cleaned up${finalizers === undefined ? '' : ', and add the finalizer that keeps the CR until its Secrets are released'}`,
  );
}

/**
 * Creates a credential and its immutable Secret, then points the status at them. Every credential we create
 * is named on the CR until it is stored or revoked, whatever the number and timing of crashes: a new name is
 * recorded before its first creation (the first credential's in the CR's annotation, in one guarded patch with
 * the finalizer; a rotation's in status.pendingACName, guarded too), and a name recorded for a creation that
 * was interrupted is revoked and then used again, so it is never overwritten while a credential of that name
 * may exist. A retry therefore writes nothing before it reaches Keystone. The Secret carries the name too,
 * which is how a later reconcile knows the first creation was stored. If storing fails within this plan, the
 * credential is revoked at once.
 */
function rotate(plan: PlanBuilder<AppCredAction>, input: AppCredInput, url: string, reasons: readonly string[], interrupted: string | undefined): void {
  const { primary: cr, now, entropy } = input;
  const service = serviceOf(cr.metadata.name);
  const ref = crRef(cr);
  const name = interrupted ?? credentialName(cr.metadata.name, entropy(5));
  const isRotation = cr.status.acID !== undefined;

  // The status the final write starts from: the one the rotation's own record leaves, or the CR's.
  let recordedStatus: AppCredStatus = cr.status;
  if (interrupted === undefined && !isRotation) recordFirstName(plan, cr, name);
  if (interrupted === undefined && isRotation) {
    recordedStatus = { ...cr.status, pendingACName: name };
    plan.add(
      { kind: 'k8s.status', ref, status: recordedStatus, observed: cr.status, precondition: { resourceVersion: cr.metadata.resourceVersion } },
      `record the name ${name} before creating the credential, so an interrupted creation can be cleaned up`,
    );
  }
  const session = authenticate(plan, cr, url, `log in as ${cr.spec.userName} to create a credential`).output('session');
  if (interrupted !== undefined) {
    // The revoke must not act on a stale view (one where the credential of this name was already stored).
    guardAfterLogin(plan, cr);
    revokeInterrupted(plan, input, session, name, `an earlier creation of ${name} was interrupted before it was stored; the name is used again`);
  }

  const expires = new Date(now.getTime() + cr.spec.expirationDays * DAY_MS);
  const accessRules = cr.spec.accessRules ?? [];
  const credential = plan.add(
    {
      kind: 'keystone.createApplicationCredential',
      session,
      name,
      description: `Created by keystone-operator for AC CR ${cr.metadata.namespace}/${cr.metadata.name} (user: ${cr.spec.userName})`,
      roles: cr.spec.roles,
      accessRules: accessRules.length > 0 ? accessRules : undefined,
      unrestricted: cr.spec.unrestricted,
      expiresAt: keystoneExpiry(expires),
    },
    reasons.join('; '),
    (step) => ({ action: { kind: 'keystone.revokeApplicationCredential', session, id: step.output('id') }, reason: 'the new credential could not be stored' }),
  );
  const secretName = formatOutput(credential.output('id'), { before: `ac-${service}-`, length: 5, after: '-secret' });
  plan.add(
    {
      kind: 'k8s.create',
      ref: { type: coreTypes.secret, namespace: cr.metadata.namespace, name: secretName },
      object: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: secretName,
          namespace: cr.metadata.namespace,
          labels: credentialLabels(service),
          annotations: { [CREDENTIAL_NAME_ANNOTATION]: name },
          finalizers: [SECRET_PROTECTION_FINALIZER],
          ownerReferences: [{ apiVersion: cr.apiVersion, kind: cr.kind, name: cr.metadata.name, uid: cr.metadata.uid, controller: true, blockOwnerDeletion: true }],
        },
        type: 'Opaque',
        immutable: true,
        stringData: { AC_ID: credential.output('id'), AC_SECRET: credential.output('secret') },
      },
    },
    'store the new credential in a new immutable Secret',
  );

  const eligible = rotationEligibleAt(expires, cr.spec.gracePeriodDays);
  const finalStatus = {
    ...withoutPending(cr.status),
    acID: credential.output('id'),
    secretName,
    ...(cr.status.secretName === undefined ? {} : { previousSecretName: cr.status.secretName }),
    createdAt: formatTime(now),
    expiresAt: formatTime(expires),
    rotationEligibleAt: formatTime(eligible),
    ...(isRotation ? { lastRotated: formatTime(now) } : {}),
    securityHash: computeSecurityHash(cr.spec),
    observedGeneration: cr.metadata.generation,
    conditions: conditionsFor(cr.status.conditions, KEYSTONE_API_READY, credentialCondition('True', 'Ready', CREDENTIAL_READY_MESSAGE), now),
  };
  plan.add({ kind: 'k8s.status', ref, status: finalStatus, observed: recordedStatus }, 'point the CR at the new credential and Secret');
  if (isRotation) {
    plan.add(
      {
        kind: 'k8s.event',
        regarding: { ...ref, uid: cr.metadata.uid },
        type: 'Normal',
        reason: 'ApplicationCredentialRotated',
        action: 'Rotate',
        reportingController: UPSTREAM_REPORTING_CONTROLLER,
        note: rotationNote(cr.spec.userName, formatTime(expires), formatTime(eligible), cr.spec.gracePeriodDays, cr.status.expiresAt ?? 'unknown'),
      },
      'tell people that consumers may need the new credential',
    );
  }
  plan.add({ kind: 'control.requeueAfter', afterMs: eligible.getTime() - now.getTime() + 1_000 }, 'rotate when the grace period is reached');
}

/** Labels a Secret written before Keyward managed the service, so the label-filtered cache and watch see it. */
function labelIfNeeded(plan: PlanBuilder<AppCredAction>, cr: KeystoneApplicationCredential, secret: KubeObject | undefined): void {
  const service = serviceOf(cr.metadata.name);
  if (secret === undefined || hasCredentialLabels(secret, service)) return;
  plan.add(
    { kind: 'k8s.patch', ref: secretRef(cr, secret.metadata.name), patch: { type: 'merge', body: { metadata: { labels: credentialLabels(service) } } }, observed: secret },
    'label the Secret so it is found and watched like the ones Keyward writes',
  );
}

/**
 * The steady state: label Secrets that lack our labels, clean up an interrupted creation, revoke and delete
 * old Secrets no consumer holds any more, and keep the status current.
 */
function maintain(plan: PlanBuilder<AppCredAction>, input: AppCredInput, url: string, interrupted: string | undefined): void {
  const { primary: cr, observed, now } = input;
  labelIfNeeded(plan, cr, observed.currentSecret);
  labelIfNeeded(plan, cr, observed.previousSecret);
  const old = oldSecrets(observed.serviceSecrets, cr.status.secretName, cr.status.previousSecretName);
  if (old.releasable.length > 0 || interrupted !== undefined) {
    const session = authenticate(plan, cr, url, `log in as ${cr.spec.userName} to revoke credentials no one uses`).output('session');
    guardAfterLogin(plan, cr);
    // Only a rotation's name can be pending here (the first creation's is while no credential exists, which
    // rotates); the status write below clears it.
    if (interrupted !== undefined) {
      revokeInterrupted(plan, input, session, interrupted, `the creation of ${interrupted} was interrupted before the CR pointed at it`);
    }
    for (const secret of old.releasable) {
      const id = credentialIdOf(secret);
      if (id !== undefined) plan.add({ kind: 'keystone.revokeApplicationCredential', session, id }, `no consumer uses ${secret.metadata.name} any more`);
      const ref = secretRef(cr, secret.metadata.name);
      if (isProtected(secret)) plan.add({ kind: 'k8s.removeFinalizer', ref, finalizer: SECRET_PROTECTION_FINALIZER }, 'release the old Secret');
      plan.add({ kind: 'k8s.delete', ref, precondition: { uid: secret.metadata.uid ?? '' } }, 'its credential is revoked');
    }
  }
  const note = describeHeld(old.held);
  const credential = credentialCondition('True', 'Ready', note === undefined ? CREDENTIAL_READY_MESSAGE : `${CREDENTIAL_READY_MESSAGE}; ${note}`);
  const eligibleAt = currentRotationEligibleAt(cr);
  const status: AppCredStatus = {
    ...withoutPending(cr.status),
    ...(eligibleAt === undefined ? {} : { rotationEligibleAt: eligibleAt }),
    observedGeneration: cr.metadata.generation,
    conditions: conditionsFor(cr.status.conditions, KEYSTONE_API_READY, credential, now, note),
  };
  addStatusIfChanged(plan, crRef(cr), cr.status, status);
  const wait = untilRotation(cr, now);
  if (wait !== undefined) plan.add({ kind: 'control.requeueAfter', afterMs: wait }, 'rotate when the grace period is reached');
}

/**
 * Before a revoke: make sure the decision was made from the current CR. Placed after the login, so that a
 * retry Keystone refuses (or that is refused without a request while Keystone is known to be down) sends
 * nothing to the API server either.
 */
function guardAfterLogin(plan: PlanBuilder<AppCredAction>, cr: KeystoneApplicationCredential): void {
  addFreshnessGuard(plan, crRef(cr), cr.metadata.resourceVersion);
}

/** Whether the CR is the controller owner of a Secret (it created it). */
function controls(cr: KeystoneApplicationCredential, secret: KubeObject): boolean {
  return secret.metadata.ownerReferences?.some((owner) => owner.controller === true && owner.uid === cr.metadata.uid) === true;
}

/** The finalizer that keeps a CR until its Secrets are released; added from the cached CR (see Finalizer.guarded). */
function crFinalizer(cr: KeystoneApplicationCredential): Finalizer {
  return { ref: crRef(cr), name: CR_FINALIZER, purpose: 'keep the CR until its Secrets are released', guarded: true };
}

/**
 * Deletion's cleanup (see cleanUp): release every Secret of the service (found by label; ones the status names
 * are labelled if they lack it) so garbage collection removes them, optionally revoke their credentials, then
 * let the CR go. `mine` narrows that to some of them (a CR that does not own its service releases only what it
 * created).
 */
function release(plan: PlanBuilder<AppCredAction>, input: AppCredInput, mine: (secret: KubeObject) => boolean = () => true): string {
  const { primary: cr, observed, config } = input;
  const byName = new Map<string, KubeObject>();
  for (const secret of [...observed.serviceSecrets, observed.currentSecret, observed.previousSecret]) {
    if (secret !== undefined && mine(secret)) byName.set(secret.metadata.name, secret);
  }
  const secrets = [...byName.values()];
  const endpoint = endpointOf(input);
  const ids = secrets.map(credentialIdOf).filter((id): id is string => id !== undefined);
  if (config.revokeOnDelete && endpoint.usable && ids.length > 0) {
    const session = authenticate(plan, cr, endpoint.url, `log in as ${cr.spec.userName} to revoke the credentials of a deleted CR`).output('session');
    guardAfterLogin(plan, cr);
    for (const id of ids) plan.add({ kind: 'keystone.revokeApplicationCredential', session, id }, 'revocation on deletion is enabled');
  }
  for (const secret of secrets) {
    labelIfNeeded(plan, cr, secret);
    if (isProtected(secret)) {
      plan.add({ kind: 'k8s.removeFinalizer', ref: secretRef(cr, secret.metadata.name), finalizer: SECRET_PROTECTION_FINALIZER }, 'let garbage collection delete it with the CR');
    }
  }
  return 'its Secrets are released';
}

/**
 * A CR whose name manages no service (see unsupportedName): it is told why nothing happens, once, and touches
 * no credential or Secret of the service; deleted, it releases only the Secrets it created itself (before
 * this rule, or under the upstream operator).
 */
function refuseName(plan: PlanBuilder<AppCredAction>, input: AppCredInput, message: string): void {
  const { primary: cr, now } = input;
  if (cr.metadata.deletionTimestamp !== undefined) {
    // It never adds the finalizer, but may hold it from before the rule.
    cleanUp(plan, cr, crFinalizer(cr), () => release(plan, input, (secret) => controls(cr, secret)));
    return;
  }
  const keystoneApi = stated(findCondition(cr.status.conditions, CONDITION_KEYSTONE_API_READY), { type: CONDITION_KEYSTONE_API_READY, status: 'Unknown', reason: 'NotChecked', message: 'not checked: the name is not supported' });
  const status: AppCredStatus = {
    ...cr.status,
    observedGeneration: cr.metadata.generation,
    conditions: conditionsFor(cr.status.conditions, keystoneApi, credentialCondition('False', 'UnsupportedName', message), now),
  };
  if (deepEqual(status, cr.status)) return;
  addStatusIfChanged(plan, crRef(cr), cr.status, status, 'report that the name is not supported');
  plan.add(
    { kind: 'k8s.event', regarding: { ...crRef(cr), uid: cr.metadata.uid }, type: 'Warning', reason: 'UnsupportedName', note: message, action: 'Validate' },
    'tell people why nothing happens',
  );
}

/** The pure reconcile of a KeystoneApplicationCredential. */
export function reconcile(input: AppCredInput): Plan<AppCredAction> {
  const { primary: cr } = input;
  const plan = new PlanBuilder<AppCredAction>();
  const refused = unsupportedName(cr.metadata.name);
  if (refused !== undefined) {
    refuseName(plan, input, refused);
    return plan.build();
  }
  const next = course(input);
  withFinalizer(plan, cr, crFinalizer(cr), {
    apply: () => { follow(plan, input, next); },
    cleanup: () => release(plan, input),
    // The first credential's name is recorded in a metadata patch before anything else: the finalizer joins it.
    addsFinalizer: () => next.kind === 'rotate' && next.interrupted === undefined && cr.status.acID === undefined,
  });
  return plan.build();
}

/** What a CR that is not being deleted needs: to wait for Keystone, a new credential, or the steady state. */
type Course =
  | { readonly kind: 'waitForKeystone'; readonly endpoint: Extract<KeystoneEndpoint, { readonly usable: false }> }
  | { readonly kind: 'rotate'; readonly url: string; readonly reasons: readonly string[]; readonly interrupted: string | undefined }
  | { readonly kind: 'maintain'; readonly url: string; readonly interrupted: string | undefined };

function course(input: AppCredInput): Course {
  const { primary: cr, observed, now } = input;
  const endpoint = endpointOf(input);
  if (!endpoint.usable) return { kind: 'waitForKeystone', endpoint };
  const reasons = rotationReasons(cr, observed.currentSecret !== undefined, now);
  const interrupted = interruptedCreation(input);
  return reasons.length > 0 ? { kind: 'rotate', url: endpoint.url, reasons, interrupted } : { kind: 'maintain', url: endpoint.url, interrupted };
}

/** A CR that holds the finalizer (or gets it in the plan's first write) and is not being deleted. */
function follow(plan: PlanBuilder<AppCredAction>, input: AppCredInput, next: Course): void {
  const { primary: cr, now, config } = input;
  if (next.kind === 'rotate') rotate(plan, input, next.url, next.reasons, next.interrupted);
  else if (next.kind === 'maintain') maintain(plan, input, next.url, next.interrupted);
  else {
    const credential = stated(findCondition(cr.status.conditions, CONDITION_AC_READY), credentialCondition('Unknown', 'WaitingForKeystoneAPI', 'waiting for KeystoneAPI'));
    const status: AppCredStatus = {
      ...cr.status,
      observedGeneration: cr.metadata.generation,
      conditions: conditionsFor(cr.status.conditions, keystoneApiNotReady(next.endpoint.reason, next.endpoint.message), credential, now),
    };
    addStatusIfChanged(plan, crRef(cr), cr.status, status);
    plan.add({ kind: 'control.requeueAfter', afterMs: config.keystoneRetryMs }, 'look for a usable Keystone again');
  }
}

/**
 * Keystone refused to create a credential because one of that name exists. The revoke before it removed every
 * credential of the name that no Secret holds, so the name belongs to a stored credential: it is given up,
 * and the next attempt draws a new one.
 */
function nameTaken(failure: PlanFailure): boolean {
  return failure.action === 'keystone.createApplicationCredential' && failure.reason === 'Conflict';
}

/** The status that reports a failed read or step: the credential condition says which step and why. */
export function reportFailure(cr: KeystoneApplicationCredential, failure: PlanFailure, now: Date): Plan<AppCredAction> {
  const plan = new PlanBuilder<AppCredAction>();
  const keystoneApi = stated(findCondition(cr.status.conditions, CONDITION_KEYSTONE_API_READY), KEYSTONE_API_READY);
  const status: AppCredStatus = {
    ...cr.status,
    observedGeneration: cr.metadata.generation,
    conditions: conditionsFor(cr.status.conditions, keystoneApi, credentialCondition('False', failure.reason, `${failure.step} failed: ${failure.message}`), now),
  };
  // The failed plan may have recorded the name after `cr` was read: null removes it whatever was stored.
  addStatusIfChanged(plan, crRef(cr), cr.status, nameTaken(failure) ? { ...withoutPending(status), pendingACName: null } : status, 'report the failure');
  // Likewise the first credential's name (on the CR whatever `cr` shows): only a stored credential bears it now.
  if (nameTaken(failure) && cr.status.acID === undefined) {
    plan.add({ kind: 'k8s.patch', ref: crRef(cr), patch: { type: 'merge', body: { metadata: { annotations: { [CREDENTIAL_NAME_ANNOTATION]: null } } } } }, 'give the name up; the next attempt draws another');
  }
  return plan.build();
}

/** The status and Warning event for a spec the codec rejects. */
export function reportInvalid(object: KubeObject, failure: DecodeFailure, now: Date): Plan<AppCredAction> {
  const plan = new PlanBuilder<AppCredAction>();
  const status = readStatus(object['status']);
  const ref: ObjectRef = { type: appCredType, namespace: object.metadata.namespace ?? '', name: object.metadata.name };
  const keystoneApi = stated(findCondition(status.conditions, CONDITION_KEYSTONE_API_READY), { type: CONDITION_KEYSTONE_API_READY, status: 'Unknown', reason: 'InvalidSpec', message: 'not checked: the spec is invalid' });
  const desired: AppCredStatus = {
    ...status,
    ...(object.metadata.generation === undefined ? {} : { observedGeneration: object.metadata.generation }),
    conditions: conditionsFor(status.conditions, keystoneApi, credentialCondition('False', 'InvalidSpec', `invalid spec: ${failure.message}`), now),
  };
  addStatusIfChanged(plan, ref, status, desired, 'report the invalid spec');
  plan.add(
    { kind: 'k8s.event', regarding: { ...ref, uid: object.metadata.uid }, type: 'Warning', reason: 'InvalidSpec', note: `invalid spec: ${failure.message}`, action: 'Validate' },
    'tell people why nothing happens',
  );
  return plan.build();
}

