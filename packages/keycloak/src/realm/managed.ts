// What a realm's status records as applied from the spec, where Keycloak or people may add to the same
// lists: only what the spec listed before and lists no more is ever removed.
import type { StatedRoles } from '../tracked-roles.js';
import type { ScopeMappingSpec } from './scope-mappings/spec.js';

// A type, not an interface: it is plain JSON data and goes into plan templates as is.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type RealmManaged = {
  /** Paths of the default groups the spec listed. */
  readonly defaultGroups?: readonly string[];
  /** The composites of the realm's default role the spec listed. */
  readonly defaultRoles?: StatedRoles;
  /** The scope mapping entries the spec listed. */
  readonly scopeMappings?: readonly ScopeMappingSpec[];
  /** Names of the client profiles and client policies the spec listed (Keycloak keeps no marker on them). */
  readonly clientProfiles?: readonly string[];
  readonly clientPolicies?: readonly string[];
};

type Fields = Record<string, unknown>;
const fields = (raw: unknown): Fields => (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Fields) : {});
const texts = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

function readScopeMapping(raw: unknown): ScopeMappingSpec[] {
  const f = fields(raw);
  const roles = readRoles(raw) ?? {};
  if (typeof f['clientScope'] === 'string') return [{ clientScope: f['clientScope'], ...roles }];
  return typeof f['client'] === 'string' ? [{ client: f['client'], ...roles }] : [];
}

function readRoles(raw: unknown): StatedRoles | undefined {
  const f = fields(raw);
  const realmRoles = texts(f['realmRoles']);
  const clients = Object.entries(fields(f['clientRoles'])).flatMap(([clientId, roles]) => {
    const list = texts(roles);
    return list === undefined ? [] : [[clientId, list] as const];
  });
  const roles: StatedRoles = {
    ...(realmRoles === undefined ? {} : { realmRoles }),
    ...(f['clientRoles'] === undefined ? {} : { clientRoles: Object.fromEntries(clients) }),
  };
  return Object.keys(roles).length === 0 ? undefined : roles;
}

/** `status.managed` as stored, reduced to the fields we know with the right types; undefined when empty. */
export function readRealmManaged(raw: unknown): RealmManaged | undefined {
  const f = fields(raw);
  const defaultGroups = texts(f['defaultGroups']);
  const defaultRoles = readRoles(f['defaultRoles']);
  const scopeMappings = Array.isArray(f['scopeMappings']) ? f['scopeMappings'].flatMap(readScopeMapping) : undefined;
  return toManaged({ defaultGroups, defaultRoles, scopeMappings, clientProfiles: texts(f['clientProfiles']), clientPolicies: texts(f['clientPolicies']) });
}

/** `managed`, or undefined when it records nothing (so a realm that manages none of these keeps no field). */
export function toManaged(managed: { readonly [K in keyof RealmManaged]?: RealmManaged[K] | undefined }): RealmManaged | undefined {
  const kept = Object.fromEntries(Object.entries(managed).filter(([, value]) => value !== undefined && (Array.isArray(value) || Object.keys(value as object).length > 0)));
  return Object.keys(kept).length === 0 ? undefined : kept;
}

const list = (description: string) => ({ type: 'array', items: { type: 'string' }, description });
const realmRoles = list('Realm roles, by name.');
const clientRoles = { type: 'object', description: 'Client roles, by the clientId of their client.', additionalProperties: { type: 'array', items: { type: 'string' } } };

export const realmManagedSchema = {
  type: 'object',
  description: 'Default groups, default roles, scope mappings, client profiles and client policies applied from the spec: only these are ever removed.',
  properties: {
    defaultGroups: list('Paths of the default groups the spec listed.'),
    clientProfiles: list('Names of the client profiles the spec listed (Keycloak keeps no marker on them).'),
    clientPolicies: list('Names of the client policies the spec listed (Keycloak keeps no marker on them).'),
    defaultRoles: { type: 'object', description: 'The composites of the realm\'s default role the spec listed.', properties: { realmRoles, clientRoles } },
    scopeMappings: {
      type: 'array',
      description: 'The scope mapping entries the spec listed, each with the roles it mapped.',
      items: {
        type: 'object',
        properties: {
          clientScope: { type: 'string', description: 'The client scope the roles are mapped to, by name.' },
          client: { type: 'string', description: 'The client the roles are mapped to, by clientId.' },
          realmRoles,
          clientRoles,
        },
      },
    },
  },
};
