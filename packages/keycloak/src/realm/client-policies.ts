import { deepEqual } from '@keyward/kernel/plan';
import type { KeycloakJson, KeycloakObject } from '../apis/keycloak/representations.js';
import type { RealmSteps } from './context.js';
import type { RealmManaged } from './managed.js';
import { prunesWhenEmpty, removesUnlisted } from '../prune.js';
import type { ClientPolicySpec, ClientProfileSpec, KeycloakRealmSpec } from './spec.js';

/** A client profile or policy as Keycloak's client-policies endpoints read and write it. */
type Entry = Readonly<Record<string, KeycloakJson>> & { readonly name: string };

// Keycloak checks an executor's or condition's configuration against its provider; the codec keeps it JSON.
const configuration = (value: Readonly<Record<string, unknown>>): KeycloakJson => value as KeycloakJson;

const described = (description: string | undefined) => (description === undefined ? {} : { description });

export function profileRepresentation(spec: ClientProfileSpec): Entry {
  return {
    name: spec.name,
    ...described(spec.description),
    // An executor without a configuration fails with 500 ("configNode must be not null"): always send one.
    executors: spec.executors.map((executor) => ({ executor: executor.executor, configuration: configuration(executor.configuration) })),
  };
}

export function policyRepresentation(spec: ClientPolicySpec): Entry {
  return {
    name: spec.name,
    ...described(spec.description),
    // Keycloak reads an absent `enabled` as false.
    enabled: spec.enabled,
    conditions: spec.conditions.map((condition) => ({ condition: condition.condition, configuration: configuration(condition.configuration) })),
    profiles: spec.profiles,
  };
}

/**
 * The list Keycloak should hold: an entry the spec names takes the spec's form where it is; one the realm made
 * (`made`) and the spec no longer names goes; one set out of band stays. New ones are appended.
 */
export function mergedList(observed: readonly Entry[], wanted: readonly Entry[], made: readonly string[]): Entry[] {
  const byName = new Map(wanted.map((entry) => [entry.name, entry]));
  const kept = observed.flatMap((entry) => {
    const ours = byName.get(entry.name);
    if (ours !== undefined) return [ours];
    return made.includes(entry.name) ? [] : [entry];
  });
  const present = new Set(observed.map((entry) => entry.name));
  return [...kept, ...wanted.filter((entry) => !present.has(entry.name))];
}

/** What changed between two lists, by entry name, for the plan (never the configurations). */
function changes(observed: readonly Entry[], merged: readonly Entry[]): string[] {
  const before = new Map(observed.map((entry) => [entry.name, entry]));
  const after = new Set(merged.map((entry) => entry.name));
  return [
    ...merged.filter((entry) => !deepEqual(before.get(entry.name), entry)).map((entry) => `${entry.name} (${before.has(entry.name) ? 'changed' : 'added'})`),
    ...observed.filter((entry) => !after.has(entry.name)).map((entry) => `${entry.name} (removed)`),
  ];
}

const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';

/** The entries of `{profiles: [...]}` or `{policies: [...]}` in a realm representation. */
function listIn(realm: KeycloakObject | undefined, field: string, key: string): Entry[] {
  const holder = realm?.[field];
  const list = typeof holder === 'object' && holder !== null && !Array.isArray(holder) ? (holder as Readonly<Record<string, unknown>>)[key] : undefined;
  return Array.isArray(list) ? list.filter(isEntry) : [];
}

/** The two lists: profiles first, as a policy may name a profile made in the same plan. */
const LISTS = [
  { type: 'clientProfiles', key: 'profiles', wanted: (spec: KeycloakRealmSpec) => spec.clientProfiles?.map(profileRepresentation) },
  { type: 'clientPolicies', key: 'policies', wanted: (spec: KeycloakRealmSpec) => spec.clientPolicies?.map(policyRepresentation) },
] as const;

/**
 * The realm's client profiles and client policies: Keycloak replaces each list whole, so the list sent is
 * Keycloak's with ours replaced (see mergedList), and only when it differs. A list the spec leaves out or
 * empties is not touched, unless pruneUnlisted names it (the prune rule). `realm` is Keycloak's realm
 * (undefined: created in this plan, with empty lists). Returns the names now ours, for status.
 */
export function planClientPolicies(steps: RealmSteps, spec: KeycloakRealmSpec, realm: KeycloakObject | undefined, managed: RealmManaged | undefined): RealmManaged {
  const now: Record<string, readonly string[]> = {};
  for (const list of LISTS) {
    const wanted = list.wanted(spec) ?? [];
    const made = managed?.[list.type] ?? [];
    if (!removesUnlisted(wanted, prunesWhenEmpty(spec.pruneUnlisted, list.type))) {
      if (made.length > 0) now[list.type] = made;
      continue;
    }
    const observed = listIn(realm, list.type, list.key);
    const merged = mergedList(observed, wanted, made);
    if (!deepEqual(observed, merged)) {
      steps.plan.add(
        { kind: 'keycloak.update', ...steps.call, resource: { type: list.type, realm: steps.realm }, body: { [list.key]: merged }, changed: changes(observed, merged) },
        `the realm's ${list.key === 'profiles' ? 'client profiles' : 'client policies'} differ from the spec`,
      );
    }
    if (wanted.length > 0) now[list.type] = wanted.map((entry) => entry.name);
  }
  return now;
}
