import { isLeft } from 'fp-ts/lib/Either.js';
import type { KubeObject, Plan } from '@keyward/kernel';
import { fixedEntropy } from '@keyward/kernel/testing';
import type { ObservedRealm } from '../../src/apis/keycloak/queries.js';
import type { ClientScopeRepresentation, ObservedRole } from '../../src/apis/keycloak/representations.js';
import { defaultKeycloakConfig, type KeycloakConfig } from '../../src/config.js';
import { CR_NAME, CR_NAMESPACE, MANAGED_BY } from '../../src/ownership.js';
import { REALM_FINALIZER } from '../../src/types.js';
import { decodeRealm } from '../../src/realm/decode.js';
import { reconcile } from '../../src/realm/reconcile.js';
import { REALM_SECRET_LABEL } from '../../src/realm/secret-opt-in.js';
import { idpSecretQueryName } from '../../src/realm/identity-providers/secrets.js';
import type { KeycloakRealm } from '../../src/realm/spec.js';
import type { KeycloakRealmAction } from '../../src/realm/vocabulary.js';

export const NS = 'shop';
export const NOW = new Date('2026-03-01T12:00:00Z');
export const URL = 'http://127.0.0.1:8080';

export const config: KeycloakConfig = {
  ...defaultKeycloakConfig,
  keycloakUrl: URL,
  keycloakAdminSecret: { namespace: 'keyward-system', name: 'keycloak-admin' },
  keycloakOperatorNamespace: 'keyward-system',
};

export const baseSpec = { realmName: 'shop', displayName: 'Shop' };

/** A KeycloakRealm as the API server stores it (our finalizer on unless told otherwise). */
export function realmObject(spec: unknown, options: { status?: unknown; finalizers?: string[]; deletionTimestamp?: string; name?: string } = {}): KubeObject {
  return {
    apiVersion: 'vriesdemichael.github.io/v1',
    kind: 'KeycloakRealm',
    metadata: {
      name: options.name ?? 'shop-realm',
      namespace: NS,
      uid: 'uid-1',
      generation: 3,
      resourceVersion: '100',
      finalizers: options.finalizers ?? [REALM_FINALIZER],
      ...(options.deletionTimestamp === undefined ? {} : { deletionTimestamp: options.deletionTimestamp }),
    },
    ...(spec === undefined ? {} : { spec }),
    ...(options.status === undefined ? {} : { status: options.status }),
  };
}

export function decoded(object: KubeObject): KeycloakRealm {
  const result = decodeRealm(object);
  if (isLeft(result)) throw new Error(result.left.message);
  return result.right;
}

export const ours = { [MANAGED_BY]: 'keyward', [CR_NAMESPACE]: NS, [CR_NAME]: 'shop-realm' };

/** Keycloak's built-in client scopes of a new realm, as GET .../client-scopes answers (trimmed). */
export const builtInScopes: ClientScopeRepresentation[] = [
  { id: 'b1', name: 'profile', protocol: 'openid-connect', attributes: { 'include.in.token.scope': 'true', 'display.on.consent.screen': 'true' }, protocolMappers: [{ id: 'm1', name: 'family name', protocol: 'openid-connect', protocolMapper: 'oidc-usermodel-attribute-mapper', config: { 'claim.name': 'family_name' } }] },
  { id: 'b2', name: 'email', protocol: 'openid-connect', attributes: { 'include.in.token.scope': 'true' } },
  { id: 'b3', name: 'roles', protocol: 'openid-connect', attributes: { 'include.in.token.scope': 'false' } },
  { id: 'b4', name: 'web-origins', protocol: 'openid-connect', attributes: { 'include.in.token.scope': 'false' } },
  { id: 'b5', name: 'acr', protocol: 'openid-connect', attributes: {} },
  { id: 'b6', name: 'basic', protocol: 'openid-connect', attributes: {} },
  { id: 'b7', name: 'offline_access', protocol: 'openid-connect', attributes: {} },
];

/** Keycloak's built-in realm roles of realm shop. */
export const builtInRoles: ObservedRole[] = [
  { role: { id: 'r1', name: 'default-roles-shop', composite: true, attributes: {} }, composites: { realm: ['offline_access', 'uma_authorization'], clients: { account: ['view-profile', 'manage-account'] } } },
  { role: { id: 'r2', name: 'offline_access', description: '${role_offline-access}', composite: false, attributes: {} }, composites: { realm: [], clients: {} } },
  { role: { id: 'r3', name: 'uma_authorization', description: '${role_uma_authorization}', composite: false, attributes: {} }, composites: { realm: [], clients: {} } },
];

/** The realm as Keycloak answers for a spec of just `baseSpec`, owned by shop/shop-realm. */
export function observedRealm(overrides: Partial<ObservedRealm> & { realmFields?: Record<string, unknown> } = {}): ObservedRealm {
  const { realmFields, ...rest } = overrides;
  return {
    realm: {
      id: '4a0e-uuid',
      realm: 'shop',
      displayName: 'Shop',
      enabled: true,
      sslRequired: 'external',
      registrationAllowed: false,
      accessTokenLifespan: 300,
      supportedLocales: [],
      eventsListeners: ['jboss-logging'],
      enabledEventTypes: [],
      attributes: { ...ours, frontendUrl: '', cibaBackchannelTokenDeliveryMode: 'poll' },
      ...(realmFields as Record<string, never> | undefined),
    },
    roles: builtInRoles,
    clientScopes: builtInScopes,
    defaultClientScopes: ['profile', 'email', 'roles', 'web-origins', 'acr', 'basic'],
    optionalClientScopes: ['offline_access', 'address', 'phone'],
    ...rest,
  };
}

/** `secrets`: the identity providers' Secrets, by name. */
export function plan(object: KubeObject, observed: { realm?: ObservedRealm | undefined; smtpPasswordSecret?: KubeObject | undefined; secrets?: readonly KubeObject[] } = {}, cfg: KeycloakConfig = config): Plan<KeycloakRealmAction> {
  const secrets = Object.fromEntries((observed.secrets ?? []).map((secret) => [idpSecretQueryName(secret.metadata.name), secret]));
  return reconcile({
    primary: decoded(object),
    observed: { realm: observed.realm, smtpPasswordSecret: observed.smtpPasswordSecret, ...secrets },
    now: NOW,
    config: cfg,
    entropy: fixedEntropy(0),
  });
}

export const kinds = (p: Plan<KeycloakRealmAction>): string[] => p.steps.map((step) => step.action.kind);

/** A Secret named `name` with the realm opt-in label unless `labels` says otherwise. */
export function secret(resourceVersion: string, labels: Readonly<Record<string, string>> = { [REALM_SECRET_LABEL]: 'true' }, name = 'smtp'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS, resourceVersion, labels } };
}
