import type { ScopeList } from '../apis/keycloak/actions.js';
import type { ManagedLists } from './spec.js';
import { missing, type ClientTarget } from './target.js';

const LISTS = [
  ['default', 'defaultClientScopes'],
  ['optional', 'optionalClientScopes'],
] as const satisfies readonly (readonly [ScopeList, keyof ManagedLists])[];

export interface ScopeLists {
  readonly defaultClientScopes?: readonly string[] | undefined;
  readonly optionalClientScopes?: readonly string[] | undefined;
}

/**
 * Links the client scopes the spec lists, and unlinks those the spec listed before (`managed`) and lists no
 * more. Keycloak links a realm's default scopes to every new client: those, and links made by hand, were
 * never listed, so they stay. A list the spec leaves out is not touched at all (and no longer managed).
 * Unlinks go first, so a scope can move from one list to the other. Returns the lists now managed.
 */
export function reconcileScopeLinks(target: ClientTarget, wanted: ScopeLists, observed: ScopeLists, managed: ManagedLists | undefined): Pick<ManagedLists, 'defaultClientScopes' | 'optionalClientScopes'> {
  const { plan, call, client } = target;
  const link = (list: ScopeList, scope: string) => ({ type: 'clientScopeLink', client, list, scope }) as const;
  for (const [list, field] of LISTS) {
    const spec = wanted[field];
    if (spec === undefined) continue;
    const linked = observed[field] ?? [];
    const dropped = missing(managed?.[field] ?? [], spec).filter((scope) => linked.includes(scope));
    for (const scope of dropped) plan.add({ kind: 'keycloak.delete', ...call, resource: link(list, scope) }, `the spec no longer lists ${scope} among its ${list} client scopes`);
  }
  for (const [list, field] of LISTS) {
    const spec = wanted[field];
    if (spec === undefined) continue;
    for (const scope of missing(spec, observed[field] ?? [])) plan.add({ kind: 'keycloak.create', ...call, resource: link(list, scope) }, `the spec lists ${scope} among its ${list} client scopes`);
  }
  return Object.fromEntries(LISTS.flatMap(([, field]) => (wanted[field] === undefined ? [] : [[field, wanted[field]]])));
}
