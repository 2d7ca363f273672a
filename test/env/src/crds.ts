import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiException,
  ApiextensionsV1Api,
  CustomObjectsApi,
  loadAllYaml,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { waitFor } from './wait.js';

/**
 * Every CustomResourceDefinition in the YAML files (*.yaml, *.yml) of the given folders. Parsed with the
 * client's loadAllYaml so they become its typed models: the client's serializer silently drops keys it does
 * not map, such as a raw `x-kubernetes-validations`.
 */
export function readCrds(folders: readonly string[]): V1CustomResourceDefinition[] {
  const crds: V1CustomResourceDefinition[] = [];
  for (const folder of folders) {
    for (const file of readdirSync(folder).filter((name) => /\.ya?ml$/.test(name)).sort()) {
      for (const object of loadAllYaml(readFileSync(join(folder, file), 'utf8')) as (V1CustomResourceDefinition | null)[]) {
        if (object?.kind === 'CustomResourceDefinition') crds.push(object);
      }
    }
  }
  return crds;
}

async function createOrReplace(api: ApiextensionsV1Api, crd: V1CustomResourceDefinition): Promise<void> {
  try {
    await api.createCustomResourceDefinition({ body: crd });
  } catch (error) {
    if (!(error instanceof ApiException) || error.code !== 409) throw error;
    const name = crd.metadata?.name ?? '';
    const current = await api.readCustomResourceDefinition({ name });
    await api.replaceCustomResourceDefinition({
      name,
      body: { ...crd, metadata: { ...crd.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' } },
    });
  }
}

/**
 * Creates (or replaces) the CRDs, then waits until each is Established and every served version lists the
 * plural in discovery, the point from which clients can use it.
 */
export async function installCrds(kubeConfig: KubeConfig, crds: readonly V1CustomResourceDefinition[], timeoutMs = 60_000): Promise<void> {
  const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const discovery = kubeConfig.makeApiClient(CustomObjectsApi);
  for (const crd of crds) await createOrReplace(extensions, crd);
  for (const crd of crds) {
    const name = crd.metadata?.name ?? '';
    await waitFor(
      async () => {
        const status = await extensions.readCustomResourceDefinition({ name });
        return status.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true ? true : undefined;
      },
      { what: `CRD ${name} to be Established`, timeoutMs },
    );
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      await waitFor(
        async () => {
          const resources = await discovery.getAPIResources({ group: crd.spec.group, version: version.name });
          return resources.resources.some((r) => r.name === crd.spec.names.plural) ? true : undefined;
        },
        { what: `${crd.spec.names.plural}.${crd.spec.group}/${version.name} in discovery`, timeoutMs },
      );
    }
  }
}
