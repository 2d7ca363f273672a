import type { ResourceType } from '@keyward/kernel';

export const GROUP = 'keystone.openstack.c5c3.io';
export const VERSION = 'v1alpha1';

export const keystoneType: ResourceType = { group: GROUP, version: VERSION, kind: 'Keystone', plural: 'keystones', namespaced: true };

/** Kinds the controller writes or reads beyond core's well-known ones. */
export const podDisruptionBudgetType: ResourceType = { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true };
export const horizontalPodAutoscalerType: ResourceType = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true };
export const cronJobType: ResourceType = { group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true };
export const replicaSetType: ResourceType = { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true };
export const podType: ResourceType = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };

/** The MariaDB operator's kinds, created for a `database.clusterRef` (that operator's CRDs, not ours). */
export const MARIADB_GROUP = 'k8s.mariadb.com';
export const mariaDbDatabaseType: ResourceType = { group: MARIADB_GROUP, version: 'v1alpha1', kind: 'Database', plural: 'databases', namespaced: true };
export const mariaDbUserType: ResourceType = { group: MARIADB_GROUP, version: 'v1alpha1', kind: 'User', plural: 'users', namespaced: true };
export const mariaDbGrantType: ResourceType = { group: MARIADB_GROUP, version: 'v1alpha1', kind: 'Grant', plural: 'grants', namespaced: true };

/**
 * External Secrets' kind: a missing Secret that an ExternalSecret is to write is reported with that object's
 * state. Read only if the cluster serves it; never required.
 */
export const externalSecretType: ResourceType = { group: 'external-secrets.io', version: 'v1', kind: 'ExternalSecret', plural: 'externalsecrets', namespaced: true };

export const CONDITION_READY = 'Ready';
export const CONDITION_SECRETS = 'SecretsReady';
export const CONDITION_FERNET = 'FernetKeysReady';
export const CONDITION_CREDENTIAL_KEYS = 'CredentialKeysReady';
export const CONDITION_DATABASE = 'DatabaseReady';
export const CONDITION_DEPLOYMENT = 'DeploymentReady';
export const CONDITION_API = 'KeystoneAPIReady';
export const CONDITION_BOOTSTRAP = 'BootstrapReady';

/** The step conditions in pipeline order; Ready summarises them. */
export const STEP_CONDITIONS = [CONDITION_SECRETS, CONDITION_FERNET, CONDITION_CREDENTIAL_KEYS, CONDITION_DATABASE, CONDITION_DEPLOYMENT, CONDITION_API, CONDITION_BOOTSTRAP] as const;
export type StepCondition = (typeof STEP_CONDITIONS)[number];

/** Keys the database Secret must hold. */
export const DB_USERNAME_KEY = 'username';
export const DB_PASSWORD_KEY = 'password';
/** Key of the full connection URL in the `<cr>-db-connection` Secret. */
export const DB_CONNECTION_KEY = 'connection';

/** Where the pods find their files. The config directory is passed as --config-dir, so every *.conf there is read. */
export const CONFIG_DIR = '/etc/keystone/keystone.conf.d';
export const FERNET_KEYS_DIR = '/etc/keystone/fernet-keys/';
export const CREDENTIAL_KEYS_DIR = '/etc/keystone/credential-keys/';
export const API_PORT = 5000;

export const ANNOTATION_ROTATED_AT = `${GROUP}/rotated-at`;
/** On a Job's pod template: what it was run for; a different key re-runs it. */
export const ANNOTATION_RUN_KEY = `${GROUP}/run-key`;
/** On the API pods' template: a keyed hash of the database URL they run with, so a new URL rolls them. */
export const ANNOTATION_CONNECTION = `${GROUP}/connection-hash`;
/** On each rendered ConfigMap: which Keystone it belongs to (found by this label). */
export const LABEL_CONFIG_OF = `${GROUP}/config-of`;

export const LABEL_NAME = 'app.kubernetes.io/name';
export const LABEL_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const LABEL_COMPONENT = 'app.kubernetes.io/component';

/** Labels every object of one Keystone carries. */
export function commonLabels(crName: string): Record<string, string> {
  return { [LABEL_NAME]: 'keystone', [LABEL_INSTANCE]: crName, [LABEL_MANAGED_BY]: 'keyward' };
}

/** Names of the objects one Keystone owns. The CRD keeps CR names short enough for every suffix. */
export const names = {
  fernetKeys: (cr: string) => `${cr}-fernet-keys`,
  credentialKeys: (cr: string) => `${cr}-credential-keys`,
  /** The database URL the API pods and bootstrap run with: one a db_sync has succeeded with. */
  dbConnection: (cr: string) => `${cr}-db-connection`,
  /** A changed database URL, until a db_sync has succeeded with it. */
  dbSyncConnection: (cr: string) => `${cr}-db-sync-connection`,
  configBase: (cr: string) => `${cr}-config`,
  dbSyncJob: (cr: string) => `${cr}-db-sync`,
  bootstrapJob: (cr: string) => `${cr}-bootstrap`,
  /** An upgrade's `db_sync --expand`, `--migrate` and `--contract`. */
  upgradeJob: (cr: string, step: 'expand' | 'migrate' | 'contract') => `${cr}-db-${step}`,
  trustFlush: (cr: string) => `${cr}-trust-flush`,
  policyValidationJob: (cr: string) => `${cr}-policy-validation`,
  /** Deployment, Service and PodDisruptionBudget, as the reference names them. */
  api: (cr: string) => cr,
} as const;

/** The longest Keystone name: a Service name is a DNS-1035 label (63), and `-credential-keys` must still fit in a label. */
export const MAX_NAME_LENGTH = 45;
export const NAME_PATTERN = '^[a-z]([-a-z0-9]*[a-z0-9])?$';
