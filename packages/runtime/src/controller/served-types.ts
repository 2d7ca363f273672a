import type { KubeClient } from '../apis/kubernetes/io/client.js';
import { KeywardError } from '@keyward/kernel/interpreter';
import { apiVersionOf } from '@keyward/kernel/model';
import { type ResourceType } from '@keyward/kernel';

/** `<plural>.<group>`: the name of the CRD that serves a type (a core type has no CRD; its plural alone). */
export function crdName(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

/** The reason of a read of a type the API server does not serve. */
export const CRD_NOT_INSTALLED = 'CRDNotInstalled';

/**
 * A read of a type the API server does not serve, which for a custom resource means its CRD is not installed.
 * Retryable: installing the CRD is all it takes.
 */
export class TypeNotServed extends KeywardError {
  readonly type: ResourceType;

  constructor(type: ResourceType, what: string) {
    super({
      api: 'kubernetes',
      code: 404,
      reason: CRD_NOT_INSTALLED,
      message: `${what}: CRD ${crdName(type)} is not installed (the API server does not serve ${type.plural} in ${apiVersionOf(type)})`,
      retryable: true,
    });
    this.type = type;
  }
}

interface ResourceList {
  readonly resources?: readonly { readonly name?: unknown }[];
}

/**
 * Whether the API server serves `type`, from the discovery document of its group and version (which every
 * authenticated identity may read). Throws when the server does not tell (no answer, 5xx, refusal).
 */
export async function isServed(kube: KubeClient, type: ResourceType): Promise<boolean> {
  const groupVersion = apiVersionOf(type);
  try {
    const list = await kube.raw<ResourceList>({
      method: 'GET',
      path: type.group === '' ? `/api/${type.version}` : `/apis/${groupVersion}`,
      what: `discover the resources of ${groupVersion}`,
      verb: 'get',
      resource: 'discovery',
    });
    return (list.resources ?? []).some((resource) => resource.name === type.plural);
  } catch (error) {
    // The group or version is not served at all.
    if (error instanceof KeywardError && error.code === 404) return false;
    throw error;
  }
}
