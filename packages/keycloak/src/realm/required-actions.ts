import type { RequiredActionRepresentation } from '../apis/keycloak/flow-representations.js';
import { differingKeys } from './compare.js';
import type { RealmSteps } from './context.js';
import type { RequiredActionSpec } from './required-action-spec.js';
import { removesUnlisted } from '../prune.js';

// Required actions: Keycloak knows them by provider, and has most registered in a new realm. A listed one
// that is not registered is registered (and recorded in status as ours); a listed one is brought to the
// fields the spec states. Under the prune rule (see prune.ts) those this object registered and no longer
// lists are unregistered again. Required actions carry no attributes, so status is the record.

/** Whether a reconcile reads the realm's required actions: the spec lists some, or prunes some we registered. */
export function readsRequiredActions(specs: readonly RequiredActionSpec[] | undefined, pruneWhenEmpty: boolean, registered: readonly string[] | undefined): boolean {
  return (specs?.length ?? 0) > 0 || (pruneWhenEmpty && (registered?.length ?? 0) > 0);
}

/** The fields in which Keycloak's action differs from what the spec states. */
function actionChanges(spec: RequiredActionSpec, current: RequiredActionRepresentation): string[] {
  const fields = (['name', 'enabled', 'defaultAction', 'priority'] as const).filter((field) => spec[field] !== undefined && spec[field] !== current[field]);
  return [...fields, ...differingKeys(spec.config ?? {}, current.config).map((key) => `config.${key}`)];
}

/**
 * Plans the realm's required actions; returns the aliases this object has registered once the plan ran (for
 * status). A newly registered action gets the spec's fields in the next reconcile, once Keycloak's are
 * read: Keycloak's PUT replaces an action whole (a field left out is reset, a missing alias loses it), so an
 * update sends Keycloak's representation with the spec's fields over it.
 */
export function planRequiredActions(steps: RealmSteps, specs: readonly RequiredActionSpec[], pruneWhenEmpty: boolean, observed: readonly RequiredActionRepresentation[] | undefined, registered: readonly string[]): string[] {
  if (observed === undefined) return [...registered];
  const byAlias = new Map(observed.map((action) => [action.alias, action]));
  const ours = new Set(registered.filter((alias) => byAlias.has(alias)));
  for (const spec of specs) {
    const resource = { type: 'requiredAction', realm: steps.realm, alias: spec.alias } as const;
    const current = byAlias.get(spec.alias);
    if (current === undefined) {
      steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: { providerId: spec.alias, name: spec.name ?? spec.alias } }, 'the spec lists it and Keycloak has it unregistered');
      ours.add(spec.alias);
      continue;
    }
    const changed = actionChanges(spec, current);
    if (changed.length === 0) continue;
    const { config, ...fields } = spec;
    const body = { ...current, ...fields, config: { ...current.config, ...config } };
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource, body, changed }, 'it differs from the spec');
  }
  if (removesUnlisted(specs, pruneWhenEmpty)) {
    const listed = new Set(specs.map((spec) => spec.alias));
    for (const alias of [...ours].filter((name) => !listed.has(name))) {
      steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { type: 'requiredAction', realm: steps.realm, alias } }, 'we registered it and the spec no longer lists it');
      ours.delete(alias);
    }
  }
  return [...ours].sort();
}
