import { PlanBuilder, coreTypes, findCondition, sensitive, type KubeObject, type ObjectRef, type Plan, type PlanFailure, type ReconcileInput, type Sensitive } from '@keyward/kernel';
import { addApplyIfChanged, addStatusIfChanged } from '@keyward/kernel/plan';
import { formatTime, type DecodeFailure } from '@keyward/kernel/model';
import type {
  STEP_CONDITIONS} from './api.js';
import {
  CONDITION_API,
  CONDITION_BOOTSTRAP,
  CONDITION_CREDENTIAL_KEYS,
  CONDITION_DATABASE,
  CONDITION_DEPLOYMENT,
  CONDITION_READY,
  CONDITION_FERNET,
  CONDITION_SECRETS,
  DB_CONNECTION_KEY,
  DB_PASSWORD_KEY,
  DB_USERNAME_KEY,
  keystoneType,
  mariaDbDatabaseType,
  mariaDbGrantType,
  mariaDbUserType,
  names,
  podDisruptionBudgetType,
  cronJobType,
  horizontalPodAutoscalerType,
} from './api.js';
import type { KeystoneServiceConfig } from './config.js';
import { configMapName } from './config-map.js';
import { policyOf } from './policy.js';
import { REASON_NAMESPACE_TERMINATING, namespaceTerminating } from './namespace.js';
import { readStatus } from './decode.js';
import { KEY_BYTES } from './fernet.js';
import { reconcileJob, type JobRun } from './jobs.js';
import { reconcileKeys } from './keys.js';
import { connectionUrl, internalEndpoint, keystoneConf } from './keystone-conf.js';
import type { KeystoneQueries } from './observe.js';
import { apiAutoscaler, bootstrapJob, configMap, connectionSecret, dbSyncJob, deployment, imageOf, mariaDbObjects, podDisruptionBudget, policyValidationJob, service, trustFlushCronJob, upgradeJob } from './objects.js';
import { releaseOfTag } from './release.js';
import { statedReplicas } from './autoscaling.js';
import { upgradeBeforeRollout, upgradeFields, upgradeReport, upgradeState, type UpgradeStep } from './upgrade.js';
import { apiPasteSections } from './paste.js';
import { renderIni } from './ini.js';
import { deploymentReady } from './rollout.js';
import { conditionTrue, entries, field, numberAt } from './read.js';
import { bootstrapRunKey, connectionHash, dbSyncRunKey, policyValidationRunKey } from './run-keys.js';
import type { Keystone, KeystoneStatus } from './spec.js';
import { aggregateConditions, type StepReport, type StepReports } from './status.js';
import { addApiCheckSteps, apiPodsStopping, apiReport } from './api-check.js';
import type { KeystoneAction } from './vocabulary.js';

/** db_sync's key for an image whose tag names its release, in place of the image. */
const RELEASE_TAGGED = 'an image of a release, upgraded by expand, migrate and contract';

const SYNCED: StepReport = { status: 'True', reason: 'Synced', message: 'the schema is migrated' };

export type KeystoneInput = ReconcileInput<Keystone, KeystoneQueries, KeystoneServiceConfig>;

/** What the Secrets the spec names provide; the passwords never leave their wrapper except into a Secret. */
interface Credentials {
  readonly dbUsername: string;
  readonly dbPassword: Sensitive;
  readonly adminPassword: Sensitive;
  readonly policy: string | undefined;
}

function crRef(cr: Keystone): ObjectRef {
  return { type: keystoneType, namespace: cr.metadata.namespace, name: cr.metadata.name };
}

/**
 * What the ExternalSecret that is to write Secret `name` says (its target name, or its own name without one):
 * "<name> is not ready: <reason>: <message>", or undefined when no ExternalSecret writes it.
 */
function externalSecretFor(name: string, externalSecrets: readonly KubeObject[] | undefined): string | undefined {
  const writer = (externalSecrets ?? []).find((es) => (field(es, 'spec', 'target', 'name') ?? es.metadata.name) === name);
  if (writer === undefined) return undefined;
  const conditions = field(writer, 'status', 'conditions');
  const ready: unknown = Array.isArray(conditions) ? (conditions as unknown[]).find((c) => field(c, 'type') === 'Ready') : undefined;
  const detail = [field(ready, 'reason'), field(ready, 'message')].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
  const state = field(ready, 'status') === 'True' ? 'reports Ready, but the Secret is not there yet' : 'is not ready';
  return `${writer.metadata.name} ${state}${detail === '' ? '' : `: ${detail}`}`;
}

/** Step 1: the database and admin Secrets (and a policy ConfigMap) exist with the keys the spec needs. */
function readInputs(cr: Keystone, observed: KeystoneInput['observed']): Credentials | StepReport {
  const missing = (what: string, name: string, key: string, object: KubeObject | undefined): StepReport => {
    if (object !== undefined) return { status: 'False', reason: 'SecretKeyMissing', message: `${what} ${name} has no key ${key} (or it is empty)` };
    const notFound = `${what} ${name} not found (it needs key ${key})`;
    const external = externalSecretFor(name, observed.externalSecrets);
    return external === undefined
      ? { status: 'False', reason: 'SecretNotFound', message: notFound }
      : { status: 'False', reason: 'WaitingForExternalSecret', message: `${notFound}; ExternalSecret ${external}` };
  };
  const db = entries(observed.dbSecret);
  const { name: dbName, key: passwordKey = DB_PASSWORD_KEY } = cr.spec.database.secretRef;
  for (const key of [DB_USERNAME_KEY, passwordKey]) if ((db[key] ?? '') === '') return missing('Secret', dbName, key, observed.dbSecret);
  const admin = cr.spec.bootstrap.adminPasswordSecretRef;
  const adminPassword = entries(observed.adminSecret)[admin.key]?.replace(/\r?\n$/, '') ?? '';
  if (adminPassword === '') return missing('Secret', admin.name, admin.key, observed.adminSecret);
  const policy = policyOf(cr, observed.policyConfigMap);
  if (typeof policy === 'object') return policy;
  return { dbUsername: (db[DB_USERNAME_KEY] ?? '').trim(), dbPassword: sensitive(db[passwordKey] ?? ''), adminPassword: sensitive(adminPassword), policy };
}

/** The ConfigMap's data: keystone.conf, api-paste.ini and, with overrides, policy.yaml. */
export function configData(cr: Keystone, dbUsername: string, policy: string | undefined, clusterDomain: string): Record<string, string> {
  const conf = keystoneConf(cr.spec, { namespace: cr.metadata.namespace, dbUsername, clusterDomain, hasPolicy: policy !== undefined });
  return { 'keystone.conf': conf, 'api-paste.ini': renderIni(apiPasteSections(cr.spec.middleware ?? [])), ...(policy === undefined ? {} : { 'policy.yaml': policy }) };
}

/** ConfigMaps of earlier renderings that no ReplicaSet with pods uses any more. */
export function supersededConfigMaps(configMaps: readonly KubeObject[], current: string, replicaSets: readonly KubeObject[]): KubeObject[] {
  const used = new Set(
    replicaSets
      .filter((rs) => numberAt(rs, 'spec', 'replicas') > 0 || numberAt(rs, 'status', 'replicas') > 0)
      .flatMap((rs) => {
        const volumes = field(rs, 'spec', 'template', 'spec', 'volumes');
        return Array.isArray(volumes) ? volumes.map((v) => field(v, 'configMap', 'name')).filter((n): n is string => typeof n === 'string') : [];
      }),
  );
  return configMaps.filter((cm) => cm.metadata.name !== current && !used.has(cm.metadata.name));
}

/** The MariaDB operator's objects for a clusterRef, in the order it needs them (the Grant once the User is ready). */
function reconcileMariaDb(plan: PlanBuilder<KeystoneAction>, cr: Keystone, observed: KeystoneInput['observed']): StepReport | undefined {
  if (cr.spec.database.clusterRef === undefined) return undefined;
  const wanted = mariaDbObjects(cr);
  const ref = (type: typeof mariaDbDatabaseType) => ({ type, namespace: cr.metadata.namespace, name: cr.metadata.name });
  addApplyIfChanged(plan, ref(mariaDbDatabaseType), observed.mariaDbDatabase, wanted.database, 'the MariaDB database Keystone uses');
  addApplyIfChanged(plan, ref(mariaDbUserType), observed.mariaDbUser, wanted.user, 'the MariaDB user Keystone connects as');
  const waiting = (what: string): StepReport => ({ status: 'False', reason: 'WaitingForDatabase', message: `waiting for the MariaDB ${what} ${cr.metadata.name} to be ready` });
  if (!conditionTrue(observed.mariaDbUser, 'Ready')) return waiting('User');
  addApplyIfChanged(plan, ref(mariaDbGrantType), observed.mariaDbGrant, wanted.grant, "the user's privileges on the database");
  if (!conditionTrue(observed.mariaDbDatabase, 'Ready')) return waiting('Database');
  if (!conditionTrue(observed.mariaDbGrant, 'Ready')) return waiting('Grant');
  return undefined;
}

/** Everything a status write says, collected as the pipeline runs. */
interface Progress {
  readonly reports: StepReports;
  readonly fields: Omit<KeystoneStatus, 'conditions' | 'observedGeneration'>;
  readonly requeueAt?: Date;
}

function finish(plan: PlanBuilder<KeystoneAction>, input: KeystoneInput, progress: Progress): Plan<KeystoneAction> {
  const { primary: cr, now } = input;
  const generation = cr.metadata.generation;
  const status: KeystoneStatus = {
    ...progress.fields,
    observedGeneration: generation,
    conditions: aggregateConditions(cr.status.conditions, progress.reports, generation, now),
  };
  addStatusIfChanged(plan, crRef(cr), cr.status, status);
  if (progress.requeueAt !== undefined) {
    plan.add({ kind: 'control.requeueAfter', afterMs: Math.max(progress.requeueAt.getTime() - now.getTime(), 0) + 1_000 }, 'rotate the fernet keys when the schedule is due');
  }
  return plan.build();
}

/**
 * The pure reconcile of a Keystone: Secrets -> FernetKeys -> Config -> Database -> Deployment -> Bootstrap ->
 * a token from the API.
 * A step that is not done stops the pipeline (its watch wakes the next reconcile); every stop writes the whole
 * status, Ready aggregated from all steps.
 */
export function reconcile(input: KeystoneInput): Plan<KeystoneAction> {
  const { primary: cr, observed, now, config, entropy } = input;
  const plan = new PlanBuilder<KeystoneAction>();
  // Deletion is garbage collection's: everything is owned by the object. In a namespace being deleted, what
  // the namespace controller removes is not made again.
  if (cr.metadata.deletionTimestamp !== undefined || findCondition(cr.status.conditions, CONDITION_READY)?.reason === REASON_NAMESPACE_TERMINATING) return plan.build();
  const crName = cr.metadata.name;
  const namespace = cr.metadata.namespace;
  const reports: Partial<Record<(typeof STEP_CONDITIONS)[number], StepReport>> = {};
  const fields: { -readonly [K in keyof Progress['fields']]: Progress['fields'][K] } = {};
  const stop = (requeueAt?: Date) => finish(plan, input, { reports, fields, ...(requeueAt === undefined ? {} : { requeueAt }) });
  // Kept through every status write until bootstrap completes with another password.
  if (cr.status.bootstrapRunKey !== undefined) fields.bootstrapRunKey = cr.status.bootstrapRunKey;

  // 1. Secrets.
  const inputs = readInputs(cr, observed);
  if ('status' in inputs) {
    reports[CONDITION_SECRETS] = inputs;
    return stop();
  }
  reports[CONDITION_SECRETS] = { status: 'True', reason: 'Found', message: 'the database and admin Secrets are present' };

  // 2. Fernet and credential keys, from one draw of entropy: initial keys of both and one fresh key.
  const { fernet, credentialKeys } = cr.spec;
  const material = entropy(KEY_BYTES * (fernet.maxActiveKeys + credentialKeys.maxActiveKeys + 1));
  const fernetOutcome = reconcileKeys(plan, cr, observed.fernetKeys, {
    name: names.fernetKeys(crName), what: 'fernet keys', count: fernet.maxActiveKeys, schedule: fernet.rotationSchedule,
    material: Uint8Array.from([...material.slice(0, KEY_BYTES * fernet.maxActiveKeys), ...material.slice(KEY_BYTES * (fernet.maxActiveKeys + credentialKeys.maxActiveKeys))]),
  }, now);
  const credentialOutcome = reconcileKeys(plan, cr, observed.credentialKeys, {
    name: names.credentialKeys(crName), what: 'credential keys', count: credentialKeys.maxActiveKeys,
    material: material.slice(KEY_BYTES * fernet.maxActiveKeys, KEY_BYTES * (fernet.maxActiveKeys + credentialKeys.maxActiveKeys)),
  }, now);
  reports[CONDITION_FERNET] = fernetOutcome.report;
  reports[CONDITION_CREDENTIAL_KEYS] = credentialOutcome.report;
  if (fernetOutcome.lastRotation !== undefined) fields.lastFernetRotation = formatTime(fernetOutcome.lastRotation);
  if (fernetOutcome.nextRotation !== undefined) fields.nextFernetRotation = formatTime(fernetOutcome.nextRotation);
  const requeueAt = fernetOutcome.nextRotation;
  if (fernetOutcome.report.status !== 'True' || credentialOutcome.report.status !== 'True') return stop(requeueAt);

  // 3. Config: an immutable ConfigMap named after its content, and the connection URL in a Secret.
  const data = configData(cr, inputs.dbUsername, inputs.policy, config.clusterDomain);
  const configName = configMapName(names.configBase(crName), data);
  if (!observed.configMaps.some((cm) => cm.metadata.name === configName)) {
    plan.add({ kind: 'k8s.create', ref: { type: coreTypes.configMap, namespace, name: configName }, object: configMap(cr, configName, data) }, 'the rendered keystone.conf and api-paste.ini');
  }
  // The status names the configuration the pods run with: a new one once its policy overrides are validated.
  if (cr.status.configMapName !== undefined) fields.configMapName = cr.status.configMapName;
  // The database URL: the pods keep the one a db_sync succeeded with; a new one is tried by db_sync first.
  const url = sensitive(connectionUrl(cr.spec, { namespace, dbUsername: inputs.dbUsername, clusterDomain: config.clusterDomain }, inputs.dbPassword.reveal()));
  const urlHash = connectionHash(cr.metadata.uid, url);
  const secretRef = (name: string) => ({ type: coreTypes.secret, namespace, name });
  // The first URL goes where the pods will read it: no pod runs before db_sync has succeeded with it.
  const first = observed.dbConnection === undefined;
  const current = first || entries(observed.dbConnection)[DB_CONNECTION_KEY] === url.reveal();
  const syncConnection = current ? names.dbConnection(crName) : names.dbSyncConnection(crName);
  if (first) addApplyIfChanged(plan, secretRef(syncConnection), undefined, connectionSecret(cr, syncConnection, url), 'the database URL with its password, for OS_DATABASE__CONNECTION');
  else if (!current) addApplyIfChanged(plan, secretRef(syncConnection), observed.dbSyncConnection, connectionSecret(cr, syncConnection, url), 'the new database URL, for db_sync to try before the pods get it');

  const secrets = [inputs.dbPassword, inputs.adminPassword];
  // Policy overrides are checked by Keystone's own validator before any pod gets them: a rule that does not
  // parse, names no rule of Keystone's or refers to one that does not exist stops here, and the pods keep the
  // configuration they run with.
  if (inputs.policy !== undefined) {
    const runKey = policyValidationRunKey(imageOf(cr), configName);
    const validation = reconcileJob(plan, cr, observed.policyValidationJob, {
      name: names.policyValidationJob(crName), what: 'policy validation', runKey, template: policyValidationJob(cr, runKey, configName), why: 'check the policy overrides before the pods get them',
      rerunsWhen: 'the policy overrides, the rest of the configuration or the image change',
    }, observed.pods, secrets);
    if (!validation.done) {
      reports[CONDITION_DEPLOYMENT] = validation.report.reason === 'JobFailed' ? { ...validation.report, reason: 'PolicyInvalid' } : validation.report;
      return stop(requeueAt);
    }
  }
  fields.configMapName = configName;

  // 4. Database.
  const waitingForDb = reconcileMariaDb(plan, cr, observed);
  if (waitingForDb !== undefined) {
    reports[CONDITION_DATABASE] = waitingForDb;
    return stop(requeueAt);
  }
  // With a clusterRef, a re-created MariaDB Database, User or Grant (a new uid) runs db_sync again too.
  const databaseObjects = [observed.mariaDbDatabase, observed.mariaDbUser, observed.mariaDbGrant].map((o) => o?.metadata.uid ?? '').join(',');
  const database = `${urlHash}\n${databaseObjects}`;
  const release = releaseOfTag(cr.spec.image.tag);
  const upgrade = upgradeState(cr.spec.image.tag, cr.status);
  if (cr.status.installedRelease !== undefined) fields.installedRelease = cr.status.installedRelease;
  Object.assign(fields, upgradeFields(upgrade, cr.status));
  if (upgrade.kind === 'held') {
    reports[CONDITION_DATABASE] = upgrade.report;
    return stop(requeueAt);
  }
  const upgradeRun = (step: UpgradeStep): JobRun => {
    const runKey = dbSyncRunKey(imageOf(cr), configName, database);
    return { name: names.upgradeJob(crName, step), what: `db_sync --${step}`, runKey, template: upgradeJob(cr, step, runKey, configName), why: `${step} the schema for the upgrade`, rerunsWhen: 'the image, the configuration or the database URL changes' };
  };
  if (upgrade.kind === 'upgrading') {
    const upgradeJobs = { expand: observed.expandJob, migrate: observed.migrateJob };
    const schema = upgradeBeforeRollout(upgrade, (step) => reconcileJob(plan, cr, upgradeJobs[step], upgradeRun(step), observed.pods, secrets));
    Object.assign(fields, upgradeFields(upgrade, cr.status, schema.phase));
    reports[CONDITION_DATABASE] = schema.report;
    if (schema.phase !== 'RollingUpdate' && schema.phase !== 'Contracting') return stop(requeueAt);
  } else {
    // An image whose tag names its release moves the schema only through an upgrade, so the image is not part of
    // db_sync's key: another image of the same release (a rebuild) is rolled out without running db_sync.
    const syncKey = dbSyncRunKey(release === undefined ? imageOf(cr) : RELEASE_TAGGED, configName, database);
    const sync = reconcileJob(plan, cr, observed.dbSyncJob, {
      name: names.dbSyncJob(crName), what: 'db_sync', runKey: syncKey, template: dbSyncJob(cr, syncKey, configName, syncConnection), why: 'migrate the schema for this image, configuration and database',
      rerunsWhen: cr.spec.database.clusterRef === undefined ? 'the image, the configuration or the database URL changes' : 'the image, the configuration, the database URL or the MariaDB Database, User or Grant object changes',
    }, observed.pods, secrets);
    reports[CONDITION_DATABASE] = sync.done ? SYNCED : sync.report;
    if (!sync.done) return stop(requeueAt);
    if (release !== undefined && cr.status.installedRelease === undefined) fields.installedRelease = release;
    // db_sync succeeded with this URL: the pods may have it now.
    if (!current) {
      addApplyIfChanged(plan, secretRef(names.dbConnection(crName)), observed.dbConnection, connectionSecret(cr, names.dbConnection(crName), url), 'the database URL db_sync succeeded with, for OS_DATABASE__CONNECTION');
    }
    if (observed.dbSyncConnection !== undefined) {
      plan.add({ kind: 'k8s.delete', ref: secretRef(names.dbSyncConnection(crName)), precondition: { uid: observed.dbSyncConnection.metadata.uid ?? '' } }, 'db_sync succeeded with the new database URL');
    }
    // A called-off upgrade leaves no Job behind that still runs or retries (an image that cannot be pulled).
    for (const job of [observed.expandJob, observed.migrateJob, observed.contractJob]) {
      if (job !== undefined && !conditionTrue(job, 'Complete')) {
        plan.add({ kind: 'k8s.delete', ref: { type: coreTypes.job, namespace, name: job.metadata.name }, precondition: { uid: job.metadata.uid ?? '' }, propagation: 'Background' }, 'the upgrade it was part of is called off');
      }
    }
  }

  // 5. Deployment, Service and PodDisruptionBudget.
  const apiRef = (type: ObjectRef['type']) => ({ type, namespace, name: names.api(crName) });
  const { autoscaling } = cr.spec;
  const replicas = statedReplicas(cr.spec.replicas, autoscaling, observed.deployment);
  // Forced: replicas someone else set (an autoscaler no longer asked for, `kubectl scale`) are taken back.
  const changed = addApplyIfChanged(plan, apiRef(coreTypes.deployment), observed.deployment, deployment(cr, configName, urlHash, replicas), 'the Keystone API pods', { force: true });
  if (autoscaling !== undefined) addApplyIfChanged(plan, apiRef(horizontalPodAutoscalerType), observed.autoscaler, apiAutoscaler(cr, autoscaling), 'scale the API pods on their CPU use');
  else if (observed.autoscaler !== undefined) {
    plan.add({ kind: 'k8s.delete', ref: apiRef(horizontalPodAutoscalerType), precondition: { uid: observed.autoscaler.metadata.uid ?? '' } }, 'the spec no longer asks for autoscaling');
  }
  addApplyIfChanged(plan, apiRef(coreTypes.service), observed.service, service(cr), 'the Keystone API Service');
  addApplyIfChanged(plan, apiRef(podDisruptionBudgetType), observed.podDisruptionBudget, podDisruptionBudget(cr), 'keep an API pod through voluntary disruptions');
  addApplyIfChanged(plan, { type: cronJobType, namespace, name: names.trustFlush(crName) }, observed.trustFlush, trustFlushCronJob(cr, configName), 'remove expired and deleted trusts on the schedule');
  const rollout = changed ? { status: 'False' as const, reason: 'Progressing', message: 'the Deployment is being updated' } : deploymentReady(observed.deployment, replicas, observed.replicaSets, observed.pods);
  reports[CONDITION_DEPLOYMENT] = rollout;
  if (rollout.status !== 'True') {
    reports[CONDITION_API] = { status: 'False', reason: 'WaitingForDeployment', message: 'waiting for the API pods' };
    return stop(requeueAt);
  }
  // An upgrade contracts the schema once no pod of the old release is left.
  if (upgrade.kind === 'upgrading') {
    const contract = reconcileJob(plan, cr, observed.contractJob, upgradeRun('contract'), observed.pods, secrets);
    if (!contract.done) {
      Object.assign(fields, upgradeFields(upgrade, cr.status, 'Contracting'));
      reports[CONDITION_DATABASE] = upgradeReport(upgrade, contract.report);
      return stop(requeueAt);
    }
    fields.installedRelease = upgrade.to;
    delete fields.targetRelease;
    delete fields.upgradePhase;
    reports[CONDITION_DATABASE] = SYNCED;
  }
  const endpoint = internalEndpoint(crName, namespace, config.clusterDomain);
  if (observed.service === undefined) reports[CONDITION_API] = { status: 'False', reason: 'ServiceMissing', message: 'the Service is being created' };
  fields.endpoint = endpoint;
  for (const old of supersededConfigMaps(observed.configMaps, configName, observed.replicaSets)) {
    plan.add({ kind: 'k8s.delete', ref: { type: coreTypes.configMap, namespace, name: old.metadata.name }, precondition: { uid: old.metadata.uid ?? '' } }, 'no pods use this earlier configuration any more');
  }

  // 6. Bootstrap, re-run only when the admin password changes.
  const bootKey = bootstrapRunKey(cr.metadata.uid, inputs.adminPassword);
  const urls = { internal: endpoint, public: cr.spec.bootstrap.publicEndpoint ?? endpoint };
  // The status records that bootstrap ran with this password: a Job deleted after it completed is not re-run.
  const bootstrapped: StepReport = { status: 'True', reason: 'Bootstrapped', message: 'the admin user and endpoints are in place' };
  const boot = cr.status.bootstrapRunKey === bootKey ? { done: true, report: bootstrapped } : reconcileJob(plan, cr, observed.bootstrapJob, {
    name: names.bootstrapJob(crName), what: 'bootstrap', runKey: bootKey, template: bootstrapJob(cr, bootKey, configName, urls), why: 'create or update the admin user, project, roles, service and endpoints',
    rerunsWhen: 'the admin password changes',
  }, observed.pods, secrets);
  if (boot.done) fields.bootstrapRunKey = bootKey;
  reports[CONDITION_BOOTSTRAP] = boot.done ? bootstrapped : boot.report;

  // 7. The API issues tokens: once bootstrap has made the admin user with the password the check reads.
  if (observed.service !== undefined) {
    const report = apiReport({ endpoint, adminUser: cr.spec.bootstrap.adminUser, check: observed.apiToken, bootstrapped: boot.done }, inputs.adminPassword, apiPodsStopping(observed.pods));
    if (report !== undefined) {
      addApiCheckSteps(plan, { ...crRef(cr), uid: cr.metadata.uid }, findCondition(cr.status.conditions, CONDITION_API), report);
      reports[CONDITION_API] = report;
    }
  }
  return stop(requeueAt);
}

/** The status that reports a failed read or step: on the condition of the step that failed, and on Ready. */
export function reportFailure(cr: Keystone, failure: PlanFailure, now: Date): Plan<KeystoneAction> {
  const plan = new PlanBuilder<KeystoneAction>();
  const report: StepReport = namespaceTerminating(failure.message) ?? { status: 'False', reason: failure.reason, message: `${failure.step} failed: ${failure.message}` };
  const step = failure.step.includes('Job') ? CONDITION_DATABASE : /Deployment|Service|PodDisruptionBudget/.test(failure.step) ? CONDITION_DEPLOYMENT : undefined;
  const reports: StepReports = step === undefined ? {} : { [step]: report };
  const status: KeystoneStatus = {
    ...cr.status,
    observedGeneration: cr.metadata.generation,
    conditions: aggregateConditions(cr.status.conditions, reports, cr.metadata.generation, now, report),
  };
  addStatusIfChanged(plan, crRef(cr), cr.status, status, 'report the failure');
  return plan.build();
}

/** The status and Warning event for a spec the codec rejects. */
export function reportInvalid(object: KubeObject, failure: DecodeFailure, now: Date): Plan<KeystoneAction> {
  const plan = new PlanBuilder<KeystoneAction>();
  const status = readStatus(object['status']);
  const ref: ObjectRef = { type: keystoneType, namespace: object.metadata.namespace ?? '', name: object.metadata.name };
  const generation = object.metadata.generation ?? 0;
  const invalid: StepReport = { status: 'False', reason: 'InvalidSpec', message: `invalid spec: ${failure.message}` };
  const conditions = aggregateConditions(status.conditions, {}, generation, now, invalid);
  addStatusIfChanged(plan, ref, status, { ...status, observedGeneration: generation, conditions }, 'report the invalid spec');
  plan.add({ kind: 'k8s.event', regarding: { ...ref, uid: object.metadata.uid }, type: 'Warning', reason: 'InvalidSpec', note: invalid.message, action: 'Validate' }, 'tell people why nothing happens');
  return plan.build();
}
