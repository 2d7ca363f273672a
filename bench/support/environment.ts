// The environment a benchmark starts for itself, with the CRDs the integration tests install.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coreTypes } from '@keyward/kernel';
import type { KubeClient } from '@keyward/runtime/io';
import { TEST_CRD_FOLDERS, startEnvironment, type Environment } from '@keyward/test-env';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A path inside the repository, from its root. */
export function inRepository(path: string): string {
  return join(repositoryRoot, path);
}

/** A fresh environment owned by this process (stopped with it); quiet, since benchmarks print only JSON. */
export function startBenchEnvironment(options: { readonly keystone: boolean; readonly keycloak?: boolean }): Promise<Environment> {
  return startEnvironment({
    ownership: 'session',
    keystone: options.keystone,
    keycloak: options.keycloak ?? false,
    crdFolders: TEST_CRD_FOLDERS.map(inRepository),
    log: () => undefined,
  });
}

export async function createNamespace(kube: KubeClient, name: string): Promise<void> {
  await kube.create({ type: coreTypes.namespace, name }, { metadata: { name } });
}
