import type { RequiredActionRepresentation } from '../../apis/keycloak/flow-representations.js';
import { differingKeys } from '../compare.js';
import type { RealmSteps } from '../context.js';
import type { RequiredActionSpec } from './spec.js';
import { addSteps, planKeycloakList } from '../../list-writes.js';

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
  const resource = (alias: string) => ({ type: 'requiredAction', realm: steps.realm, alias }) as const;
  const actions = planKeycloakList({
    call: steps.call,
    reasons: { create: 'the spec lists it and Keycloak has it unregistered', update: 'it differs from the spec', delete: 'we registered it and the spec no longer lists it' },
    desired: specs,
    observed,
    desiredKey: (spec) => spec.alias,
    observedKey: (action) => action.alias,
    changes: actionChanges,
    ours: (action) => registered.includes(action.alias),
    pruneWhenEmpty,
    create: (spec) => ({ resource: resource(spec.alias), body: { providerId: spec.alias, name: spec.name ?? spec.alias } }),
    update: ({ config, providerId: _provider, ...fields }, current) => ({ resource: resource(current.alias), body: { ...current, ...fields, config: { ...current.config, ...config } } }),
    delete: (action) => resource(action.alias),
  });
  // Unregistered in the order status records them.
  const deletes = [...actions.deletes].sort((a, b) => registered.indexOf(a.observed.alias) - registered.indexOf(b.observed.alias));
  addSteps(steps.plan, [...actions.listed.map((item) => item.step), ...deletes.map((item) => item.step)]);
  const unregistered = new Set(deletes.map((item) => item.observed.alias));
  const present = new Set(observed.map((action) => action.alias));
  const ours = new Set([...registered.filter((alias) => present.has(alias)), ...actions.listed.filter((item) => item.observed === undefined).map((item) => item.desired.alias)]);
  return [...ours].filter((alias) => !unregistered.has(alias)).sort();
}
