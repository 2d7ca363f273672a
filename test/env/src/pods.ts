import { randomBytes } from 'node:crypto';
import { CoreV1Api, type KubeConfig, type V1Container, type V1Pod } from '@kubernetes/client-node';
import { waitFor } from './wait.js';
import type { PodDatabaseAccess } from './workloads/database.js';

export interface OneShotPod {
  readonly name: string;
  /** An image of the workload tier (info.workloads.images). */
  readonly image: string;
  readonly command: readonly string[];
  /** Secrets go in here from a Secret (valueFrom), never on the command line, which the API server and kubelet log. */
  readonly env?: V1Container['env'];
}

export interface PodOutcome {
  readonly phase: 'Succeeded' | 'Failed';
  readonly log: string;
}

/** A pod that runs its command once and is not restarted. */
export function oneShotPod(pod: OneShotPod): V1Pod {
  return {
    metadata: { name: pod.name },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'main', image: pod.image, imagePullPolicy: 'Never', command: [...pod.command], env: pod.env ?? [] }],
    },
  };
}

/** Runs `command` once in a pod of the workload tier and returns how it ended and what it printed. */
export async function runPodOnce(kubeConfig: KubeConfig, namespace: string, pod: OneShotPod, timeoutMs = 120_000): Promise<PodOutcome> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespacedPod({ namespace, body: oneShotPod(pod) });
  const phase = await waitFor(
    async () => {
      const { status } = await core.readNamespacedPod({ name: pod.name, namespace });
      return status?.phase === 'Succeeded' || status?.phase === 'Failed' ? status.phase : undefined;
    },
    { what: `pod ${pod.name} to finish`, timeoutMs, intervalMs: 500 },
  );
  return { phase, log: await core.readNamespacedPodLog({ name: pod.name, namespace }) };
}

/**
 * Runs SQL statements on the environment's MariaDB from a pod (its user for pods connects from the pod subnet
 * only), reading that user's password from a Secret in the namespace. A statement must not carry a secret:
 * each is formatted with the pod's environment (`env`, from Secrets), so a password is written %(NAME)s, and
 * any other "%" as "%%".
 */
export async function runPodSql(
  kubeConfig: KubeConfig,
  namespace: string,
  workloads: { readonly images: { readonly keystone: string }; readonly database?: PodDatabaseAccess },
  statements: readonly string[],
  passwordSecret: { readonly name: string; readonly key: string },
  env: NonNullable<V1Container['env']> = [],
): Promise<void> {
  const access = workloads.database;
  if (access === undefined) throw new Error('the environment has no database for pods');
  const outcome = await runPodOnce(kubeConfig, namespace, {
    name: `sql-${randomBytes(3).toString('hex')}`,
    image: workloads.images.keystone,
    command: ['python3', '-c', [
      'import json, os, pymysql',
      "c = pymysql.connect(host=os.environ['DB_HOST'], port=int(os.environ['DB_PORT']), user=os.environ['DB_USER'], password=os.environ['DB_PASSWORD'])",
      `for statement in json.loads(${JSON.stringify(JSON.stringify(statements))}): c.cursor().execute(statement, dict(os.environ))`,
      "print('done')",
    ].join('\n')],
    env: [
      { name: 'DB_HOST', value: access.host },
      { name: 'DB_PORT', value: String(access.port) },
      { name: 'DB_USER', value: access.user },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: passwordSecret } },
      ...env,
    ],
  });
  if (outcome.phase !== 'Succeeded') throw new Error(`SQL from a pod failed (${statements.map((s) => s.split(' ').slice(0, 2).join(' ')).join(', ')}): ${outcome.log}`);
}

/** Creates a database on the environment's MariaDB from a pod (see runPodSql). */
export async function createPodDatabase(
  kubeConfig: KubeConfig,
  namespace: string,
  workloads: { readonly images: { readonly keystone: string }; readonly database?: PodDatabaseAccess },
  database: string,
  passwordSecret: { readonly name: string; readonly key: string },
): Promise<void> {
  await runPodSql(kubeConfig, namespace, workloads, [`CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4`], passwordSecret);
}
