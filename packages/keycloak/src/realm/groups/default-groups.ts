import { without } from '../../tracked-roles.js';
import type { RealmSteps } from '../context.js';

/**
 * The realm's default groups (those every new user joins), by path: the spec's are added, those it listed
 * before (`before`, from status) and lists no more are removed, others stay. A list the spec leaves out is
 * not touched. `current` is what the realm has; returns the paths managed now.
 */
export function planDefaultGroups(steps: RealmSteps, wanted: readonly string[] | undefined, current: readonly string[], before: readonly string[] | undefined): readonly string[] | undefined {
  if (wanted === undefined) return undefined;
  const resource = (path: string) => ({ type: 'defaultGroup', realm: steps.realm, path }) as const;
  for (const path of without(before ?? [], wanted).filter((p) => current.includes(p))) {
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: resource(path) }, 'the spec no longer lists it as a default group');
  }
  for (const path of without(wanted, current)) steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: resource(path) }, 'the spec lists it as a default group');
  return wanted;
}
