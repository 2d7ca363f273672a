// Installing the operator as platform teams do, on an environment's workload tier: the image that
// tools/build-operator-image.sh builds, imported into the tier's containerd, and deploy/helm/keyward installed with
// the pinned Helm. The demo's `--in-cluster` and the in-cluster install test both install this way.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { helmBinary, type WorkloadsInfo } from '@keyward/test-env';
import { ContentType, type KubeClient } from '@keyward/runtime/io';
import { keystoneApiType } from '@keyward/keystone-appcred';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('..', import.meta.url));

export const CHART_DIR = join(repository, 'deploy', 'helm', 'keyward');
export const RELEASE = 'keyward';

/** Helm values, as a values file would hold them. */
export type Values = Readonly<Record<string, unknown>>;

export interface HelmOutcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The pinned Helm binary; throws with the command that builds it when it is missing. */
export function helm(): string {
  const binary = helmBinary();
  if (!existsSync(binary)) {
    throw new Error(`the pinned Helm binary is not built (expected at ${binary}): run scripts/setup, or tools/build.sh helm`);
  }
  return binary;
}

/** Runs the pinned Helm binary with `args`, with Helm's own folders in a temporary directory. */
export function runHelm(args: readonly string[]): HelmOutcome {
  const binary = helm();
  const home = mkdtempSync(join(tmpdir(), 'keyward-helm-'));
  try {
    const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
    const result = spawnSync(binary, [...args], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
    if (result.error !== undefined) throw result.error;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs the pinned Helm binary with `args` and a values file holding `values`. */
export function runHelmWithValues(args: readonly string[], values: Values): HelmOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'keyward-values-'));
  try {
    const valuesFile = join(dir, 'values.json');
    // JSON is YAML: the values file holds exactly these values, without a YAML writer's choices.
    writeFileSync(valuesFile, JSON.stringify(values));
    return runHelm([...args, '--values', valuesFile]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The operator image as tools/build-operator-image.sh built it. */
export interface OperatorImage {
  readonly repository: string;
  readonly tag: string;
  readonly archive: string;
  readonly digest: string;
}

/** Builds the operator image from the workspace (at once when the cache holds it). */
export async function buildOperatorImage(): Promise<OperatorImage> {
  const { stdout } = await run(join(repository, 'tools', 'build-operator-image.sh'), [], { maxBuffer: 64 * 1024 * 1024 });
  const [, reference, archive, digest] = stdout.trim().split('\n').at(-1)?.split(' ') ?? [];
  const [name, tag] = reference?.split(':') ?? [];
  if (name === undefined || tag === undefined || archive === undefined || digest === undefined) throw new Error(`unexpected output of tools/build-operator-image.sh: ${stdout}`);
  return { repository: name, tag, archive, digest };
}

/** Imports the image into the tier's containerd, where kubelet finds it, also as `<repository>:<tag>` for each extra tag. */
export async function importImage(workloads: WorkloadsInfo, image: OperatorImage, extraTags: readonly string[]): Promise<void> {
  const ctr = (...args: string[]) => run('ctr', ['--address', workloads.containerdAddress, '--namespace', 'k8s.io', 'images', ...args], { maxBuffer: 16 * 1024 * 1024 });
  await ctr('import', image.archive);
  for (const tag of extraTags) await ctr('tag', '--force', `${image.repository}:${image.tag}`, `${image.repository}:${tag}`);
}

/** Runs Helm on the chart's release against the cluster of `kubeconfig`; fails with Helm's output. */
export function helmRelease(kubeconfig: string, namespace: string, command: 'install' | 'upgrade' | 'rollback' | 'uninstall', values: Values = {}): string {
  const args = [command, RELEASE, ...(command === 'install' || command === 'upgrade' ? [CHART_DIR] : []), ...(command === 'rollback' ? ['1'] : [])];
  const common = ['--namespace', namespace, '--kubeconfig', kubeconfig];
  const outcome = command === 'install' || command === 'upgrade' ? runHelmWithValues([...args, ...common], values) : runHelm([...args, ...common]);
  if (outcome.status !== 0) throw new Error(`helm ${command} failed (${String(outcome.status)}): ${outcome.stderr}`);
  return outcome.stdout;
}


/**
 * A KeystoneAPI in `namespace` naming the Keystone at `url`, Ready, as keystone-operator publishes one: where an
 * operator without a configured Keystone URL finds the Keystone of that namespace's credentials.
 */
export async function publishKeystoneApi(kube: KubeClient, namespace: string, url: string): Promise<void> {
  const api = { type: keystoneApiType, namespace, name: 'keystone' };
  await kube.apply(api, { apiVersion: 'keystone.openstack.org/v1beta1', kind: 'KeystoneAPI', metadata: { name: api.name, namespace } }, true);
  await kube.patch(api, {
    status: { apiEndpoints: { internal: url }, conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'the environment\'s Keystone', lastTransitionTime: new Date().toISOString().slice(0, 19) + 'Z' }] },
  }, ContentType.mergePatch, 'status');
}
