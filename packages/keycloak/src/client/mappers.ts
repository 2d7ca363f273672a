import type { ProtocolMapperRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { removesUnlisted } from '../prune.js';
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
  const { plan, call, client } = target;
  const listed = spec.wanted ?? [];
  const byName = new Map(observed.map((mapper) => [mapper.name, mapper]));
  for (const mapper of listed) {
    const desired = desiredMapper(mapper, clientProtocol);
    const existing = byName.get(mapper.name);
    if (existing === undefined) {
      plan.add({ kind: 'keycloak.create', ...call, resource: { type: 'clientMapper', client, name: mapper.name }, body: desired }, 'the spec lists this protocol mapper');
      continue;
    }
    const changed = changedFields(desired, existing);
    if (changed.length === 0 || existing.id === undefined) continue;
    // A mapper is replaced whole: config keys the spec does not state are sent back as they are.
    const body = { ...desired, id: existing.id, config: { ...existing.config, ...desired.config } };
    plan.add(
      { kind: 'keycloak.update', ...call, resource: { type: 'clientMapper', client, name: mapper.name, id: existing.id }, body, changed },
      'the protocol mapper differs from the spec',
    );
  }
  if (!removesUnlisted(listed, spec.pruneWhenEmpty)) return;
  const names = new Set(listed.map((mapper) => mapper.name));
  for (const mapper of observed) {
    if (names.has(mapper.name) || mapper.id === undefined || !carriesMarker(mapper.config)) continue;
    plan.add(
      { kind: 'keycloak.delete', ...call, resource: { type: 'clientMapper', client, name: mapper.name, id: mapper.id } },
      'the spec no longer lists this protocol mapper, which it created',
    );
  }
}
