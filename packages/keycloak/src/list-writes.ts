import { managedListSteps, planManagedList, type ManagedList, type ManagedListPlan, type PlanSteps } from '@keyward/kernel/plan';
import type {
  KeycloakAction,
  KeycloakBody,
  KeycloakCall,
  KeycloakCreateAction,
  KeycloakDeleteAction,
  KeycloakResource,
  KeycloakUpdateAction,
  SecretFields,
} from './apis/keycloak/actions.js';

// A list a spec manages inside a realm or client, planned by the shared managed-list planner, as Keycloak
// writes: what each create, update and delete addresses and sends, and why.

/** One Keycloak step of a managed list, before it is added to a plan. */
export type ListStep =
  | { readonly action: KeycloakCreateAction; readonly reason: string }
  | { readonly action: KeycloakUpdateAction; readonly reason: string }
  | { readonly action: KeycloakDeleteAction; readonly reason: string };

/** What a create addresses and sends. */
export interface Write {
  readonly resource: KeycloakResource;
  readonly body?: KeycloakBody;
  readonly secretFields?: SecretFields;
}

export interface Reasons {
  readonly create: string;
  readonly update: string;
  readonly delete: string;
}

/** How the steps on a realm's lists explain themselves. */
export const REALM_REASONS: Reasons = { create: 'the spec lists it', update: 'it differs from the spec', delete: 'we made it and the spec no longer lists it' };

/** How the steps on a client's lists explain themselves: they say what they are about. */
const clientReasons = (what: string): Reasons => ({
  create: `the spec lists this ${what}`,
  update: `the ${what} differs from the spec`,
  delete: `the spec no longer lists this ${what}, which it created`,
});

/** The server of the writes on a realm's lists, and their reasons. */
export const realmWrites = (steps: { readonly call: KeycloakCall }): { readonly call: KeycloakCall; readonly reasons: Reasons } => ({ call: steps.call, reasons: REALM_REASONS });

/** The server of the writes on a client's lists, and their reasons, which say what they are about. */
export const clientWrites = (target: { readonly call: KeycloakCall }, what: string): { readonly call: KeycloakCall; readonly reasons: Reasons } => ({ call: target.call, reasons: clientReasons(what) });

const named = (item: { readonly name: string }): string => item.name;

/** The keys of a list whose items, desired and observed, are known by their name. */
export const byName = { desiredKey: named, observedKey: named } as const;

/** A managed list with the Keycloak writes of its items. */
export interface KeycloakList<D, O> extends Omit<ManagedList<D, O, ListStep>, 'describe'> {
  readonly call: KeycloakCall;
  readonly reasons: Reasons;
  readonly create: (desired: D) => Write;
  readonly update: (desired: D, observed: O) => Write & { readonly body: KeycloakBody };
  readonly delete: (observed: O) => KeycloakResource;
}

export function planKeycloakList<D, O>(list: KeycloakList<D, O>): ManagedListPlan<D, O, ListStep> {
  const { call, reasons } = list;
  return planManagedList<D, O, ListStep>({
    ...list,
    describe: {
      create: (desired) => ({ action: { kind: 'keycloak.create', ...call, ...list.create(desired) }, reason: reasons.create }),
      update: (desired, observed, changed) => ({ action: { kind: 'keycloak.update', ...call, ...list.update(desired, observed), changed }, reason: reasons.update }),
      delete: (observed) => ({ action: { kind: 'keycloak.delete', ...call, resource: list.delete(observed) }, reason: reasons.delete }),
    },
  });
}

/** Adds steps to a plan in order; an item with nothing to do has none. */
export function addSteps(plan: PlanSteps<KeycloakAction>, steps: readonly (ListStep | undefined)[]): void {
  for (const step of steps) if (step !== undefined) plan.add(step.action, step.reason);
}

/** Plans a list and adds its steps in the usual order: creates and updates in the spec's order, then deletions. */
export function addKeycloakList<D, O>(plan: PlanSteps<KeycloakAction>, list: KeycloakList<D, O>): ManagedListPlan<D, O, ListStep> {
  const planned = planKeycloakList(list);
  addSteps(plan, managedListSteps(planned));
  return planned;
}
