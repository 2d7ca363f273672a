import { findCondition, readConditions, type KubeObject } from '@keyward/vocabulary';

export type KeystoneEndpoint =
  | { readonly usable: true; readonly url: string; readonly source: string }
  | { readonly usable: false; readonly reason: string; readonly message: string };

/** Keystone clients here speak Identity v3 at a URL ending in /v3; KeystoneAPI publishes the bare service URL. */
export function identityV3Url(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/v3') ? trimmed : `${trimmed}/v3`;
}

/**
 * The Keystone to talk to: the operator's configured URL when there is one, else the KeystoneAPI object in
 * the CR's namespace, as upstream reads it (Ready condition True and an internal endpoint in
 * status.apiEndpoints). Several KeystoneAPIs: the first by name.
 */
export function keystoneEndpoint(keystoneAPIs: readonly KubeObject[] | undefined, configuredUrl: string | undefined, namespace: string): KeystoneEndpoint {
  if (configuredUrl !== undefined) return { usable: true, url: identityV3Url(configuredUrl), source: 'the configured Keystone URL' };
  const api = [...(keystoneAPIs ?? [])].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))[0];
  if (api === undefined) return { usable: false, reason: 'KeystoneAPINotFound', message: `no KeystoneAPI in namespace ${namespace}` };
  // Another operator's object: its status is read field by field, never trusted to have our shape.
  const status: unknown = api['status'];
  const field = (object: unknown, key: string): unknown => (typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined);
  const ready = findCondition(readConditions(field(status, 'conditions')), 'Ready');
  if (ready?.status !== 'True') {
    const detail = ready?.message === undefined || ready.message === '' ? '' : `: ${ready.message}`;
    return { usable: false, reason: 'KeystoneAPINotReady', message: `KeystoneAPI ${namespace}/${api.metadata.name} is not ready${detail}` };
  }
  const internal = field(field(status, 'apiEndpoints'), 'internal');
  if (typeof internal !== 'string' || internal === '') {
    return { usable: false, reason: 'KeystoneAPIEndpointMissing', message: `KeystoneAPI ${namespace}/${api.metadata.name} has no internal endpoint` };
  }
  return { usable: true, url: identityV3Url(internal), source: `KeystoneAPI ${api.metadata.name}` };
}
