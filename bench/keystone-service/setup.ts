// What the Keystone benchmarks share: an environment of their own with the workload tier (real Keystone pods
// against the environment's MariaDB), namespaces prepared as the pod tests prepare them, and waits seen
// through watches.
import { randomBytes } from 'node:crypto';
import type { KubeObject, ResourceType } from '@keyward/kernel';
import { coreTypes } from '@keyward/kernel';
import type { KubeClient } from '@keyward/runtime/io';
import { TEST_CRD_FOLDERS, resolveServiceNames, startEnvironment, waitFor, type Environment, type WorkloadEnvironment } from '@keyward/test-env';
import { conditionOf, statusOf } from '../../packages/keystone-service/test/pods/harness.js';
import { inRepository } from '../support/environment.js';
import { whenCount } from '../support/watch.js';

/** The Keystone object of each namespace. */
export const CR = 'identity';

/** Pods start, migrate and roll in their own time on a loaded two-core machine. */
export const CONVERGE_TIMEOUT_MS = 10 * 60_000;

/** Progress on stderr: the JSON result is the only thing on stdout. */
export function progress(line: string): void {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
}

/**
 * A fresh environment owned by this process with the workload tier (a machine runs one tier at a time: the
 * start waits for another's to end), Keystone for its MariaDB, and the test CRDs.
 */
export async function startWorkloadEnvironment(): Promise<{ environment: Environment; workloads: WorkloadEnvironment }> {
  const environment = await startEnvironment({ ownership: 'session', keystone: true, workloads: true, crdFolders: TEST_CRD_FOLDERS.map(inRepository), log: () => undefined });
  const { info } = environment;
  if (info.workloads === undefined) throw new Error('the environment started without its workload tier');
  // The controller in this process checks the API through the Service's cluster DNS name, as a pod would.
  resolveServiceNames(environment.kubeConfig());
  return { environment, workloads: { info: { ...info, workloads: info.workloads }, stop: () => environment.stop() } };
}

export const adminPassword = (): string => `admin-${randomBytes(12).toString('hex')}`;

/** Ready at the generation the object has: what the pod tests wait for. */
export function isReady(object: KubeObject): boolean {
  return conditionOf(object, 'Ready')?.status === 'True' && statusOf(object)['observedGeneration'] === object.metadata.generation;
}

/**
 * Resolves once the object `name` meets `test`, seen through a watch of its namespace that has listed by the
 * time this returns: start it before the change it waits for.
 */
export async function whenObject(kube: KubeClient, type: ResourceType, namespace: string, name: string, test: (object: KubeObject) => boolean): Promise<{ reached: Promise<void>; stop: () => Promise<void> }> {
  return whenCount(kube, { type, namespace }, 1, (object) => object.metadata.name === name && test(object));
}

/** Deletes a namespace and waits until it is gone (its pods terminated), so the next phase starts on a quiet node. */
export async function removeNamespace(kube: KubeClient, namespace: string): Promise<void> {
  await kube.delete({ type: coreTypes.namespace, name: namespace });
  await waitFor(async () => ((await kube.get({ type: coreTypes.namespace, name: namespace })) === undefined ? true : undefined), {
    what: `namespace ${namespace} to be gone`, timeoutMs: CONVERGE_TIMEOUT_MS, intervalMs: 1_000,
  });
}
