import type { KubeObject } from '@keyward/kernel';
import type { SecretKeyRef, Value } from '@keyward/kernel/plan';
import type { KeycloakBody } from '../../apis/keycloak/actions.js';
import { LDAP_MAPPER_PROVIDER_TYPE, USER_STORAGE_PROVIDER_TYPE, type ComponentRepresentation, type ObservedFederationProvider } from '../../apis/keycloak/components.js';
import { MANAGED_BY_KEYWARD } from '../../ownership.js';
import { addSteps, byName, planKeycloakList, realmWrites } from '../../list-writes.js';
import type { RealmSteps } from '../context.js';
import { changedConfigKeys, configLists, creationConfig, desiredFederationConfig, secretConfigKeys, type SecretConfigKey } from './config.js';
import type { UserFederationSpec } from './spec.js';
import { realmSecretKey } from '../secret-opt-in.js';

// A realm's user federation providers and their mappers, all Keycloak components. Keycloak drops config keys
// it does not know (a marker there would not stay), but keeps a component's subType, which user federation
// providers and LDAP mappers leave unused: ours carry MANAGED_BY_KEYWARD there, and only those are pruned. A
// PUT of a component keeps the config keys it leaves out, so an update sends the stated keys only; a key read
// from a Secret (the bind credential, the keytab's path) goes when its Secret changed or Keycloak holds none,
// and is otherwise left out (Keycloak keeps it; it shows the bind credential masked).

/** The subType our components carry. */
export const FEDERATION_MARKER = MANAGED_BY_KEYWARD;

const isOurs = (component: ComponentRepresentation): boolean => component.subType === FEDERATION_MARKER;

/** What the planner needs besides the spec and Keycloak's state. */
export interface FederationContext {
  /** The realm's id: a provider's parent. */
  readonly realmId: string;
  readonly namespace: string;
  /** Whether a Secret changed since its value was last sent. */
  readonly changed: (secretName: string) => boolean;
  /** A Secret as read, for the opt-in label its read requires again. */
  readonly secret?: (secretName: string) => KubeObject | undefined;
  /** Whether unlisted providers of ours go even when the list is empty or absent. */
  readonly pruneWhenEmpty: boolean;
}

/** The secret fields of the keys in `keys`, each read from its Secret when the plan runs. */
function fromSecrets(keys: readonly SecretConfigKey[], context: Pick<FederationContext, 'namespace' | 'secret'>): { secretFields?: Record<string, SecretKeyRef> } {
  if (keys.length === 0) return {};
  return { secretFields: Object.fromEntries(keys.map(({ key, secret }) => [`config.${key}[]`, realmSecretKey(context.namespace, secret, context.secret?.(secret.name))])) };
}

function componentBody(name: string, providerId: string, providerType: string, parentId: Value<string>, subType: string | undefined, config: Readonly<Record<string, readonly string[]>>): KeycloakBody {
  return { name, providerId, providerType, parentId, ...(subType === undefined ? {} : { subType }), config: Object.fromEntries(Object.entries(config).map(([key, value]) => [key, [...value]])) };
}

/**
 * The listed mappers created or brought to the spec; ours no longer listed deleted (a list given and not
 * empty only). A mapper's type is fixed in Keycloak: ours of another type is deleted and made again.
 * Keycloak's own mappers (username, email, ...) are brought to the spec but stay Keycloak's.
 */
function planMappers(steps: RealmSteps, spec: UserFederationSpec, provider: ComponentRepresentation, observed: readonly ComponentRepresentation[] | undefined): void {
  if (observed === undefined) return;
  const specs = spec.mappers ?? [];
  const resource = (name: string, id?: string) => ({ type: 'component', realm: steps.realm, name, parent: provider.name, ...(id === undefined ? {} : { id }) }) as const;
  const typeOf = new Map(specs.map((mapper) => [mapper.name, mapper.mapperType]));
  const replaced = observed.filter((mapper) => typeOf.has(mapper.name) && typeOf.get(mapper.name) !== mapper.providerId && isOurs(mapper));
  const mappers = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    observed: observed.filter((mapper) => !replaced.includes(mapper)),
    ...byName,
    changes: (mapper, current) => changedConfigKeys(configLists(mapper.config), current.config).map((key) => `config.${key}`),
    ours: isOurs,
    pruneWhenEmpty: false,
    create: (mapper) => ({ resource: resource(mapper.name), body: componentBody(mapper.name, mapper.mapperType, LDAP_MAPPER_PROVIDER_TYPE, provider.id, FEDERATION_MARKER, configLists(mapper.config)) }),
    update: (mapper, current) => ({ resource: resource(mapper.name, current.id), body: componentBody(mapper.name, current.providerId, LDAP_MAPPER_PROVIDER_TYPE, provider.id, current.subType, configLists(mapper.config)) }),
    delete: (mapper) => resource(mapper.name, mapper.id),
  });
  for (const { desired, step } of mappers.listed) {
    const old = replaced.find((mapper) => mapper.name === desired.name);
    if (old !== undefined) steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: resource(old.name, old.id) }, 'its mapper type differs from the spec');
    addSteps(steps.plan, [step]);
  }
  addSteps(steps.plan, mappers.deletes.map((item) => item.step));
}

/** The keys that go from their Secrets: each whose Secret changed since it was last sent, or that Keycloak holds none of. */
function secretKeysDue(spec: UserFederationSpec, current: ComponentRepresentation, context: FederationContext): SecretConfigKey[] {
  return secretConfigKeys(spec).filter(({ key, secret }) => context.changed(secret.name) || (current.config?.[key] ?? []).length === 0);
}

function providerChanges(spec: UserFederationSpec, current: ComponentRepresentation, context: FederationContext): string[] {
  return [
    ...(isOurs(current) ? [] : ['subType']),
    ...changedConfigKeys(desiredFederationConfig(spec), current.config).map((key) => `config.${key}`),
    ...secretKeysDue(spec, current, context).map(({ key }) => `config.${key}`),
  ];
}

/**
 * Listed providers created or brought to the spec (so they carry our marker), then those that carry the
 * marker and are no longer listed deleted (their mappers go with them) when the list is given and not empty,
 * or `pruneWhenEmpty` says so. Keycloak adds its default mappers to a new LDAP provider: the spec's wait for
 * the next reconcile, which reads them.
 */
export function planUserFederation(steps: RealmSteps, specs: readonly UserFederationSpec[], observed: readonly ObservedFederationProvider[], context: FederationContext): void {
  const resource = (name: string, id?: string) => ({ type: 'component', realm: steps.realm, name, ...(id === undefined ? {} : { id }) }) as const;
  const providers = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    observed,
    desiredKey: (spec) => spec.name,
    observedKey: (entry) => entry.provider.name,
    changes: (spec, entry) => providerChanges(spec, entry.provider, context),
    ours: (entry) => isOurs(entry.provider),
    pruneWhenEmpty: context.pruneWhenEmpty,
    create: (spec) => ({
      resource: resource(spec.name),
      body: componentBody(spec.name, spec.providerId, USER_STORAGE_PROVIDER_TYPE, context.realmId, FEDERATION_MARKER, creationConfig(spec)),
      ...fromSecrets(secretConfigKeys(spec), context),
    }),
    update: (spec, { provider: current }) => ({
      resource: resource(spec.name, current.id),
      body: componentBody(spec.name, current.providerId, USER_STORAGE_PROVIDER_TYPE, current.parentId ?? context.realmId, FEDERATION_MARKER, desiredFederationConfig(spec)),
      ...fromSecrets(secretKeysDue(spec, current, context), context),
    }),
    delete: (entry) => resource(entry.provider.name, entry.provider.id),
  });
  for (const { desired: spec, observed: current, step } of providers.listed) {
    addSteps(steps.plan, [step]);
    if (current !== undefined) planMappers(steps, spec, current.provider, current.mappers);
  }
  addSteps(steps.plan, providers.deletes.map((item) => item.step));
}
