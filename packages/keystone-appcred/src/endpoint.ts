import { findCondition, type Condition, type KubeObject } from '@keyward/kernel';
import { readConditions } from '@keyward/kernel/model';

export type KeystoneEndpoint =
  | { readonly usable: true; readonly url: string; readonly source: string }
  | { readonly usable: false; readonly reason: string; readonly message: string };

/** Keystone clients here speak Identity v3 at a URL ending in /v3; KeystoneAPI publishes the bare service URL. */
export function identityV3Url(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/v3') ? trimmed : `${trimmed}/v3`;
}

// Another operator's objects: their status is read field by field, never trusted to have our shape.
const field = (object: unknown, key: string): unknown => (typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined);
const readyOf = (object: KubeObject): Condition | undefined => findCondition(readConditions(field(object['status'], 'conditions')), 'Ready');
const byName = (objects: readonly KubeObject[] | undefined): KubeObject[] => [...(objects ?? [])].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
const detailOf = (ready: Condition | undefined): string => (ready?.message === undefined || ready.message === '' ? '' : `: ${ready.message}`);
const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The namespace's KeystoneAPI as upstream reads it: the first by name, Ready and with an internal endpoint. */
function fromKeystoneAPI(api: KubeObject, namespace: string): KeystoneEndpoint {
  const ready = readyOf(api);
  if (ready?.status !== 'True') {
    return { usable: false, reason: 'KeystoneAPINotReady', message: `KeystoneAPI ${namespace}/${api.metadata.name} is not ready${detailOf(ready)}` };
  }
  const internal = nonEmpty(field(field(api['status'], 'apiEndpoints'), 'internal'));
  if (internal === undefined) {
    return { usable: false, reason: 'KeystoneAPIEndpointMissing', message: `KeystoneAPI ${namespace}/${api.metadata.name} has no internal endpoint` };
  }
  return { usable: true, url: identityV3Url(internal), source: `KeystoneAPI ${api.metadata.name}` };
}

/**
 * The namespace's Keystone objects (of @keyward/keystone-service): the first by name of those Ready with an
 * endpoint; else why none is usable, told of the first Ready one (no endpoint yet) or the first one at all.
 */
function fromKeystones(first: KubeObject, keystones: readonly KubeObject[], namespace: string): KeystoneEndpoint {
  const ready = keystones.filter((keystone) => readyOf(keystone)?.status === 'True');
  for (const keystone of ready) {
    const endpoint = nonEmpty(field(keystone['status'], 'endpoint'));
    if (endpoint !== undefined) return { usable: true, url: identityV3Url(endpoint), source: `Keystone ${keystone.metadata.name}` };
  }
  const firstReady = ready[0];
  if (firstReady !== undefined) return { usable: false, reason: 'KeystoneEndpointMissing', message: `Keystone ${namespace}/${firstReady.metadata.name} has no endpoint` };
  return { usable: false, reason: 'KeystoneNotReady', message: `Keystone ${namespace}/${first.metadata.name} is not ready${detailOf(readyOf(first))}` };
}

/**
 * The Keystone to talk to: the operator's configured URL when there is one; else the KeystoneAPI object in
 * the CR's namespace, as upstream reads it (Ready condition True and an internal endpoint in
 * status.apiEndpoints; several: the first by name); else a Keystone object of @keyward/keystone-service there
 * (Ready and status.endpoint). A usable KeystoneAPI wins, as it always did; a KeystoneAPI that is not usable
 * gives way to a usable Keystone, since that one can serve the CR now, and only when neither is usable does the
 * KeystoneAPI say why (so a namespace without Keystone objects reads exactly as before). `keystoneAPIs` and
 * `keystones` are undefined when not read (a configured URL) or not served (their CRD is not installed).
 */
export function keystoneEndpoint(
  keystoneAPIs: readonly KubeObject[] | undefined,
  configuredUrl: string | undefined,
  namespace: string,
  keystones?: readonly KubeObject[],
): KeystoneEndpoint {
  if (configuredUrl !== undefined) return { usable: true, url: identityV3Url(configuredUrl), source: 'the configured Keystone URL' };
  const api = byName(keystoneAPIs)[0];
  const fromApi = api === undefined ? undefined : fromKeystoneAPI(api, namespace);
  if (fromApi?.usable === true) return fromApi;
  const candidates = byName(keystones);
  const first = candidates[0];
  const fromKeystone = first === undefined ? undefined : fromKeystones(first, candidates, namespace);
  if (fromKeystone?.usable === true) return fromKeystone;
  return fromApi ?? fromKeystone ?? { usable: false, reason: 'KeystoneAPINotFound', message: `no KeystoneAPI in namespace ${namespace}` };
}
