import { coreTypes, type ObjectRef, type ResourceType } from '@keyward/kernel';
import { type GetQuery, type KeystoneTokenQuery, type ListIfServedQuery, type ListQuery } from '@keyward/kernel/plan';
import { LABEL_CONFIG_OF, commonLabels, cronJobType, horizontalPodAutoscalerType, externalSecretType, mariaDbDatabaseType, mariaDbGrantType, mariaDbUserType, names, podDisruptionBudgetType, podType, replicaSetType } from './api.js';
import type { KeystoneServiceConfig } from './config.js';
import { internalEndpoint } from './keystone-conf.js';
import type { Keystone } from './spec.js';

export interface KeystoneQueries {
  readonly [name: string]: GetQuery | ListQuery | ListIfServedQuery | KeystoneTokenQuery | undefined;
  readonly dbSecret: GetQuery;
  readonly adminSecret: GetQuery;
  readonly policyConfigMap: GetQuery | undefined;
  /** The namespace's ExternalSecrets, to say why a Secret is missing; undefined where External Secrets is not installed. */
  readonly externalSecrets: ListIfServedQuery;
  readonly fernetKeys: GetQuery;
  readonly credentialKeys: GetQuery;
  readonly dbConnection: GetQuery;
  readonly dbSyncConnection: GetQuery;
  readonly configMaps: ListQuery;
  readonly mariaDbDatabase: GetQuery | undefined;
  readonly mariaDbUser: GetQuery | undefined;
  readonly mariaDbGrant: GetQuery | undefined;
  readonly dbSyncJob: GetQuery;
  readonly deployment: GetQuery;
  readonly service: GetQuery;
  readonly podDisruptionBudget: GetQuery;
  readonly replicaSets: ListQuery;
  readonly bootstrapJob: GetQuery;
  /** An upgrade's Jobs, read always: one left by an earlier upgrade is replaced, not collided with. */
  readonly expandJob: GetQuery;
  readonly migrateJob: GetQuery;
  readonly contractJob: GetQuery;
  readonly trustFlush: GetQuery;
  readonly autoscaler: GetQuery;
  readonly policyValidationJob: GetQuery;
  /** This Keystone's pods, for the termination message (log tail) of a failed Job. */
  readonly pods: ListQuery;
  /**
   * A fresh token for the bootstrap admin through the Service: whether the API really issues tokens. Asked only
   * once bootstrap has completed (the status records it), since before that the admin user does not exist.
   */
  readonly apiToken: KeystoneTokenQuery | undefined;
}

/** The token request that proves the API works: the bootstrap admin, at the endpoint the status publishes. */
export function apiTokenQuery(cr: Keystone, config: KeystoneServiceConfig): KeystoneTokenQuery {
  const { adminUser, adminPasswordSecretRef } = cr.spec.bootstrap;
  return {
    kind: 'keystone.token',
    endpoint: internalEndpoint(cr.metadata.name, cr.metadata.namespace, config.clusterDomain),
    // keystone-manage bootstrap's defaults: the admin project, both in the Default domain.
    userName: adminUser,
    userDomain: 'Default',
    projectName: 'admin',
    projectDomain: 'Default',
    password: { kind: 'secretKey', namespace: cr.metadata.namespace, name: adminPasswordSecretRef.name, key: adminPasswordSecretRef.key },
  };
}

/**
 * What a reconcile reads: the Secrets (and policy ConfigMap) the spec names, everything the Keystone owns
 * (by name, or by label from the watches' caches), the MariaDB operator's objects for a clusterRef, and, once
 * bootstrapped, a token from the API.
 */
export function observe(cr: Keystone, config: KeystoneServiceConfig): KeystoneQueries {
  const namespace = cr.metadata.namespace;
  const crName = cr.metadata.name;
  const labels = commonLabels(crName);
  const ref = (type: ResourceType, name: string): ObjectRef => ({ type, namespace, name });
  const owned = (type: ResourceType, name: string): GetQuery => ({ kind: 'k8s.get', ref: ref(type, name), expectLabels: labels });
  const referenced = (type: ResourceType, name: string): GetQuery => ({ kind: 'k8s.get', ref: ref(type, name) });
  const clusterRef = cr.spec.database.clusterRef;
  const policyRef = cr.spec.policyOverrides?.configMapRef;
  return {
    dbSecret: referenced(coreTypes.secret, cr.spec.database.secretRef.name),
    adminSecret: referenced(coreTypes.secret, cr.spec.bootstrap.adminPasswordSecretRef.name),
    policyConfigMap: policyRef === undefined ? undefined : referenced(coreTypes.configMap, policyRef.name),
    externalSecrets: { kind: 'k8s.list', type: externalSecretType, namespace, ifServed: true },
    fernetKeys: owned(coreTypes.secret, names.fernetKeys(crName)),
    credentialKeys: owned(coreTypes.secret, names.credentialKeys(crName)),
    dbConnection: owned(coreTypes.secret, names.dbConnection(crName)),
    dbSyncConnection: owned(coreTypes.secret, names.dbSyncConnection(crName)),
    configMaps: { kind: 'k8s.list', type: coreTypes.configMap, namespace, labels: { ...labels, [LABEL_CONFIG_OF]: crName } },
    mariaDbDatabase: clusterRef === undefined ? undefined : referenced(mariaDbDatabaseType, crName),
    mariaDbUser: clusterRef === undefined ? undefined : referenced(mariaDbUserType, crName),
    mariaDbGrant: clusterRef === undefined ? undefined : referenced(mariaDbGrantType, crName),
    dbSyncJob: owned(coreTypes.job, names.dbSyncJob(crName)),
    deployment: owned(coreTypes.deployment, names.api(crName)),
    service: owned(coreTypes.service, names.api(crName)),
    podDisruptionBudget: owned(podDisruptionBudgetType, names.api(crName)),
    replicaSets: { kind: 'k8s.list', type: replicaSetType, namespace, labels },
    bootstrapJob: owned(coreTypes.job, names.bootstrapJob(crName)),
    expandJob: owned(coreTypes.job, names.upgradeJob(crName, 'expand')),
    migrateJob: owned(coreTypes.job, names.upgradeJob(crName, 'migrate')),
    contractJob: owned(coreTypes.job, names.upgradeJob(crName, 'contract')),
    trustFlush: owned(cronJobType, names.trustFlush(crName)),
    autoscaler: owned(horizontalPodAutoscalerType, names.api(crName)),
    policyValidationJob: owned(coreTypes.job, names.policyValidationJob(crName)),
    pods: { kind: 'k8s.list', type: podType, namespace, labels },
    apiToken: cr.status.bootstrapRunKey === undefined ? undefined : apiTokenQuery(cr, config),
  };
}
