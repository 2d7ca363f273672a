import type { IdentityProviderMapperRepresentation } from '../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../ownership.js';
import { removesUnlisted } from '../prune.js';
import type { RealmSteps } from './context.js';
import type { IdentityProviderSpec, IdpMapperSpec } from './identity-provider-spec.js';

// The mappers of an identity provider. Keycloak replaces a mapper whole on a PUT, so an update sends its
// config complete: Keycloak's keys, the spec's over them. Only a stated list is managed: without `mappers`
// an identity provider's mappers are left alone; with it, those carrying our marker and no longer listed go.

const MARKER = { [MANAGED_BY]: MANAGED_BY_KEYWARD };

export function desiredIdpMapper(spec: IdpMapperSpec): IdentityProviderMapperRepresentation {
  return { name: spec.name, identityProviderMapper: spec.identityProviderMapper, config: { ...spec.config, ...MARKER } };
}

/** Compared on the config keys the spec states; an empty value is the same as none. */
function mapperChanges(desired: IdentityProviderMapperRepresentation, observed: IdentityProviderMapperRepresentation): string[] {
  return [
    ...(desired.identityProviderMapper === observed.identityProviderMapper ? [] : ['identityProviderMapper']),
    ...Object.entries(desired.config ?? {}).filter(([key, value]) => value !== (observed.config?.[key] ?? '')).map(([key]) => `config.${key}`),
  ];
}

/**
 * The mappers of one listed identity provider. `observed` undefined: the provider is created in the same
 * plan, so every listed mapper is created after it.
 */
export function planIdpMappers(steps: RealmSteps, spec: IdentityProviderSpec, observed: readonly IdentityProviderMapperRepresentation[] | undefined, pruneWhenEmpty: boolean): void {
  const mappers = spec.mappers ?? [];
  const byName = new Map((observed ?? []).map((mapper) => [mapper.name, mapper]));
  for (const mapperSpec of mappers) {
    const desired = desiredIdpMapper(mapperSpec);
    const current = byName.get(mapperSpec.name);
    const resource = { type: 'identityProviderMapper', realm: steps.realm, alias: spec.alias, name: mapperSpec.name } as const;
    if (current === undefined) {
      steps.plan.add({ kind: 'keycloak.create', ...steps.call, resource, body: { ...desired, identityProviderAlias: spec.alias } }, `identity provider ${spec.alias} lists it`);
      continue;
    }
    const changed = mapperChanges(desired, current);
    if (changed.length === 0 || current.id === undefined) continue;
    const body = { ...current, ...desired, config: { ...current.config, ...desired.config } };
    steps.plan.add({ kind: 'keycloak.update', ...steps.call, resource: { ...resource, id: current.id }, body, changed }, 'it differs from the spec');
  }
  if (!removesUnlisted(mappers, pruneWhenEmpty)) return;
  const listed = new Set(mappers.map((mapper) => mapper.name));
  for (const mapper of observed ?? []) {
    if (listed.has(mapper.name) || !carriesMarker(mapper.config) || mapper.id === undefined) continue;
    const resource = { type: 'identityProviderMapper', realm: steps.realm, alias: spec.alias, name: mapper.name, id: mapper.id } as const;
    steps.plan.add({ kind: 'keycloak.delete', ...steps.call, resource }, `we made it and identity provider ${spec.alias} no longer lists it`);
  }
}
