// Reads the scope mappings of client scopes and clients, and says where they are changed.
import type { ObservedScopeMapping, ScopeMappingTarget } from '../scope-mappings.js';
import { describeTarget } from '../scope-mappings.js';
import { findClient, findClientScopeId } from './lookups.js';
import { clientPath, clientScopePath } from './paths.js';
import type { AdminReads } from './reads.js';
import { roleMappingsAt, type ListedRole } from './roles.js';

/** Client scope ids by name, when the caller has just listed them. */
export type ScopeIds = ReadonlyMap<string, string>;

/** The path of a target's scope mappings; undefined when the target does not exist. */
export async function scopeMappingsPath(reads: AdminReads, realm: string, target: ScopeMappingTarget, scopeIds?: ScopeIds): Promise<string | undefined> {
  if ('clientScope' in target) {
    const id = scopeIds === undefined ? await findClientScopeId(reads, realm, target.clientScope) : scopeIds.get(target.clientScope);
    return id === undefined ? undefined : `${clientScopePath(realm, id)}/scope-mappings`;
  }
  const client = await findClient(reads, realm, target.client);
  return client === undefined ? undefined : `${clientPath(realm, client.id)}/scope-mappings`;
}

/** A target's scope mappings, by name and as representations; undefined when the target does not exist. */
export async function scopeMappingsOf(reads: AdminReads, realm: string, target: ScopeMappingTarget, scopeIds?: ScopeIds): Promise<{ readonly path: string; readonly roles: readonly ListedRole[]; readonly names: ObservedScopeMapping['roles'] } | undefined> {
  const path = await scopeMappingsPath(reads, realm, target, scopeIds);
  if (path === undefined) return undefined;
  // The same shape as a user's role mappings: realmMappings, and clientMappings by clientId.
  const { names, roles } = await roleMappingsAt(reads, path, `the scope of ${describeTarget(target)}`);
  return { path, roles, names };
}

/** The scope mappings of each target; a client scope's id is taken from the realm's scopes, listed just before. */
export async function observeScopeMappings(reads: AdminReads, realm: string, targets: readonly ScopeMappingTarget[], scopeIds: ScopeIds): Promise<ObservedScopeMapping[]> {
  return Promise.all(targets.map(async (target) => ({ target, roles: (await scopeMappingsOf(reads, realm, target, scopeIds))?.names })));
}
