import { isLeft } from 'fp-ts/lib/Either.js';
import { Sensitive, type KubeObject, type Plan } from '@keyward/kernel';
import { formatTime } from '@keyward/kernel/model';
import { fixedEntropy } from '@keyward/kernel/testing';
import type { ObservedClient } from '../../src/apis/keycloak/queries.js';
import { defaultKeycloakConfig, type KeycloakConfig } from '../../src/config.js';
import { ownershipAttributes } from '../../src/ownership.js';
import { CLIENT_FINALIZER } from '../../src/types.js';
import { decodeKeycloakClient } from '../../src/client/decode.js';
import { FOLLOW_UP_MS, reconcileClient } from '../../src/client/reconcile.js';
import type { ClientQueries } from '../../src/client/observe.js';
import type { KeycloakClient } from '../../src/client/spec.js';
import type { ClientAction } from '../../src/client/vocabulary.js';
import type { Observed } from '@keyward/kernel';

export const NS = 'team-a';
export const NAME = 'shop';
export const REALM = 'shared';
export const URL = 'http://keycloak.test';
export const NOW = new Date('2026-03-01T12:00:00Z');
export const SECRET = 'kc-secret-5f1e9a';
export { FOLLOW_UP_MS };

export const config: KeycloakConfig = {
  ...defaultKeycloakConfig,
  keycloakUrl: URL,
  keycloakAdminSecret: { namespace: 'keyward-system', name: 'keycloak-admin' },
  keycloakOperatorNamespace: 'keyward-system',
};

export const call = { server: { url: URL, credentials: config.keycloakAdminSecret ?? { namespace: '', name: '' } }, chargeTo: NS };

export const baseSpec = { clientId: 'shop-web', realmRef: { name: 'shared-realm', namespace: 'platform' } };

/** A KeycloakClient as the API server stores it and the codec reads it. */
export function clientObject(spec: Record<string, unknown> = baseSpec, status: Record<string, unknown> = { realm: REALM }, metadata: Record<string, unknown> = {}): KeycloakClient {
  const decoded = decodeKeycloakClient({
    apiVersion: 'vriesdemichael.github.io/v1',
    kind: 'KeycloakClient',
    metadata: { name: NAME, namespace: NS, uid: 'uid-shop', generation: 3, resourceVersion: '7', finalizers: [CLIENT_FINALIZER], ...metadata },
    spec,
    status,
  });
  if (isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
}

/**
 * A KeycloakRealm object as its controller leaves it: Ready, with Keycloak's id of the realm it made. `ready:
 * false` is a realm not made yet; `made` a realm made in Keycloak whatever its Ready (an edit being applied).
 */
export function realmObject(options: { grants?: string[]; ready?: boolean; made?: boolean; realmName?: string; operatorNamespace?: string } = {}): KubeObject {
  const made = options.made ?? options.ready !== false;
  return {
    apiVersion: 'vriesdemichael.github.io/v1',
    kind: 'KeycloakRealm',
    metadata: { name: 'shared-realm', namespace: 'platform' },
    spec: {
      realmName: options.realmName ?? REALM,
      clientAuthorizationGrants: options.grants ?? [NS],
      ...(options.operatorNamespace === undefined ? {} : { operatorRef: { namespace: options.operatorNamespace } }),
    },
    status: {
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True', reason: options.ready === false ? 'Applying' : 'Ready', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      ...(made ? { realmId: `${REALM}-id` } : {}),
    },
  };
}

/** A client as Keycloak answers for it: owned by team-a/shop unless said otherwise, with Keycloak's defaults. */
export function keycloakClient(overrides: Partial<ObservedClient> & { attributes?: Record<string, string>; fields?: Record<string, unknown> } = {}): ObservedClient {
  const { attributes, fields, ...rest } = overrides;
  return {
    client: {
      id: 'uuid-1',
      clientId: 'shop-web',
      enabled: true,
      publicClient: false,
      bearerOnly: false,
      protocol: 'openid-connect',
      redirectUris: [],
      webOrigins: [],
      standardFlowEnabled: true,
      serviceAccountsEnabled: false,
      attributes: { 'backchannel.logout.session.required': 'true', ...ownershipAttributes({ namespace: NS, name: NAME }), ...attributes },
      protocolMappers: [],
      ...(fields as Record<string, never> | undefined),
    },
    secret: new Sensitive(SECRET),
    roles: [],
    defaultClientScopes: ['acr', 'basic', 'email', 'profile', 'roles', 'web-origins'],
    optionalClientScopes: ['address', 'microprofile-jwt', 'offline_access', 'phone'],
    serviceAccountRoles: undefined,
    ...rest,
  };
}

export type World = Partial<Observed<ClientQueries>>;

/** The plan for `client` given what is observed (the realm object granted and ready unless said otherwise). */
export function planFor(client: KeycloakClient, world: World = {}, now = NOW, cfg: KeycloakConfig = config): Plan<ClientAction> {
  const observed: Observed<ClientQueries> = { realm: realmObject(), client: undefined, credentials: undefined, providedSecret: undefined, ...world };
  return reconcileClient({ primary: client, observed, now, config: cfg, entropy: fixedEntropy(0) });
}

export const at = (date: Date): string => formatTime(date);

/** The data of a Secret as the API server stores what a k8s.apply step states (stringData base64-encoded). */
export function storedSecret(object: Record<string, unknown>): KubeObject {
  const { stringData, metadata, ...rest } = object as { stringData: Record<string, unknown>; metadata: KubeObject['metadata'] };
  const data = Object.fromEntries(Object.entries(stringData).map(([key, value]) => [key, Buffer.from(value instanceof Sensitive ? String(value.reveal()) : String(value)).toString('base64')]));
  return { ...rest, apiVersion: 'v1', kind: 'Secret', metadata: { ...metadata, uid: 'secret-uid', resourceVersion: '1' }, data };
}
