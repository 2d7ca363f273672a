import { deepEqual } from '@keyward/kernel/plan';
import { type KubeObject } from '@keyward/kernel';
import type { KeycloakClient } from './spec.js';

// What a client needs of its KeycloakRealm object, read from the object as stored: the realm's own codec is
// the realm controller's business, and a client must not stop working because of a realm field it never reads.

/** Where the realm object is: realmRef, its namespace defaulting to the client's. */
export interface RealmObjectRef {
  readonly namespace: string;
  readonly name: string;
}

export function realmObjectRef(client: KeycloakClient): RealmObjectRef {
  return { namespace: client.spec.realmRef.namespace ?? client.metadata.namespace, name: client.spec.realmRef.name };
}

export const describeRealmObject = (ref: RealmObjectRef): string => `${ref.namespace}/${ref.name}`;

/** A realm object as far as its clients read it. */
export interface RealmView {
  /** The realm's name in Keycloak; undefined when the object states none. */
  readonly realmName: string | undefined;
  /** The namespaces whose KeycloakClients may be clients of the realm. */
  readonly grants: readonly string[];
  /** The namespace of the operator that manages the realm, when the object names one. */
  readonly operatorNamespace: string | undefined;
  /**
   * Whether the realm exists in Keycloak, made or taken over by its object (its status records Keycloak's id).
   * Not whether it is Ready: a realm being updated, or whose operator cannot log in for a while, is still there,
   * and its clients go on rather than flap to waiting.
   */
  readonly exists: boolean;
}

const fieldsOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function readRealm(object: KubeObject): RealmView {
  const spec = fieldsOf(object['spec']);
  const grants = spec['clientAuthorizationGrants'];
  return {
    realmName: textOf(spec['realmName']),
    grants: Array.isArray(grants) ? grants.filter((g): g is string => typeof g === 'string') : [],
    operatorNamespace: textOf(fieldsOf(spec['operatorRef'])['namespace']),
    exists: textOf(fieldsOf(object['status'])['realmId']) !== undefined,
  };
}

/** A realm object's update matters to its clients only when what they read of it changed. */
export const realmViewChanged = (before: KubeObject, after: KubeObject): boolean => !deepEqual(readRealm(before), readRealm(after));

/** Whether the realm grants the client's namespace its clients; the message says why not. */
export type GrantDecision = { readonly granted: true } | { readonly granted: false; readonly message: string };

export function grantFor(realm: RealmView, ref: RealmObjectRef, namespace: string): GrantDecision {
  if (realm.grants.includes(namespace)) return { granted: true };
  return {
    granted: false,
    message: `namespace ${namespace} is not in spec.clientAuthorizationGrants of KeycloakRealm ${describeRealmObject(ref)}; ` +
      'nothing is changed in Keycloak until the realm grants it',
  };
}
