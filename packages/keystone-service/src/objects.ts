import type { Json, ObjectTemplate, OwnerReference } from '@keyward/kernel/plan';
import type { Sensitive } from '@keyward/kernel';
import {
  ANNOTATION_CONNECTION,
  ANNOTATION_ROTATED_AT,
  ANNOTATION_RUN_KEY,
  API_PORT,
  CONFIG_DIR,
  CREDENTIAL_KEYS_DIR,
  DB_CONNECTION_KEY,
  DB_PASSWORD_KEY,
  FERNET_KEYS_DIR,
  LABEL_COMPONENT,
  LABEL_CONFIG_OF,
  commonLabels,
  names,
} from './api.js';
import type { Keystone } from './spec.js';
import type { UpgradeStep } from './upgrade.js';
import { DRAIN_SECONDS, deploymentSettings, uwsgiOptions } from './pod-settings.js';
import { minimumReplicas, type AutoscalingSpec } from './autoscaling.js';

// The objects a Keystone owns, as pure functions of the object and what was decided. Every one carries the
// controller owner reference, so garbage collection removes them with the Keystone.

/** Pods run as Keystone's user in the Debian image; with fsGroup the kubelet makes the key files 0440, group 42424. */
const KEYSTONE_UID = 42424;

/** The controller owner reference to the Keystone (a type alias, so it is plain JSON for templates). */
 
type OwnerRef = { readonly [K in keyof OwnerReference]: OwnerReference[K] };

export function ownerReference(cr: Keystone): OwnerRef {
  return { apiVersion: cr.apiVersion, kind: cr.kind, name: cr.metadata.name, uid: cr.metadata.uid, controller: true, blockOwnerDeletion: true };
}

function meta(cr: Keystone, name: string, extra: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}) {
  return {
    name,
    namespace: cr.metadata.namespace,
    labels: { ...commonLabels(cr.metadata.name), ...extra.labels },
    ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }),
    ownerReferences: [ownerReference(cr)],
  };
}

export function imageOf(cr: Keystone): string {
  return `${cr.spec.image.repository}:${cr.spec.image.tag}`;
}

/** A key Secret, created once: its data is replaced only by rotation. */
export function keySecret(cr: Keystone, name: string, keys: Readonly<Record<string, Sensitive>>, rotatedAt: string): ObjectTemplate {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: meta(cr, name, { annotations: { [ANNOTATION_ROTATED_AT]: rotatedAt } }),
    type: 'Opaque',
    stringData: keys,
  };
}

/** The full database URL, password included, for OS_DATABASE__CONNECTION, in Secret `name`. */
export function connectionSecret(cr: Keystone, name: string, url: Sensitive): ObjectTemplate {
  return { apiVersion: 'v1', kind: 'Secret', metadata: meta(cr, name), type: 'Opaque', stringData: { [DB_CONNECTION_KEY]: url } };
}

export function configMap(cr: Keystone, name: string, data: Readonly<Record<string, string>>): ObjectTemplate {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(cr, name, { labels: { [LABEL_CONFIG_OF]: cr.metadata.name } }),
    immutable: true,
    data,
  };
}

/** The database URL from Secret `secretName` (by default the one a db_sync has succeeded with). */
const connectionEnv = (cr: Keystone, secretName = names.dbConnection(cr.metadata.name)): Json => ({
  name: 'OS_DATABASE__CONNECTION',
  valueFrom: { secretKeyRef: { name: secretName, key: DB_CONNECTION_KEY } },
});

/**
 * Keystone's uid has no entry in the image's passwd, and PyMySQL 1.1 asks for the user's name when it is
 * imported (getpass, which reads it from the environment first): without one, every keystone-manage of Debian
 * trixie's Keystone fails before it starts.
 */
const USER_ENV: Json = { name: 'USER', value: 'keystone' };

const restricted: Json = { allowPrivilegeEscalation: false, runAsNonRoot: true, runAsUser: KEYSTONE_UID, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };

/** Volumes: the rendered configuration and both key repositories, whole Secrets (no subPath), so rotated keys reach running pods. */
function volumes(cr: Keystone, configName: string, withCredentialKeys: boolean): { volumes: Json[]; mounts: Json[] } {
  const crName = cr.metadata.name;
  const list: [string, Json, string][] = [
    ['config', { configMap: { name: configName } }, `${CONFIG_DIR}/`],
    ['fernet-keys', { secret: { secretName: names.fernetKeys(crName), defaultMode: 0o400 } }, FERNET_KEYS_DIR],
    ...(withCredentialKeys ? [['credential-keys', { secret: { secretName: names.credentialKeys(crName), defaultMode: 0o400 } }, CREDENTIAL_KEYS_DIR] as [string, Json, string]] : []),
  ];
  return {
    volumes: list.map(([name, source]) => ({ name, ...(source as Record<string, Json>) })),
    mounts: list.map(([name, , mountPath]) => ({ name, mountPath, readOnly: true })),
  };
}

export function podLabels(cr: Keystone, component: string): Record<string, string> {
  return { ...commonLabels(cr.metadata.name), [LABEL_COMPONENT]: component };
}

/**
 * Readiness that notices a lost database: /v3 answers without touching it, so the probe opens a TCP
 * connection to the host and port of OS_DATABASE__CONNECTION.
 */
const DB_PROBE = [
  'python3', '-c',
  'import os,socket,urllib.parse as u;p=u.urlsplit(os.environ["OS_DATABASE__CONNECTION"]);socket.create_connection((p.hostname,p.port or 3306),20).close()',
];

/** Debian's uWSGI loads its Python support as a plugin, named before any option of it. */
const UWSGI_COMMAND = [
  'uwsgi', '--plugin', 'python3', '--http-socket', `:${String(API_PORT)}`, '--wsgi-file', '/usr/bin/keystone-wsgi-public', '--master', '--lazy-apps', '--need-app',
  '--die-on-term', `--pyargv=--config-dir=${CONFIG_DIR}/`,
];

/**
 * The API Deployment with `replicas` pods; `connectionHash` (a keyed hash of the database URL) rolls the pods
 * when the URL changes.
 */
export function deployment(cr: Keystone, configName: string, connectionHash: string, replicas: number): ObjectTemplate {
  const { volumes: vols, mounts } = volumes(cr, configName, true);
  const labels = podLabels(cr, 'api');
  const settings = deploymentSettings(cr.spec, labels);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(cr, names.api(cr.metadata.name)),
    spec: {
      replicas,
      selector: { matchLabels: labels },
      strategy: settings.strategy,
      template: {
        metadata: { labels, annotations: { [ANNOTATION_CONNECTION]: connectionHash } },
        spec: {
          securityContext: { fsGroup: KEYSTONE_UID },
          // The pods need no API access: no token is mounted, and no Role grants them anything.
          automountServiceAccountToken: false,
          ...settings.pod,
          containers: [{
            name: 'keystone',
            image: imageOf(cr),
            imagePullPolicy: 'IfNotPresent',
            command: [...UWSGI_COMMAND, ...uwsgiOptions(cr.spec)],
            ports: [{ name: 'keystone', containerPort: API_PORT, protocol: 'TCP' }],
            env: [connectionEnv(cr), USER_ENV],
            volumeMounts: mounts,
            securityContext: restricted,
            // The startup probe gates the other two, and the kubelet runs the readiness probe as soon as it passes:
            // a pod serves about 2 s after Keystone has loaded (up to 5 minutes allowed), not at the next tick of a
            // long period, which made every pod of a rollout wait 30 s or more.
            startupProbe: { httpGet: { path: '/v3', port: API_PORT }, periodSeconds: 2, timeoutSeconds: 5, failureThreshold: 150 },
            livenessProbe: { tcpSocket: { port: API_PORT }, periodSeconds: 20 },
            readinessProbe: { exec: { command: DB_PROBE }, periodSeconds: 10, timeoutSeconds: 25, failureThreshold: 3 },
            lifecycle: { preStop: { exec: { command: ['sleep', String(DRAIN_SECONDS)] } } },
            ...settings.container,
            // A crash's last log lines, for the condition that reports a stuck rollout.
            terminationMessagePolicy: 'FallbackToLogsOnError',
          }],
          volumes: vols,
        },
      },
    },
  };
}

export function service(cr: Keystone): ObjectTemplate {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(cr, names.api(cr.metadata.name)),
    spec: { type: 'ClusterIP', selector: podLabels(cr, 'api'), ports: [{ name: 'keystone', port: API_PORT, targetPort: API_PORT, protocol: 'TCP' }] },
  };
}

/** The HorizontalPodAutoscaler of the API Deployment, for a spec with `autoscaling`: CPU use against the request. */
export function apiAutoscaler(cr: Keystone, autoscaling: AutoscalingSpec): ObjectTemplate {
  const name = names.api(cr.metadata.name);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(cr, name),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: minimumReplicas(cr.spec.replicas, autoscaling),
      maxReplicas: autoscaling.maxReplicas,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: autoscaling.targetCPUUtilizationPercentage } } }],
    },
  };
}

export function podDisruptionBudget(cr: Keystone): ObjectTemplate {
  const budget = minimumReplicas(cr.spec.replicas, cr.spec.autoscaling) > 1 ? { minAvailable: 1 } : { maxUnavailable: 1 };
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(cr, names.api(cr.metadata.name)), spec: { ...budget, selector: { matchLabels: podLabels(cr, 'api') } } };
}

/** The pod of a Job (or of a CronJob's Jobs): keystone-manage's configuration, keys and database URL, and `script`. */
function jobPod(cr: Keystone, component: string, configName: string, script: string, env: readonly Json[], connection?: string, annotations?: Record<string, string>) {
  const { volumes: vols, mounts } = volumes(cr, configName, component.startsWith('db-'));
  return {
    metadata: { labels: podLabels(cr, component), ...(annotations === undefined ? {} : { annotations }) },
    spec: {
      restartPolicy: 'Never',
      securityContext: { fsGroup: KEYSTONE_UID },
      automountServiceAccountToken: false,
      containers: [{
        name: component,
        image: imageOf(cr),
        imagePullPolicy: 'IfNotPresent',
        command: ['/bin/sh', '-eu', '-c', script],
        env: [connectionEnv(cr, connection), USER_ENV, ...env],
        volumeMounts: mounts,
        securityContext: restricted,
        terminationMessagePolicy: 'FallbackToLogsOnError',
      }],
      volumes: vols,
    },
  };
}

/**
 * A one-shot Job: no TTL (the finished Job is the record that it ran), no retries beyond a few pod
 * restarts, and its log tail kept as the termination message so a failure can be reported with it.
 */
function job(cr: Keystone, name: string, component: string, runKey: string, configName: string, script: string, env: readonly Json[], connection?: string): ObjectTemplate {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta(cr, name, { labels: { [LABEL_COMPONENT]: component }, annotations: { [ANNOTATION_RUN_KEY]: runKey } }),
    spec: { backoffLimit: 2, template: jobPod(cr, component, configName, script, env, connection, { [ANNOTATION_RUN_KEY]: runKey }) },
  };
}

/** `keystone-manage trust_flush` on the schedule: expired and deleted trusts removed from the database. */
export function trustFlushCronJob(cr: Keystone, configName: string): ObjectTemplate {
  const { schedule, suspend, args } = cr.spec.trustFlush;
  const script = [`exec keystone-manage --config-dir=${CONFIG_DIR}/ trust_flush`, ...args.map((arg) => `'${arg}'`)].join(' ');
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: meta(cr, names.trustFlush(cr.metadata.name), { labels: { [LABEL_COMPONENT]: 'trust-flush' } }),
    spec: {
      schedule,
      timeZone: 'Etc/UTC',
      suspend,
      concurrencyPolicy: 'Forbid',
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: podLabels(cr, 'trust-flush') }, spec: { backoffLimit: 2, template: jobPod(cr, 'trust-flush', configName, script, []) } },
    },
  };
}

/** db_sync, with the database URL from Secret `connection` (a new URL is tried here before the pods get it). */
export function dbSyncJob(cr: Keystone, runKey: string, configName: string, connection: string): ObjectTemplate {
  return job(cr, names.dbSyncJob(cr.metadata.name), 'db-sync', runKey, configName, `exec keystone-manage --config-dir=${CONFIG_DIR}/ db_sync`, [], connection);
}

/** Connections idle this long are closed while a schema change runs. */
export const IDLE_CONNECTION_SECONDS = 3;

/**
 * While a schema change runs, closes the connections of Keystone's database user that have been idle for
 * IDLE_CONNECTION_SECONDS or more, every second. Keystone keeps a transaction open on a pooled connection
 * between requests (measured with Keystone 22: idle connections with an open InnoDB transaction), and an ALTER
 * TABLE waits for every transaction that read the table; every query on the table then queues behind the
 * ALTER, which stalled token requests for 30 to 60 s in the upgrade test. A closed connection is opened again
 * by Keystone on its next use. A user may kill its own connections without any privilege.
 */
const CLOSE_IDLE_CONNECTIONS = [
  'import os, time, urllib.parse as u, pymysql',
  'p = u.urlsplit(os.environ["OS_DATABASE__CONNECTION"]); parent = os.getppid()',
  'c = pymysql.connect(host=p.hostname, port=p.port or 3306, user=u.unquote(p.username or ""), password=u.unquote(p.password or ""), database=p.path.lstrip("/"), autocommit=True)',
  'while os.getppid() == parent:',
  '    cursor = c.cursor()',
  `    cursor.execute("SELECT id FROM information_schema.processlist WHERE user = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) AND db = DATABASE() AND command = 'Sleep' AND time >= ${String(IDLE_CONNECTION_SECONDS)} AND id <> CONNECTION_ID()")`,
  '    for (idle,) in cursor.fetchall():',
  '        try: cursor.execute("KILL CONNECTION %s", (idle,))',
  '        except pymysql.MySQLError: pass',
  '    time.sleep(1)',
].join('\n');

/** One step of an upgrade (`db_sync --expand`, `--migrate` or `--contract`), run with the image upgraded to. */
export function upgradeJob(cr: Keystone, step: UpgradeStep, runKey: string, configName: string): ObjectTemplate {
  const script = [
    `python3 -c "$CLOSE_IDLE_CONNECTIONS" & closer=$!`,
    `status=0; keystone-manage --config-dir=${CONFIG_DIR}/ db_sync --${step} || status=$?`,
    'kill "$closer" 2>/dev/null || true',
    'exit "$status"',
  ].join('\n');
  return job(cr, names.upgradeJob(cr.metadata.name, step), `db-${step}`, runKey, configName, script, [{ name: 'CLOSE_IDLE_CONNECTIONS', value: CLOSE_IDLE_CONNECTIONS }]);
}

/** oslopolicy-validator on the rendered configuration: the policy overrides checked before any pod gets them. */
export function policyValidationJob(cr: Keystone, runKey: string, configName: string): ObjectTemplate {
  return job(cr, names.policyValidationJob(cr.metadata.name), 'policy-validation', runKey, configName, `exec oslopolicy-validator --namespace keystone --config-dir ${CONFIG_DIR}/`, []);
}

export interface BootstrapUrls {
  readonly internal: string;
  readonly public: string;
}

export function bootstrapJob(cr: Keystone, runKey: string, configName: string, urls: BootstrapUrls): ObjectTemplate {
  const { bootstrap } = cr.spec;
  // The password stays in the environment, from the Secret; "=value" keeps one starting with "-" an argument.
  const script = [
    `exec keystone-manage --config-dir=${CONFIG_DIR}/ bootstrap`,
    '--bootstrap-username "$BOOTSTRAP_USERNAME" --bootstrap-password="$BOOTSTRAP_PASSWORD"',
    '--bootstrap-admin-url "$BOOTSTRAP_INTERNAL_URL" --bootstrap-internal-url "$BOOTSTRAP_INTERNAL_URL"',
    '--bootstrap-public-url "$BOOTSTRAP_PUBLIC_URL" --bootstrap-region-id "$BOOTSTRAP_REGION_ID"',
  ].join(' ');
  return job(cr, names.bootstrapJob(cr.metadata.name), 'bootstrap', runKey, configName, script, [
    { name: 'BOOTSTRAP_USERNAME', value: bootstrap.adminUser },
    { name: 'BOOTSTRAP_PASSWORD', valueFrom: { secretKeyRef: { name: bootstrap.adminPasswordSecretRef.name, key: bootstrap.adminPasswordSecretRef.key } } },
    { name: 'BOOTSTRAP_INTERNAL_URL', value: urls.internal },
    { name: 'BOOTSTRAP_PUBLIC_URL', value: urls.public },
    { name: 'BOOTSTRAP_REGION_ID', value: bootstrap.region },
  ]);
}

/** The MariaDB operator's Database, User and Grant for a `database.clusterRef`, named after the Keystone. */
export function mariaDbObjects(cr: Keystone): { database: ObjectTemplate; user: ObjectTemplate; grant: ObjectTemplate } {
  const { database } = cr.spec;
  const mariaDbRef = { name: database.clusterRef?.name ?? '' };
  const name = cr.metadata.name;
  const common = { apiVersion: 'k8s.mariadb.com/v1alpha1', metadata: meta(cr, name) };
  return {
    database: { ...common, kind: 'Database', spec: { mariaDbRef, name: database.database, characterSet: 'utf8mb4', collate: 'utf8mb4_general_ci' } },
    user: { ...common, kind: 'User', spec: { mariaDbRef, name, passwordSecretKeyRef: { name: database.secretRef.name, key: database.secretRef.key ?? DB_PASSWORD_KEY }, host: '%' } },
    grant: { ...common, kind: 'Grant', spec: { mariaDbRef, privileges: ['ALL PRIVILEGES'], database: database.database, table: '*', username: name, host: '%' } },
  };
}
