import type { ScopeList } from '../apis/keycloak/actions.js';
import type { ClientScopeRepresentation } from '../apis/keycloak/representations.js';
import { carriesMarker } from '../ownership.js';
import type { RealmSteps } from './context.js';

export interface ScopeLists {
  readonly default: readonly string[];
  readonly optional: readonly string[];
}

const LISTS: readonly ScopeList[] = ['default', 'optional'];
const other = (list: ScopeList): ScopeList => (list === 'default' ? 'optional' : 'default');

/**
 * Whether a scope linked in `list` comes out: it is about to be deleted, or the spec puts it in the other
 * list (Keycloak holds a scope in one list at most), or it is ours and the spec's list, which then manages
 * the realm's list, no longer names it. An empty or absent list manages nothing.
 */
function unlinks(list: ScopeList, name: string, wanted: ScopeLists, ours: (name: string) => boolean, doomed: ReadonlySet<string>): boolean {
  if (doomed.has(name) || wanted[other(list)].includes(name)) return true;
  return wanted[list].length > 0 && !wanted[list].includes(name) && ours(name);
}

/** The realm's default and optional client scopes: removals first, so a scope can move between the lists. */
export function planScopeLinks(steps: RealmSteps, wanted: ScopeLists, linked: ScopeLists, scopes: readonly ClientScopeRepresentation[], doomed: ReadonlySet<string>): void {
  const marked = new Set(scopes.filter((scope) => carriesMarker(scope.attributes)).map((scope) => scope.name));
  const ours = (name: string): boolean => marked.has(name);
  const resource = (list: ScopeList, scope: string) => ({ type: 'realmScopeLink', realm: steps.realm, list, scope }) as const;
  for (const list of LISTS) {
    for (const name of linked[list]) {
      if (unlinks(list, name, wanted, ours, doomed)) steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: resource(list, name) }, `the spec does not list it as a ${list} client scope`);
    }
  }
  for (const list of LISTS) {
    for (const name of wanted[list]) {
      if (!linked[list].includes(name)) steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: resource(list, name) }, `the spec lists it as a ${list} client scope`);
    }
  }
}
