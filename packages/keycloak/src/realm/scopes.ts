import type { DeletedItem, Value } from '@keyward/kernel/plan';
import type { ClientScopeRepresentation, ProtocolMapperRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { addKeycloakList, addSteps, byName, planKeycloakList, realmWrites, type ListStep } from '../list-writes.js';
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
  const resource = (name: string, id?: string) => ({ type: 'clientScopeMapper', realm: steps.realm, scope, name, ...(id === undefined ? {} : { id }) }) as const;
  addKeycloakList(steps.plan, {
    call: steps.call,
    reasons: { create: `client scope ${spec.name} lists it`, update: 'it differs from the spec', delete: `we made it and client scope ${spec.name} no longer lists it` },
    desired: spec.protocolMappers ?? [],
    observed,
    ...byName,
    changes: (mapper, current) => (current.id === undefined ? [] : mapperChanges(desiredMapper(mapper, spec), current)),
    ours: (mapper) => carriesMarker(mapper.config) && mapper.id !== undefined,
    pruneWhenEmpty,
    create: (mapper) => ({ resource: resource(mapper.name), body: desiredMapper(mapper, spec) }),
    update: (mapper, current) => {
      const desired = desiredMapper(mapper, spec);
      return { resource: resource(mapper.name, current.id), body: { ...desired, id: current.id, config: { ...current.config, ...desired.config } } };
    },
    delete: (mapper) => resource(mapper.name, mapper.id),
  });
}

/** What else keeps an unlisted scope of ours: the realm's default and optional lists name it. */
export interface ScopeKeeping {
  readonly pruneWhenEmpty: boolean;
  readonly linked: readonly string[];
}

/**
 * Listed client scopes: created or brought to the spec (so they carry our marker), with their protocol
 * mappers. A new scope's mappers use the id its creation returns. Returns the deletions, which wait for the
 * realm's scope lists: of scopes made by us (they carry our marker) listed neither as client scopes nor in the
 * realm's default or optional lists, under the prune rule. Keycloak's built-in scopes are never among them.
 */
export function planClientScopes(steps: RealmSteps, specs: readonly ClientScopeSpec[], observed: readonly ClientScopeRepresentation[], keeping: ScopeKeeping): readonly DeletedItem<ClientScopeRepresentation, ListStep>[] {
  const resource = (name: string, id?: Value<string>) => ({ type: 'clientScope', realm: steps.realm, name, ...(id === undefined ? {} : { id }) }) as const;
  const linked = new Set(keeping.linked);
  const scopes = planKeycloakList({
    ...realmWrites(steps),
    desired: specs,
    // A scope Keycloak shows without an id is made again, and is not deleted.
    observed: observed.filter((scope) => scope.id !== undefined),
    ...byName,
    changes: (spec, current) => scopeChanges(desiredScope(spec), current),
    ours: (scope) => carriesMarker(scope.attributes) && !linked.has(scope.name),
    builtIn: isBuiltInClientScope,
    pruneWhenEmpty: keeping.pruneWhenEmpty,
    create: (spec) => ({ resource: resource(spec.name), body: desiredScope(spec) }),
    update: (spec, current) => ({ resource: resource(spec.name, current.id), body: desiredScope(spec) }),
    delete: (scope) => resource(scope.name, scope.id),
  });
  for (const { desired: spec, observed: current, step } of scopes.listed) {
    if (step?.action.kind === 'keycloak.create') {
      const created = steps.plan.add(step.action, step.reason);
      planMappers(steps, spec, { name: spec.name, id: created.output('id') }, [], keeping.pruneWhenEmpty);
      continue;
    }
    addSteps(steps.plan, [step]);
    if (current?.id !== undefined) planMappers(steps, spec, { name: spec.name, id: current.id }, current.protocolMappers ?? [], keeping.pruneWhenEmpty);
  }
  return scopes.deletes;
}
