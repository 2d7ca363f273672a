// What of a realm's spec names clients (by clientId), and what waits while Keycloak has no such client. A
// client is often made by a KeycloakClient of the same realm, which waits for the realm to exist: so the realm
// applies the rest of its spec (and records its id), and leaves only what names a missing client for later.
import { findCondition, type KubeObject, type ResourceType } from '@keyward/kernel';
import type { StatedRoles } from '../tracked-roles.js';
import { keycloakClientType } from '../types.js';
import type { GroupSpec } from './groups/spec.js';
import type { ScopeMappingSpec } from './scope-mappings/spec.js';
import type { KeycloakRealm, KeycloakRealmSpec } from './spec.js';

/** The Ready condition's reason while a part of the spec waits for a client. */
export const WAITING_FOR_CLIENT = 'WaitingForClient';

/** How often a realm that waits looks for the clients again, besides being woken by their KeycloakClients. */
export const CLIENT_WAIT_CHECK_MS = 60_000;

/** A part of the spec that waits for a client: the clientId, and where the spec names it. */
export interface ClientWait {
  readonly clientId: string;
  readonly where: string;
}

type RealmRoleSpec = NonNullable<KeycloakRealmSpec['realmRoles']>[number];

const clientsOf = (roles: Readonly<Record<string, readonly string[]>> | undefined): string[] => Object.keys(roles ?? {});

function groupClients(groups: readonly GroupSpec[] | undefined): string[] {
  return (groups ?? []).flatMap((group) => [...clientsOf(group.clientRoles), ...groupClients(group.subGroups)]);
}

/** Every clientId the spec names: scope mapping targets, and the clients of the roles it grants or composes. */
export function namedClients(spec: KeycloakRealmSpec): string[] {
  const named = [
    ...(spec.scopeMappings ?? []).flatMap((mapping) => [...('client' in mapping ? [mapping.client] : []), ...clientsOf(mapping.clientRoles)]),
    ...groupClients(spec.groups),
    ...clientsOf(spec.defaultRoles?.clientRoles),
    ...(spec.realmRoles ?? []).flatMap((role) => clientsOf(role.composites?.clients)),
  ];
  return [...new Set(named)].sort();
}

/** The spec without what names a client Keycloak lacks, and each such part. */
export interface ClientWaits {
  readonly spec: KeycloakRealmSpec;
  readonly waits: readonly ClientWait[];
}

/**
 * `spec` without what names a client that is not in `existing`: a scope mapping to such a client, and the
 * client roles of such a client wherever roles are granted or composed (the rest of each entry stays, as
 * stated). Unchanged when every named client exists, or when which exist was not read (`existing` undefined).
 */
export function withoutMissingClients(spec: KeycloakRealmSpec, existingClients: Iterable<string> | undefined): ClientWaits {
  if (existingClients === undefined) return { spec, waits: [] };
  const existing = new Set(existingClients);
  const waits: ClientWait[] = [];
  const keep = (clientId: string, where: string): boolean => {
    if (existing.has(clientId)) return true;
    waits.push({ clientId, where });
    return false;
  };
  const keptRoles = <R extends Readonly<Record<string, readonly string[]>> | undefined>(roles: R, where: string): R =>
    (roles === undefined ? roles : Object.fromEntries(Object.entries(roles).filter(([clientId]) => keep(clientId, where))) as R);
  const stated = <S extends StatedRoles>(roles: S, where: string): S =>
    (roles.clientRoles === undefined ? roles : { ...roles, clientRoles: keptRoles(roles.clientRoles, where) });
  const groups = (list: readonly GroupSpec[], parent: string): GroupSpec[] => list.map((group) => {
    const path = `${parent}/${group.name}`;
    return { ...stated(group, `groups ${path} clientRoles`), ...(group.subGroups === undefined ? {} : { subGroups: groups(group.subGroups, path) }) };
  });
  const role = (each: RealmRoleSpec): RealmRoleSpec => (each.composites?.clients === undefined
    ? each
    : { ...each, composites: { ...each.composites, clients: keptRoles(each.composites.clients, `realmRoles ${each.name} composites`) } });
  const mapping = (each: ScopeMappingSpec): ScopeMappingSpec[] => {
    const target = 'client' in each ? `client ${each.client}` : `clientScope ${each.clientScope}`;
    if ('client' in each && !keep(each.client, `scopeMappings ${target}`)) return [];
    return [stated(each, `scopeMappings ${target} clientRoles`)];
  };
  const filtered: KeycloakRealmSpec = {
    ...spec,
    ...(spec.scopeMappings === undefined ? {} : { scopeMappings: spec.scopeMappings.flatMap(mapping) }),
    ...(spec.groups === undefined ? {} : { groups: groups(spec.groups, '') }),
    ...(spec.defaultRoles === undefined ? {} : { defaultRoles: stated(spec.defaultRoles, 'defaultRoles clientRoles') }),
    ...(spec.realmRoles === undefined ? {} : { realmRoles: spec.realmRoles.map(role) }),
  };
  return waits.length === 0 ? { spec, waits } : { spec: filtered, waits };
}

/** For the Ready condition: which clients are waited for, and where the spec names each. */
export function describeWaits(waits: readonly ClientWait[]): string {
  const byClient = new Map<string, string[]>();
  for (const { clientId, where } of waits) byClient.set(clientId, [...(byClient.get(clientId) ?? []), where]);
  const parts = [...byClient].map(([clientId, where]) => `client ${clientId} (${[...new Set(where)].join(', ')})`);
  return `waiting for ${parts.join('; ')} to exist in Keycloak; the rest of the spec is applied`;
}

const clientUuidOf = (object: KubeObject): unknown => (object['status'] as { readonly clientUuid?: unknown } | undefined)?.clientUuid;

/**
 * While a realm waits for clients, the KeycloakClients of its namespace and of the namespaces it grants (where
 * the clients of the realm are) are watched: one that appears, goes, or makes its client in Keycloak (its
 * status gets the client's id) wakes the realm at once.
 */
export const clientsWhileWaiting: {
  readonly type: ResourceType;
  readonly of: (cr: KeycloakRealm) => readonly { readonly namespace: string }[];
  readonly wakesOn: (before: KubeObject, after: KubeObject) => boolean;
} = {
  type: keycloakClientType,
  of: (cr) => {
    if (findCondition(cr.status.conditions, 'Ready')?.reason !== WAITING_FOR_CLIENT) return [];
    return [...new Set([cr.metadata.namespace, ...(cr.spec.clientAuthorizationGrants ?? [])])].map((namespace) => ({ namespace }));
  },
  wakesOn: (before, after) => clientUuidOf(before) !== clientUuidOf(after),
};
