import type { Value } from '@keyward/vocabulary';
import type { ClientScopeRepresentation, ProtocolMapperRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { removesUnlisted } from '../prune.js';
import { isBuiltInClientScope } from './built-ins.js';
import { differingKeys } from './compare.js';
import type { RealmSteps } from './context.js';
import type { ClientScopeSpec, ProtocolMapperSpec } from './spec.js';

const MARKER = { [MANAGED_BY]: MANAGED_BY_KEYWARD };

/** A client scope as the spec wants it; its attributes carry our marker. */
export function desiredScope(spec: ClientScopeSpec): ClientScopeRepresentation {
  return {
    name: spec.name,
    protocol: spec.protocol,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    attributes: { ...spec.attributes, ...MARKER },
  };
}

/** Keycloak updates a scope's description and protocol when sent and merges its attributes key by key. */
function scopeChanges(desired: ClientScopeRepresentation, observed: ClientScopeRepresentation): string[] {
  return [
    ...(desired.description === undefined || desired.description === (observed.description ?? '') ? [] : ['description']),
    ...(desired.protocol === observed.protocol ? [] : ['protocol']),
    ...differingKeys(desired.attributes ?? {}, observed.attributes).map((key) => `attributes.${key}`),
  ];
}

/** A protocol mapper as the spec wants it (the scope's protocol unless it names one); its config carries our marker. */
export function desiredMapper(spec: ProtocolMapperSpec, scope: ClientScopeSpec): ProtocolMapperRepresentation {
  return { name: spec.name, protocol: spec.protocol ?? scope.protocol, protocolMapper: spec.protocolMapper, config: { ...spec.config, ...MARKER } };
}

/** Compared on the config keys the spec states: Keycloak adds defaults of its own to some mappers. */
function mapperChanges(desired: ProtocolMapperRepresentation, observed: ProtocolMapperRepresentation): string[] {
  return [
    ...(desired.protocol === observed.protocol ? [] : ['protocol']),
    ...(desired.protocolMapper === observed.protocolMapper ? [] : ['protocolMapper']),
    ...differingKeys(desired.config ?? {}, observed.config).map((key) => `config.${key}`),
  ];
}

/**
 * The protocol mappers of one of our scopes: listed ones created or updated (a mapper's config is replaced
 * whole, so keys Keycloak added are sent back as they are), unlisted ones that carry our marker deleted under
 * the prune rule.
 */
function planMappers(steps: RealmSteps, spec: ClientScopeSpec, scope: { readonly name: string; readonly id: Value<string> }, observed: readonly ProtocolMapperRepresentation[], pruneWhenEmpty: boolean): void {
  const byName = new Map(observed.map((mapper) => [mapper.name, mapper]));
  const mappers = spec.protocolMappers ?? [];
  for (const mapperSpec of mappers) {
    const desired = desiredMapper(mapperSpec, spec);
    const current = byName.get(mapperSpec.name);
    const resource = { type: 'clientScopeMapper', realm: steps.realm, scope, name: mapperSpec.name } as const;
    if (current === undefined) {
      steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: desired }, `client scope ${spec.name} lists it`);
      continue;
    }
    const changed = mapperChanges(desired, current);
    if (changed.length === 0 || current.id === undefined) continue;
    const body = { ...desired, id: current.id, config: { ...current.config, ...desired.config } };
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, id: current.id }, body, changed }, 'it differs from the spec');
  }
  if (!removesUnlisted(mappers, pruneWhenEmpty)) return;
  const listed = new Set(mappers.map((mapper) => mapper.name));
  for (const mapper of observed) {
    if (listed.has(mapper.name) || !carriesMarker(mapper.config) || mapper.id === undefined) continue;
    const resource = { type: 'clientScopeMapper', realm: steps.realm, scope, name: mapper.name, id: mapper.id } as const;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource }, `we made it and client scope ${spec.name} no longer lists it`);
  }
}

/**
 * Listed client scopes: created or brought to the spec (so they carry our marker), with their protocol
 * mappers. A new scope's mappers use the id its creation returns.
 */
export function planClientScopes(steps: RealmSteps, specs: readonly ClientScopeSpec[], observed: readonly ClientScopeRepresentation[], pruneWhenEmpty: boolean): void {
  const byName = new Map(observed.map((scope) => [scope.name, scope]));
  for (const spec of specs) {
    const desired = desiredScope(spec);
    const current = byName.get(spec.name);
    if (current?.id === undefined) {
      const created = steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource: { type: 'clientScope', realm: steps.realm, name: spec.name }, body: desired }, 'the spec lists it');
      planMappers(steps, spec, { name: spec.name, id: created.output('id') }, [], pruneWhenEmpty);
      continue;
    }
    const resource = { type: 'clientScope', realm: steps.realm, name: spec.name, id: current.id } as const;
    const changed = scopeChanges(desired, current);
    if (changed.length > 0) steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource, body: desired, changed }, 'it differs from the spec');
    planMappers(steps, spec, { name: spec.name, id: current.id }, current.protocolMappers ?? [], pruneWhenEmpty);
  }
}

/**
 * The scopes to delete under the prune rule: made by us (they carry our marker), listed neither as client
 * scopes nor in the realm's default or optional lists. Keycloak's built-in scopes are never among them.
 */
export function doomedScopes(specs: readonly ClientScopeSpec[], linked: readonly string[], observed: readonly ClientScopeRepresentation[], pruneWhenEmpty: boolean): ClientScopeRepresentation[] {
  if (!removesUnlisted(specs, pruneWhenEmpty)) return [];
  const kept = new Set([...specs.map((spec) => spec.name), ...linked]);
  return observed.filter((scope) => !kept.has(scope.name) && !isBuiltInClientScope(scope.name) && carriesMarker(scope.attributes) && scope.id !== undefined);
}

export function planScopeDeletions(steps: RealmSteps, doomed: readonly ClientScopeRepresentation[]): void {
  for (const scope of doomed) {
    const resource = { type: 'clientScope', realm: steps.realm, name: scope.name, ...(scope.id === undefined ? {} : { id: scope.id }) } as const;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource }, 'we made it and the spec no longer lists it');
  }
}
