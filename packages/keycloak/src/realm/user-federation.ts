import type { SecretKeyRef, Value } from '@keyward/vocabulary';
import type { KeycloakBody } from '../apis/keycloak/actions.js';
import { LDAP_MAPPER_PROVIDER_TYPE, USER_STORAGE_PROVIDER_TYPE, type ComponentRepresentation, type ObservedFederationProvider } from '../apis/keycloak/components.js';
import { MANAGED_BY_KEYWARD } from '../ownership.js';
import type { RealmSteps } from './context.js';
import { BIND_CREDENTIAL_KEY, changedConfigKeys, configLists, desiredFederationConfig } from './user-federation-config.js';
import type { FederationMapperSpec, UserFederationSpec } from './user-federation-spec.js';
import { realmSecretKey } from './secret-opt-in.js';

// A realm's user federation providers and their mappers, all Keycloak components. Keycloak drops config keys
// it does not know (a marker there would not stay), but keeps a component's subType, which user federation
// providers and LDAP mappers leave unused: ours carry MANAGED_BY_KEYWARD there, and only those are pruned. A
// PUT of a component keeps the config keys it leaves out, so an update sends the stated keys only; the bind
// credential goes from its Secret when that changed or Keycloak holds none, and is otherwise left out (Keycloak
// shows it masked and keeps it).

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
  /** Whether unlisted providers of ours go even when the list is empty or absent. */
  readonly pruneWhenEmpty: boolean;
}

const BIND_CREDENTIAL_FIELD = `config.${BIND_CREDENTIAL_KEY}[]`;

function bindCredential(spec: UserFederationSpec, namespace: string): Record<string, SecretKeyRef> {
  const ref = spec.connection?.bindCredentialSecret;
  return ref === undefined ? {} : { [BIND_CREDENTIAL_FIELD]: realmSecretKey(namespace, ref) };
}

function componentBody(name: string, providerId: string, providerType: string, parentId: Value<string>, subType: string | undefined, config: Readonly<Record<string, readonly string[]>>): KeycloakBody {
  return { name, providerId, providerType, parentId, ...(subType === undefined ? {} : { subType }), config: Object.fromEntries(Object.entries(config).map(([key, value]) => [key, [...value]])) };
}

function planMapper(steps: RealmSteps, provider: { readonly name: string; readonly id: string }, spec: FederationMapperSpec, observed: ComponentRepresentation | undefined): void {
  const resource = { type: 'component', realm: steps.realm, name: spec.name, parent: provider.name } as const;
  const config = configLists(spec.config);
  if (observed !== undefined && observed.providerId !== spec.mapperType && isOurs(observed)) {
    // A mapper's type is fixed in Keycloak: ours of another type is made again.
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { ...resource, id: observed.id } }, 'its mapper type differs from the spec');
  } else if (observed !== undefined) {
    const changed = changedConfigKeys(config, observed.config).map((key) => `config.${key}`);
    if (changed.length === 0) return;
    // Keycloak's own mappers (username, email, ...) are brought to the spec but stay Keycloak's.
    const body = componentBody(spec.name, observed.providerId, LDAP_MAPPER_PROVIDER_TYPE, provider.id, observed.subType, config);
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, id: observed.id }, body, changed }, 'it differs from the spec');
    return;
  }
  steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: componentBody(spec.name, spec.mapperType, LDAP_MAPPER_PROVIDER_TYPE, provider.id, FEDERATION_MARKER, config) }, 'the spec lists it');
}

/** The listed mappers created or brought to the spec; ours no longer listed deleted (a list given and not empty only). */
function planMappers(steps: RealmSteps, spec: UserFederationSpec, provider: ComponentRepresentation, observed: readonly ComponentRepresentation[] | undefined): void {
  const specs = spec.mappers ?? [];
  if (observed === undefined || specs.length === 0) return;
  const byName = new Map(observed.map((mapper) => [mapper.name, mapper]));
  for (const mapper of specs) planMapper(steps, provider, mapper, byName.get(mapper.name));
  const listed = new Set(specs.map((mapper) => mapper.name));
  for (const mapper of observed) {
    if (listed.has(mapper.name) || !isOurs(mapper)) continue;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { type: 'component', realm: steps.realm, name: mapper.name, parent: provider.name, id: mapper.id } }, 'we made it and the spec no longer lists it');
  }
}

function planProvider(steps: RealmSteps, spec: UserFederationSpec, observed: ObservedFederationProvider | undefined, context: FederationContext): void {
  const resource = { type: 'component', realm: steps.realm, name: spec.name } as const;
  const config = desiredFederationConfig(spec);
  const secret = spec.connection?.bindCredentialSecret;
  if (observed === undefined) {
    const body = componentBody(spec.name, spec.providerId, USER_STORAGE_PROVIDER_TYPE, context.realmId, FEDERATION_MARKER, config);
    const secretFields = bindCredential(spec, context.namespace);
    // Keycloak adds its default mappers to a new LDAP provider: the spec's wait for the next reconcile, which reads them.
    steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body, ...(secret === undefined ? {} : { secretFields }) }, 'the spec lists it');
    return;
  }
  const current = observed.provider;
  const credentialDue = secret !== undefined && (context.changed(secret.name) || (current.config?.[BIND_CREDENTIAL_KEY] ?? []).length === 0);
  const changed = [
    ...(isOurs(current) ? [] : ['subType']),
    ...changedConfigKeys(config, current.config).map((key) => `config.${key}`),
    ...(credentialDue ? [`config.${BIND_CREDENTIAL_KEY}`] : []),
  ];
  if (changed.length > 0) {
    const body = componentBody(spec.name, current.providerId, USER_STORAGE_PROVIDER_TYPE, current.parentId ?? context.realmId, FEDERATION_MARKER, config);
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, id: current.id }, body, ...(credentialDue ? { secretFields: bindCredential(spec, context.namespace) } : {}), changed }, 'it differs from the spec');
  }
  planMappers(steps, spec, current, observed.mappers);
}

/**
 * Listed providers created or brought to the spec (so they carry our marker), then those that carry the
 * marker and are no longer listed deleted (their mappers go with them) when the list is given and not empty,
 * or `pruneWhenEmpty` says so.
 */
export function planUserFederation(steps: RealmSteps, specs: readonly UserFederationSpec[], observed: readonly ObservedFederationProvider[], context: FederationContext): void {
  const byName = new Map(observed.map((entry) => [entry.provider.name, entry]));
  for (const spec of specs) planProvider(steps, spec, byName.get(spec.name), context);
  if (specs.length === 0 && !context.pruneWhenEmpty) return;
  const listed = new Set(specs.map((spec) => spec.name));
  for (const { provider } of observed) {
    if (listed.has(provider.name) || !isOurs(provider)) continue;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource: { type: 'component', realm: steps.realm, name: provider.name, id: provider.id } }, 'we made it and the spec no longer lists it');
  }
}
