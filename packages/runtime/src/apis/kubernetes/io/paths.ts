import { apiVersionOf } from '@keyward/kernel/model';
import { type ResourceType } from '@keyward/kernel';
import { KeywardError } from '@keyward/kernel/interpreter';

/**
 * A path segment from a name. "." and ".." (no valid object name) would be resolved away by URL
 * normalisation and address another resource (`secrets/..` is the namespace), so they are refused.
 */
function segment(name: string): string {
  if (name === '.' || name === '..') {
    throw new KeywardError({ api: 'kubernetes', code: 0, reason: 'InvalidName', message: `"${name}" is not an object name`, retryable: false });
  }
  return encodeURIComponent(name);
}

/** The REST path of a collection or an object: /api/v1/namespaces/ns/secrets[/name[/subresource]]. */
export function resourcePath(type: ResourceType, namespace: string | undefined, name?: string, subresource?: string): string {
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${apiVersionOf(type)}`;
  const scope = type.namespaced && namespace !== undefined && namespace !== '' ? `/namespaces/${segment(namespace)}` : '';
  const object = name === undefined ? '' : `/${segment(name)}`;
  return `${base}${scope}/${type.plural}${object}${subresource === undefined ? '' : `/${subresource}`}`;
}

/** A field selector for one object's name and/or extra conditions (`type=Opaque`), ANDed; undefined when neither. */
export function fieldSelector(name: string | undefined, fields: string | undefined): string | undefined {
  const parts = [name === undefined ? undefined : `metadata.name=${name}`, fields].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(',');
}

/** A label selector from equality requirements: {app: "x", tier: "y"} -> "app=x,tier=y". */
export function labelSelector(labels: Readonly<Record<string, string>> | undefined): string | undefined {
  if (labels === undefined) return undefined;
  const parts = Object.entries(labels).map(([key, value]) => `${key}=${value}`);
  return parts.length === 0 ? undefined : parts.join(',');
}
