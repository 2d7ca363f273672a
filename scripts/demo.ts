// Keyward's main job on an embedded local environment: starts etcd, kube-apiserver, kube-controller-manager,
// MariaDB, Keystone and Keycloak, installs the CRDs, applies examples/, runs the keyward operator as its own
// process and shows the objects' progress live until Ctrl-C, then stops everything it started. With
// --workloads the environment runs pods too, and a Keystone object runs Keystone in them, with an application
// credential created against it. --in-cluster (which implies --workloads) runs the operator in pods instead, installed
// as platform teams install it: its image built here and imported into the node, and the Helm chart installed.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { KeystoneAdmin, TEST_CRD_FOLDERS, createPodDatabase, onShutdown, shutDown, startEnvironment, waitFor, type Environment } from '@keyward/test-env';
import { coreTypes, findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { ContentType, KubeClient } from '@keyward/runtime/io';
import { appCredType } from '@keyward/keystone-appcred';
import { API_PORT, keystoneType } from '@keyward/keystone-service';
import { apiKeyType, defaultAPIKeyConfig, enforcementSecretName } from '@keyward/apikey-enforcement';
import { keycloakClientType, keycloakRealmType } from '@keyward/keycloak';
import { exampleTypes } from './example-types.js';
import { CHART_DIR, RELEASE, buildOperatorImage, importImage, publishKeystoneApi, runHelm } from './in-cluster-install.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Run the operator in pods, installed with the Helm chart from an image built here. */
const IN_CLUSTER = process.argv.includes('--in-cluster');
/** Run pods too (the environment's workload tier), and Keystone in them. */
const WORKLOADS = IN_CLUSTER || process.argv.includes('--workloads');
/** Where the Keystone object of examples/keystone-service runs. */
const IDENTITY = { namespace: 'identity', name: 'keystone' };

/** The operator's namespace, as in an install: `keyward plan` looks for its published settings there. */
const OPERATOR_NAMESPACE = 'keyward-system';
/** Where the operator finds Keycloak's admin credentials (its own namespace, as in an install). */
const KEYCLOAK_ADMIN_SECRET = { namespace: OPERATOR_NAMESPACE, name: 'keycloak-admin' };
/** How long the demo waits for the Keystone in pods (its images, db_sync and bootstrap) before it gives up with why. */
const KEYSTONE_READY_TIMEOUT_MS = 10 * 60_000;
/** How long it waits for the operator's Deployment after `helm install`. */
const OPERATOR_AVAILABLE_TIMEOUT_MS = 5 * 60_000;

function say(line: string): void {
  console.log(`  ${line}`);
}

/**
 * Applies a manifest file with server-side apply. A Secret's value is replaced by `passwords["<secret>/<key>"]`
 * or `passwords["<key>"]`; `adjust` may change any object before it is applied.
 */
async function applyFile(kube: KubeClient, file: string, passwords: Record<string, string>, adjust: (object: KubeObject) => KubeObject = (object) => object, log: (line: string) => void = say): Promise<void> {
  for (const doc of parseAllDocuments(readFileSync(join(root, file), 'utf8'))) {
    const object = adjust(doc.toJS() as KubeObject);
    const type = exampleTypes[object.kind];
    if (type === undefined) throw new Error(`${file}: no resource type known for kind ${object.kind}`);
    const secretValue = (key: string, value: string): string => passwords[`${object.metadata.name}/${key}`] ?? passwords[key] ?? value;
    const body = object.kind === 'Secret' && object['stringData'] !== undefined
      ? { ...object, stringData: Object.fromEntries(Object.entries(object['stringData'] as Record<string, string>).map(([k, v]) => [k, secretValue(k, v)])) }
      : object;
    await kube.apply({ type, namespace: object.metadata.namespace, name: object.metadata.name }, body, true);
  }
  log(`applied ${file}`);
}

function conditionOf(object: KubeObject, type: string): Condition | undefined {
  return findCondition((object['status'] as { conditions?: Condition[] } | undefined)?.conditions, type);
}

async function table(kube: KubeClient, enforcementNamespace: string): Promise<string> {
  const rows = [`${'KIND'.padEnd(10)}${'NAMESPACE/NAME'.padEnd(28)}${'READY'.padEnd(8)}DETAILS`];
  for (const cr of (await kube.listAll(appCredType)).items) {
    const status = (cr['status'] ?? {}) as { acID?: string; secretName?: string; rotationEligibleAt?: string };
    const ready = conditionOf(cr, 'Ready');
    const details = ready?.status === 'True'
      ? `credential ${status.acID?.slice(0, 8) ?? ''}... in Secret ${status.secretName ?? ''}, rotates after ${status.rotationEligibleAt ?? ''}`
      : ready?.message ?? 'waiting';
    rows.push(`${'appcred'.padEnd(10)}${`${cr.metadata.namespace ?? ''}/${cr.metadata.name}`.padEnd(28)}${(ready?.status ?? '-').padEnd(8)}${details}`);
  }
  for (const key of (await kube.listAll(apiKeyType)).items) {
    const namespace = key.metadata.namespace ?? '';
    const secret = await kube.get({ type: coreTypes.secret, namespace: enforcementNamespace, name: enforcementSecretName(namespace, key.metadata.name) });
    const approved = conditionOf(key, 'Approved')?.status === 'True';
    const failed = conditionOf(key, 'Failed');
    const details = failed?.status === 'True' ? `Failed: ${failed.message}` : secret === undefined ? (approved ? 'approved, creating' : 'pending approval') : `enforcement Secret ${enforcementNamespace}/${secret.metadata.name}`;
    rows.push(`${'apikey'.padEnd(10)}${`${namespace}/${key.metadata.name}`.padEnd(28)}${(secret === undefined ? 'False' : 'True').padEnd(8)}${details}`);
  }
  for (const object of WORKLOADS ? (await kube.listAll(keystoneType)).items : []) {
    const ready = conditionOf(object, 'Ready');
    const status = (object['status'] ?? {}) as { endpoint?: string };
    const details = ready?.status === 'True' ? `Keystone in pods, serving at ${status.endpoint ?? ''}` : ready?.message ?? 'waiting';
    rows.push(`${'keystone'.padEnd(10)}${`${object.metadata.namespace ?? ''}/${object.metadata.name}`.padEnd(28)}${(ready?.status ?? '-').padEnd(8)}${details}`);
  }
  for (const [kind, type] of [['kcr', keycloakRealmType], ['kcc', keycloakClientType]] as const) {
    for (const object of (await kube.listAll(type)).items) {
      const ready = conditionOf(object, 'Ready');
      const status = (object['status'] ?? {}) as { realm?: string; endpoints?: { issuer?: string } };
      const details = ready?.status === 'True' ? `issuer ${status.endpoints?.issuer ?? ''}` : ready?.message ?? 'waiting';
      rows.push(`${kind.padEnd(10)}${`${object.metadata.namespace ?? ''}/${object.metadata.name}`.padEnd(28)}${(ready?.status ?? '-').padEnd(8)}${details}`);
    }
  }
  return rows.join('\n');
}

/**
 * The operator as its own process. Without a Keystone URL it finds each namespace's Keystone as in a cluster
 * (a KeystoneAPI or Keystone object); with pods it resolves Service names as cluster DNS would, since it runs on
 * the host, where no cluster DNS answers.
 */
function startOperator(environment: Environment, keystoneUrl: string | undefined, keycloakUrl: string, logFile: string): ChildProcess {
  const log = openSync(logFile, 'a');
  const serviceNames = WORKLOADS ? ['--import', join(root, 'test/env/src/workloads/service-names-preload.ts')] : [];
  return spawn(process.execPath, [
    '--import', 'tsx', ...serviceNames, '--conditions=@keyward/source', join(root, 'packages/operator/src/main.ts'), 'run',
    '--kubeconfig', environment.info.kubeconfig,
    ...(keystoneUrl === undefined ? [] : ['--keystone-url', keystoneUrl]),
    '--keycloak-url', keycloakUrl,
    '--keycloak-admin-secret', `${KEYCLOAK_ADMIN_SECRET.namespace}/${KEYCLOAK_ADMIN_SECRET.name}`,
    '--keycloak-operator-namespace', KEYCLOAK_ADMIN_SECRET.namespace,
    '--no-leader-elect',
    // Not a pod, so no namespace of its own: where its settings are published for `keyward plan`.
    '--lease-namespace', OPERATOR_NAMESPACE,
    '--metrics-bind-address', '127.0.0.1:0',
    '--health-bind-address', '0',
    '--log-format', 'json',
  ], { stdio: ['ignore', log, log], env: { ...process.env, ...(WORKLOADS ? { KEYWARD_SERVICE_NAMES_KUBECONFIG: environment.info.kubeconfig } : {}) } });
}

/**
 * examples/keystone-service: a database for it (created from a pod, which alone may reach MariaDB as the pods'
 * user), its Secrets, and the Keystone object with this environment's image and database address.
 */
async function applyKeystoneService(kube: KubeClient, environment: Environment, adminPassword: string): Promise<void> {
  const workloads = environment.info.workloads;
  const database = workloads?.database;
  if (workloads === undefined || database === undefined) throw new Error('the environment runs no pods');
  const colon = workloads.images.keystone.lastIndexOf(':');
  const image = { repository: workloads.images.keystone.slice(0, colon), tag: workloads.images.keystone.slice(colon + 1) };
  await applyFile(kube, 'examples/keystone-service/keystone.yaml', { username: database.user, 'keystone-db/password': database.password, 'keystone-admin/password': adminPassword }, (object) => {
    if (object.kind !== 'Keystone') return object;
    const spec = object['spec'] as { database: Record<string, unknown> };
    return { ...object, spec: { ...spec, image, database: { ...spec.database, host: database.host, port: database.port } } };
  });
  await createPodDatabase(environment.kubeConfig(), IDENTITY.namespace, workloads, 'keystone', { name: 'keystone-db', key: 'password' });
}

/**
 * Once the Keystone in pods is Ready: its service user glance (through the Service's ClusterIP, which answers
 * on the host) and the application credential for it, which the operator creates against that Keystone.
 */
async function credentialAgainstKeystone(kube: KubeClient, adminPassword: string): Promise<void> {
  const ref = { type: keystoneType, ...IDENTITY };
  await waitFor(async () => {
    const object = await kube.get(ref);
    return object !== undefined && conditionOf(object, 'Ready')?.status === 'True' ? true : undefined;
  }, { what: `Keystone ${IDENTITY.namespace}/${IDENTITY.name} to be Ready`, timeoutMs: KEYSTONE_READY_TIMEOUT_MS, intervalMs: 2_000 });
  const service = await kube.get({ type: coreTypes.service, ...IDENTITY });
  const clusterIp = (service?.['spec'] as { clusterIP?: string } | undefined)?.clusterIP ?? '';
  const admin = await KeystoneAdmin.login({ url: `http://${clusterIp}:${String(API_PORT)}/v3`, username: 'admin', password: adminPassword, projectName: 'admin', domain: 'Default' });
  const password = randomBytes(12).toString('hex');
  await admin.ensureServiceUser({ userName: 'glance', password });
  // Quietly: the table is on the screen now, and its row shows the credential.
  await applyFile(kube, 'examples/keystone-service/appcred.yaml', { GlancePassword: password }, undefined, () => undefined);
}

/**
 * The operator in pods, as the README's Install section installs it: the image built from this checkout and
 * imported into the node (no registry here), then the chart installed with Helm into the operator's namespace,
 * which enforces the restricted Pod Security Standard, with a values file for this cluster. Waits until the
 * Deployment is available.
 */
async function installOperator(environment: Environment, kube: KubeClient, keycloakUrl: string): Promise<void> {
  const workloads = environment.info.workloads;
  if (workloads === undefined) throw new Error('the environment runs no pods');
  say('building the operator image (tools/build-operator-image.sh; at once once cached)');
  const image = await buildOperatorImage();
  await importImage(workloads, image, []);
  say(`image ${image.repository}:${image.tag} imported into the node (${image.digest})`);
  await kube.apply({ type: coreTypes.namespace, name: OPERATOR_NAMESPACE }, {
    apiVersion: 'v1', kind: 'Namespace', metadata: { name: OPERATOR_NAMESPACE, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
  }, true);
  const valuesFile = join(environment.info.dir, 'keyward-values.yaml');
  writeFileSync(valuesFile, stringify({
    image: { repository: image.repository, tag: image.tag, pullPolicy: 'Never' },
    keycloak: { url: keycloakUrl, adminSecret: `${KEYCLOAK_ADMIN_SECRET.namespace}/${KEYCLOAK_ADMIN_SECRET.name}` },
  }));
  const args = ['install', RELEASE, relative(root, CHART_DIR), '--namespace', OPERATOR_NAMESPACE, '--values', valuesFile];
  say(`helm ${args.join(' ')}`);
  const outcome = runHelm([...args, '--kubeconfig', environment.info.kubeconfig]);
  if (outcome.status !== 0) throw new Error(`helm install failed: ${outcome.stderr}`);
  const deployment = { type: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, namespace: OPERATOR_NAMESPACE, name: RELEASE };
  await waitFor(async () => {
    const status = (await kube.get(deployment))?.['status'] as { availableReplicas?: number; replicas?: number } | undefined;
    return status?.replicas !== undefined && status.availableReplicas === status.replicas ? true : undefined;
  }, { what: `Deployment ${OPERATOR_NAMESPACE}/${RELEASE} to be available (kubectl describe deployment ${RELEASE} -n ${OPERATOR_NAMESPACE} says why not)`, timeoutMs: OPERATOR_AVAILABLE_TIMEOUT_MS, intervalMs: 1_000 });
  say(`keyward operator running in pods: Deployment ${OPERATOR_NAMESPACE}/${RELEASE} available (helm list --namespace ${OPERATOR_NAMESPACE})`);
}

/** SIGTERM, and wait until it is gone. */
async function stopOperator(operator: ChildProcess): Promise<void> {
  if (operator.exitCode !== null || operator.signalCode !== null) return;
  const exited = new Promise((resolve) => operator.once('exit', resolve));
  operator.kill('SIGTERM');
  await exited;
}

/**
 * Ctrl-C or SIGTERM at any moment stops everything: during start-up the environment's own handling does, and
 * the operator's cleanup, registered after the environment's, runs before it (see shutdown.ts).
 */
async function main(): Promise<void> {
  console.log('Keyward demo: a real control plane, Keystone and Keycloak on 127.0.0.1, the keyward operator, and examples/\n');
  const environment = await startEnvironment({
    ownership: 'session',
    crdFolders: TEST_CRD_FOLDERS.map((folder) => join(root, folder)),
    keycloak: true,
    workloads: WORKLOADS,
    log: say,
  });
  const { keystone, keycloak } = environment.info;
  if (keystone === undefined) throw new Error('the environment has no Keystone');
  if (keycloak === undefined) throw new Error('the environment has no Keycloak');
  const kube = new KubeClient(environment.kubeConfig());

  const password = randomBytes(12).toString('hex');
  await (await KeystoneAdmin.login(keystone)).ensureServiceUser({ userName: 'barbican', password });
  say('Keystone service user barbican created in project service');
  // The operator runs with the default enforcement namespace, which Kuadrant would create.
  const { enforcementNamespace } = defaultAPIKeyConfig;
  for (const name of ['openstack', enforcementNamespace, KEYCLOAK_ADMIN_SECRET.namespace]) await kube.apply({ type: coreTypes.namespace, name }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await applyFile(kube, 'examples/appcred/appcred.yaml', { BarbicanPassword: password });
  await applyFile(kube, 'examples/apikey/apikey.yaml', {});
  await kube.patch({ type: apiKeyType, namespace: 'team-a', name: 'weather-gold' }, {
    status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Approved', message: 'approved by the demo', lastTransitionTime: new Date().toISOString().slice(0, 19) + 'Z' }] },
  }, ContentType.mergePatch, 'status');
  say('APIKey team-a/weather-gold approved');
  await kube.apply({ type: coreTypes.secret, ...KEYCLOAK_ADMIN_SECRET }, {
    apiVersion: 'v1', kind: 'Secret', metadata: KEYCLOAK_ADMIN_SECRET,
    stringData: { 'client-id': keycloak.clientId, 'client-secret': keycloak.clientSecret },
  }, true);
  say(`Keycloak admin credentials in Secret ${KEYCLOAK_ADMIN_SECRET.namespace}/${KEYCLOAK_ADMIN_SECRET.name}`);
  await applyFile(kube, 'examples/keycloak/keycloak.yaml', {});
  // With pods the operator runs without --keystone-url, as in a cluster: barbican's namespace gets a KeystoneAPI
  // naming the environment's Keystone (what keystone-operator would publish), the identity namespace its Keystone.
  const keystoneAdminPassword = randomBytes(12).toString('hex');
  if (WORKLOADS) {
    await publishKeystoneApi(kube, 'openstack', keystone.url);
    say('KeystoneAPI openstack/keystone names the environment\'s Keystone');
    await applyKeystoneService(kube, environment, keystoneAdminPassword);
  }

  // The table stops redrawing once stopping begins: on a terminal a redraw would erase what stopping prints.
  const display = { on: true };
  if (IN_CLUSTER) {
    // The pods stop with the environment's node.
    onShutdown({ graceful: () => { display.on = false; return Promise.resolve(); }, immediate: () => undefined });
    await installOperator(environment, kube, keycloak.url);
  } else {
    const logFile = join(environment.info.dir, 'keyward.log');
    const operator = startOperator(environment, WORKLOADS ? undefined : keystone.url, keycloak.url, logFile);
    onShutdown({
      graceful: async (reason) => {
        display.on = false;
        say(`${reason}: stopping the operator`);
        await stopOperator(operator);
        say('operator stopped');
      },
      immediate: () => { operator.kill('SIGKILL'); },
    });
    say(`keyward operator started (pid ${String(operator.pid)}, log ${logFile})`);
  }
  console.log(`\nkubeconfig: ${environment.info.kubeconfig}\nKeystone: ${keystone.url}\nKeycloak: ${keycloak.url}\n`
    + `pnpm keyward plan --kubeconfig ${environment.info.kubeconfig} -A plans every namespace with the operator's settings (published in ${OPERATOR_NAMESPACE});\n`
    + 'run it from this checkout in another terminal (pnpm keyward runs the keyward binary from the sources)\nCtrl-C stops everything.\n');

  // Runs beside the table, which shows its progress (the Keystone's row, then the credential's).
  const problems: string[] = [];
  if (WORKLOADS) credentialAgainstKeystone(kube, keystoneAdminPassword).catch((error: unknown) => { problems.push(`credential against the Keystone in pods: ${error instanceof Error ? error.message : String(error)}`); });

  const tty = process.stdout.isTTY;
  let drawn = 0;
  for (;;) {
    const text = [await table(kube, enforcementNamespace).catch((error: unknown) => `(could not read: ${error instanceof Error ? error.message : String(error)})`), ...problems].join('\n');
    if (!display.on) return;
    if (tty && drawn > 0) process.stdout.write(`\x1b[${String(drawn)}A\x1b[J`);
    console.log(text);
    drawn = text.split('\n').length;
    await sleep(tty ? 2_000 : 10_000);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  // Stops whatever is still running (the environment, the operator) before exiting.
  void shutDown(1, 'error');
});
