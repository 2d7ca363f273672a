import type { IdentityProviderMapperRepresentation } from '../../apis/keycloak/representations.js';
import { MANAGED_BY, MANAGED_BY_KEYWARD, carriesMarker } from '../../ownership.js';
import { addKeycloakList, byName } from '../../list-writes.js';
import type { RealmSteps } from '../context.js';
import type { IdentityProviderSpec, IdpMapperSpec } from './spec.js';

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
  const resource = (name: string, id?: string) => ({ type: 'identityProviderMapper', realm: steps.realm, alias: spec.alias, name, ...(id === undefined ? {} : { id }) }) as const;
  addKeycloakList(steps.plan, {
    call: steps.call,
    reasons: { create: `identity provider ${spec.alias} lists it`, update: 'it differs from the spec', delete: `we made it and identity provider ${spec.alias} no longer lists it` },
    desired: spec.mappers ?? [],
    observed: observed ?? [],
    ...byName,
    changes: (mapper, current) => (current.id === undefined ? [] : mapperChanges(desiredIdpMapper(mapper), current)),
    ours: (mapper) => carriesMarker(mapper.config) && mapper.id !== undefined,
    pruneWhenEmpty,
    create: (mapper) => ({ resource: resource(mapper.name), body: { ...desiredIdpMapper(mapper), identityProviderAlias: spec.alias } }),
    update: (mapper, current) => {
      const desired = desiredIdpMapper(mapper);
      return { resource: resource(mapper.name, current.id), body: { ...current, ...desired, config: { ...current.config, ...desired.config } } };
    },
    delete: (mapper) => resource(mapper.name, mapper.id),
  });
}
