// What the in-cluster install test needs around the chart: the operator image built and imported into the
// workload tier's containerd, Helm against the tier's API server, the operator pods' leader and metrics, and the
// repository's examples applied as a user applies them.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { coreTypes, type KubeObject, type ResourceType } from '@keyward/kernel';
import type { KubeClient } from '@keyward/runtime/io';
import { holdForThisFile, httpCall, kubectlBinary, type WorkloadsInfo } from '@keyward/test-env';
import { exampleTypes } from '../../../scripts/example-types.js';
import { buildOperatorImage as buildImage, type OperatorImage } from '../../../scripts/in-cluster-install.js';

export { helmRelease, importImage, publishKeystoneApi, type OperatorImage } from '../../../scripts/in-cluster-install.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Builds the operator image (at once when the cache holds it). The build compiles the workspace in place, which
 * other test files may read meanwhile: it holds the workspace build while it runs.
 */
export async function buildOperatorImage(): Promise<OperatorImage> {
  const release = await holdForThisFile('workspace build');
  try {
    return await buildImage();
  } finally {
    release();
  }
}

/**
 * `kubectl apply --server-side -k` of an overlay of deploy/base made for this cluster: the image, and the
 * operator's settings as variables of its Deployment (name and value), as a user's overlay would set them.
 */
export async function applyBase(kubeconfig: string, image: { readonly repository: string; readonly tag: string }, env: Readonly<Record<string, string>>): Promise<string> {
  const kubectl = kubectlBinary();
  if (!existsSync(kubectl)) throw new Error(`the pinned kubectl is not built (expected at ${kubectl}): run scripts/setup, or tools/build.sh kubectl`);
  const overlay = mkdtempSync(join(tmpdir(), 'keyward-overlay-'));
  try {
    const patch = [
      { op: 'add', path: '/spec/template/spec/containers/0/imagePullPolicy', value: 'Never' },
      ...Object.entries(env).map(([name, value]) => ({ op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name, value } })),
    ];
    // JSON is YAML: the kustomization holds exactly this.
    writeFileSync(join(overlay, 'kustomization.yaml'), JSON.stringify({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      // kustomize takes no absolute path: the base, relative to the overlay.
      resources: [relative(overlay, join(repository, 'deploy', 'base'))],
      images: [{ name: 'keyward/operator', newName: image.repository, newTag: image.tag }],
      patches: [{ target: { group: 'apps', version: 'v1', kind: 'Deployment', name: 'keyward', namespace: 'keyward-system' }, patch: JSON.stringify(patch) }],
    }));
    const { stdout } = await run(kubectl, ['apply', '--server-side', '-k', overlay, '--kubeconfig', kubeconfig], { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
}

interface PodObject extends KubeObject {
  readonly spec?: { readonly containers?: readonly { readonly image?: string }[] };
  readonly status?: {
    readonly phase?: string;
    readonly podIP?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
    readonly containerStatuses?: readonly { readonly containerID?: string }[];
  };
}

/**
 * Kills a pod's container at once (SIGKILL through containerd), as a crash or an OOM kill would: the operator gets
 * no chance to release its Lease.
 */
export async function killContainer(workloads: WorkloadsInfo, pod: PodObject): Promise<void> {
  const id = pod.status?.containerStatuses?.[0]?.containerID?.replace(/^containerd:\/\//, '');
  if (id === undefined) throw new Error(`${pod.metadata.name} has no running container`);
  await run('ctr', ['--address', workloads.containerdAddress, '--namespace', 'k8s.io', 'tasks', 'kill', '--signal', 'SIGKILL', id]);
}

export const podType: ResourceType = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };

/** The operator's pods of the release, the ones being deleted left out. */
export async function operatorPods(kube: KubeClient, namespace: string): Promise<PodObject[]> {
  const pods = (await kube.list(podType, { namespace, labels: { 'app.kubernetes.io/name': 'keyward' } })).items as PodObject[];
  return pods.filter((pod) => pod.metadata.deletionTimestamp === undefined);
}

export const isReady = (pod: PodObject): boolean => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** The pod holding the leader Lease (its holder identity is the pod's name and a random suffix), if any. */
export async function leaderPod(kube: KubeClient, namespace: string): Promise<PodObject | undefined> {
  const lease = await kube.get({ type: coreTypes.lease, namespace, name: 'keyward-leader' });
  const holder = (lease?.['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
  if (holder === undefined) return undefined;
  return (await operatorPods(kube, namespace)).find((pod) => holder.startsWith(`${pod.metadata.name}-`));
}

/**
 * A GET of `url` over HTTPS as a scraper does it: with `token` as its bearer token when given, trusting the
 * certificate the operator made for itself (as the chart's ServiceMonitor does).
 */
export async function scrape(url: string, token: string | undefined): Promise<{ readonly status: number; readonly body: string }> {
  const { status, body } = await httpCall(url, { insecure: true, timeoutMs: 10_000, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status, body };
}

/**
 * One pod's Prometheus metrics, served over HTTPS to `token`'s bearer, summed per metric name over the series
 * whose labels contain `labels`.
 */
export async function podMetric(pod: PodObject, token: string, metric: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  const response = await scrape(`https://${pod.status?.podIP ?? ''}:8080/metrics`, token);
  if (response.status !== 200) throw new Error(`metrics of ${pod.metadata.name}: HTTP ${String(response.status)}`);
  const wanted = Object.entries(labels).map(([name, value]) => `${name}="${value}"`);
  return response.body
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `))
    .filter((line) => wanted.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** The objects of an example file of the repository (examples/<path>), each with its resource type. */
export function example(path: string): { readonly type: ResourceType; readonly object: KubeObject }[] {
  return parseAllDocuments(readFileSync(join(repository, 'examples', path), 'utf8')).map((document) => {
    const object = document.toJS() as KubeObject;
    const type = exampleTypes[object.kind];
    if (type === undefined) throw new Error(`examples/${path}: no resource type for ${object.kind}`);
    return { type, object };
  });
}
