import type { ProtocolMapperRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { addKeycloakList, byName, clientWrites } from '../list-writes.js';
import type { ProtocolMapperSpec } from './spec.js';
import type { ClientTarget } from './target.js';

/** A mapper as the spec wants it; our marker in its config says it is the spec's. */
function desiredMapper(mapper: ProtocolMapperSpec, clientProtocol: string): ProtocolMapperRepresentation {
  return {
    name: mapper.name,
    protocol: mapper.protocol ?? clientProtocol,
    protocolMapper: mapper.protocolMapper,
    config: { ...mapper.config, [MANAGED_BY]: MANAGED_BY_KEYWARD },
  };
}

/** What differs, comparing only the config keys the spec states (Keycloak adds its own). */
function changedFields(desired: ProtocolMapperRepresentation, observed: ProtocolMapperRepresentation): string[] {
  const changed = (['protocol', 'protocolMapper'] as const).filter((field) => desired[field] !== observed[field]);
  const config = Object.entries(desired.config ?? {}).filter(([key, value]) => observed.config?.[key] !== value).map(([key]) => `config.${key}`);
  return [...changed, ...config];
}

/**
 * Creates and updates the protocol mappers the spec lists, and deletes those it no longer lists that carry our
 * marker, under the prune rule; mappers made by hand are left alone.
 */
export function reconcileProtocolMappers(
  target: ClientTarget,
  spec: { readonly wanted: readonly ProtocolMapperSpec[] | undefined; readonly pruneWhenEmpty: boolean },
  observed: readonly ProtocolMapperRepresentation[],
  clientProtocol: string,
): void {
  const resource = (name: string, id?: string) => ({ type: 'clientMapper', client: target.client, name, ...(id === undefined ? {} : { id }) }) as const;
  addKeycloakList(target.plan, {
    ...clientWrites(target, 'protocol mapper'),
    desired: spec.wanted ?? [],
    observed,
    ...byName,
    changes: (mapper, existing) => (existing.id === undefined ? [] : changedFields(desiredMapper(mapper, clientProtocol), existing)),
    ours: (mapper) => mapper.id !== undefined && carriesMarker(mapper.config),
    pruneWhenEmpty: spec.pruneWhenEmpty,
    create: (mapper) => ({ resource: resource(mapper.name), body: desiredMapper(mapper, clientProtocol) }),
    // A mapper is replaced whole: config keys the spec does not state are sent back as they are.
    update: (mapper, existing) => {
      const desired = desiredMapper(mapper, clientProtocol);
      return { resource: resource(mapper.name, existing.id), body: { ...desired, id: existing.id, config: { ...existing.config, ...desired.config } } };
    },
    delete: (mapper) => resource(mapper.name, mapper.id),
  });
}
