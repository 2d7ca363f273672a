import type { KubeObject } from '@keyward/kernel';
import type { KeycloakBody, SecretFields } from '../../apis/keycloak/actions.js';
import type { IdentityProviderRepresentation, KeycloakJson, ObservedIdentityProvider } from '../../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../../ownership.js';
import { addSteps, planKeycloakList, realmWrites } from '../../list-writes.js';
import { sameValue } from '../compare.js';
import type { RealmSteps } from '../context.js';
import { MASKED_SECRET } from '../diff.js';
import { IDP_FLAGS, IDP_TEXTS, type IdentityProviderSpec } from './spec.js';
import { planIdpMappers } from './mappers.js';
import { realmSecretKey } from '../secret-opt-in.js';

// A realm's identity providers. Keycloak replaces an identity provider whole on a PUT (fields and config keys
// left out are gone, the clientSecret with them), drops config values that are empty, and masks the
// clientSecret on reads, keeping the stored one when a PUT sends the mask back. So an update sends the
// provider complete: what Keycloak has, the spec's fields and config over it, and each config value read
// from a Secret either from the Secret (when it changed since it was last sent, or Keycloak holds none) or as
// the mask.

const MARKER = { [MANAGED_BY]: MANAGED_BY_KEYWARD };

/** What the planner needs besides the spec and Keycloak's state. */
export interface IdpSecretsContext {
  /** The realm's namespace, where the Secrets are. */
  readonly namespace: string;
  /** Whether a Secret changed since its values were last sent (its resourceVersion is not the one recorded). */
  readonly changed: (secretName: string) => boolean;
  /** A Secret as read, for the opt-in label its read requires again. */
  readonly secret?: (secretName: string) => KubeObject | undefined;
}

/** The provider as the spec states it: only the fields it sets; config with our marker and without the keys read from Secrets. */
export function desiredProvider(spec: IdentityProviderSpec): IdentityProviderRepresentation {
  const fields: Record<string, KeycloakJson> = {};
  for (const field of [...IDP_FLAGS, ...IDP_TEXTS]) {
    const value = spec[field];
    if (value !== undefined) fields[field] = value;
  }
  const fromSecrets = new Set(Object.keys(spec.configSecrets ?? {}));
  const config = Object.fromEntries(Object.entries(spec.config ?? {}).filter(([key]) => !fromSecrets.has(key)));
  return { ...fields, alias: spec.alias, providerId: spec.providerId, config: { ...config, ...MARKER } };
}

/** Keycloak keeps no empty config value (nor an empty text): empty and absent are the same. */
const sameText = (desired: string, observed: KeycloakJson | undefined): boolean => desired === (observed ?? '');
/** Keycloak leaves a switch that is off out of the representation. */
const sameFlag = (desired: boolean, observed: KeycloakJson | undefined): boolean => desired === (observed ?? false);

function fieldChanges(desired: IdentityProviderRepresentation, observed: IdentityProviderRepresentation): string[] {
  const changed: string[] = [];
  for (const [field, value] of Object.entries(desired)) {
    if (field === 'alias' || field === 'config' || value === undefined) continue;
    const same = typeof value === 'string' ? sameText(value, observed[field]) : typeof value === 'boolean' ? sameFlag(value, observed[field]) : sameValue(value, observed[field]);
    if (!same) changed.push(field);
  }
  for (const [key, value] of Object.entries(desired.config ?? {})) if (!sameText(value, observed.config?.[key])) changed.push(`config.${key}`);
  return changed;
}

/** Where each config value read from a Secret comes from, keyed by its path in the body. */
function secretFieldsOf(spec: IdentityProviderSpec, keys: readonly string[], secrets: Pick<IdpSecretsContext, 'namespace' | 'secret'>): SecretFields {
  const refs = spec.configSecrets ?? {};
  return Object.fromEntries(keys.flatMap((key) => {
    const ref = refs[key];
    return ref === undefined ? [] : [[`config.${key}`, realmSecretKey(secrets.namespace, ref, secrets.secret?.(ref.name))] as const];
  }));
}

/**
 * The config keys whose values go from their Secrets, and those kept with the mask. A value Keycloak shows
 * in clear is never copied into a plan: it is sent from its Secret too.
 */
function secretKeys(spec: IdentityProviderSpec, observed: IdentityProviderRepresentation, secrets: IdpSecretsContext): { readonly due: string[]; readonly resent: string[]; readonly masked: string[] } {
  const due: string[] = [];
  const resent: string[] = [];
  const masked: string[] = [];
  for (const [key, ref] of Object.entries(spec.configSecrets ?? {})) {
    const shown = observed.config?.[key];
    if (secrets.changed(ref.name) || shown === undefined || shown === '') due.push(key);
    else if (shown === MASKED_SECRET) masked.push(key);
    else resent.push(key);
  }
  return { due, resent, masked };
}

/** What a create sends: the desired provider, its Secret-held config values from their Secrets. */
function creation(spec: IdentityProviderSpec, secrets: Pick<IdpSecretsContext, 'namespace' | 'secret'>): { readonly body: IdentityProviderRepresentation; readonly secretFields?: SecretFields } {
  const allKeys = Object.keys(spec.configSecrets ?? {});
  return { body: desiredProvider(spec), ...(allKeys.length === 0 ? {} : { secretFields: secretFieldsOf(spec, allKeys, secrets) }) };
}

/**
 * What an update sends: Keycloak's provider with the spec's over it; each config value read from a Secret
 * either from the Secret (when due or shown in clear) or as the mask.
 */
function update(spec: IdentityProviderSpec, current: IdentityProviderRepresentation, secrets: IdpSecretsContext): { readonly body: KeycloakBody; readonly secretFields?: SecretFields } {
  const desired = desiredProvider(spec);
  const keys = secretKeys(spec, current, secrets);
  const { config: currentConfig, ...currentFields } = current;
  const fromSecrets = new Set(Object.keys(spec.configSecrets ?? {}));
  const kept = Object.fromEntries(Object.entries(currentConfig ?? {}).filter(([key]) => !fromSecrets.has(key)));
  const masks = Object.fromEntries(keys.masked.map((key) => [key, MASKED_SECRET]));
  const sent = [...keys.due, ...keys.resent];
  return {
    body: { ...currentFields, ...desired, config: { ...kept, ...desired.config, ...masks } },
    ...(sent.length === 0 ? {} : { secretFields: secretFieldsOf(spec, sent, secrets) }),
  };
}

/**
 * Listed identity providers created or brought to the spec (so they carry our marker), with their mappers
 * (those of a new provider after it), then, under the prune rule, those that carry the marker and are no
 * longer listed deleted (their mappers go with them). A realm created in the same plan is observed with none.
 * `pruneWhenEmpty` applies to each provider's mappers too.
 */
export function planIdentityProviders(steps: RealmSteps, wanted: { readonly specs: readonly IdentityProviderSpec[]; readonly pruneWhenEmpty: boolean }, observed: readonly ObservedIdentityProvider[], secrets: IdpSecretsContext): void {
  const resource = (alias: string) => ({ type: 'identityProvider', realm: steps.realm, alias }) as const;
  const providers = planKeycloakList({
    ...realmWrites(steps),
    desired: wanted.specs,
    observed,
    desiredKey: (spec) => spec.alias,
    observedKey: (entry) => entry.provider.alias,
    changes: (spec, { provider }) => [...fieldChanges(desiredProvider(spec), provider), ...secretKeys(spec, provider, secrets).due.map((key) => `config.${key}`)],
    ours: (entry) => carriesMarker(entry.provider.config),
    pruneWhenEmpty: wanted.pruneWhenEmpty,
    create: (spec) => ({ resource: resource(spec.alias), ...creation(spec, secrets) }),
    update: (spec, { provider }) => ({ resource: resource(spec.alias), ...update(spec, provider, secrets) }),
    delete: (entry) => resource(entry.provider.alias),
  });
  for (const { desired: spec, observed: current, step } of providers.listed) {
    addSteps(steps.plan, [step]);
    planIdpMappers(steps, spec, current?.mappers, wanted.pruneWhenEmpty);
  }
  addSteps(steps.plan, providers.deletes.map((item) => item.step));
}
