import { objectKey, type ResourceType } from '../model/refs.js';
import type { KubeObject } from '../apis/kubernetes/actions.js';
import type { SecondaryWatch } from './controller.js';

/** The group of an apiVersion ("apps/v1" -> "apps", "v1" -> ""). */
function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
}

/**
 * A watch of objects the controller creates with a controller owner reference to its primary object (a
 * Deployment, a ConfigMap): a change to one reconciles its owner, as controller-runtime's Owns does. Any
 * version of the owner's group counts, since a reference keeps the version it was written with.
 */
export function owns(owned: ResourceType, owner: ResourceType, options: { readonly labels?: Readonly<Record<string, string>> } = {}): SecondaryWatch {
  return {
    type: owned,
    ...(options.labels === undefined ? {} : { labels: options.labels }),
    mapToPrimary: (object: KubeObject) => {
      const namespace = object.metadata.namespace;
      if (namespace === undefined) return [];
      return (object.metadata.ownerReferences ?? [])
        .filter((ref) => ref.controller === true && ref.kind === owner.kind && groupOf(ref.apiVersion) === owner.group)
        .map((ref) => objectKey(namespace, ref.name));
    },
  };
}
