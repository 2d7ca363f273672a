// Keycloak's admin API representations, as far as Keyward reads them. Keycloak sends many more fields; the
// index signatures keep them (a realm or client read back is compared field by field, only on the fields a
// spec manages).

/** A JSON value as Keycloak sends it. */
export type KeycloakJson = string | number | boolean | null | readonly KeycloakJson[] | { readonly [key: string]: KeycloakJson | undefined };

/** Any representation: named fields and whatever else Keycloak sent. */
export type KeycloakObject = Readonly<Record<string, KeycloakJson | undefined>>;

/** Roles, by name, that a role is composed of or that a holder is granted. */
export interface RoleNames {
  /** Realm roles. */
  readonly realm: readonly string[];
  /** Client roles, by the clientId (not the id) of the client that defines them. */
  readonly clients: Readonly<Record<string, readonly string[]>>;
}

/** A realm or client role. Role attributes are lists of strings, as Keycloak stores them. */
export interface RoleRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly name: string;
  readonly description?: string;
  readonly composite?: boolean;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
}

/** A role read back with the roles it is composed of, by name. */
export interface ObservedRole {
  readonly role: RoleRepresentation;
  readonly composites: RoleNames;
}

export interface ProtocolMapperRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly name: string;
  readonly protocol: string;
  readonly protocolMapper: string;
  readonly config?: Readonly<Record<string, string>>;
}

export interface ClientScopeRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly name: string;
  readonly description?: string;
  readonly protocol?: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly protocolMappers?: readonly ProtocolMapperRepresentation[];
}

export interface RealmRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly realm: string;
  readonly enabled?: boolean;
  readonly attributes?: Readonly<Record<string, string>>;
}

export interface ClientRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly clientId: string;
  readonly attributes?: Readonly<Record<string, string>>;
  readonly protocolMappers?: readonly ProtocolMapperRepresentation[];
}

/** An identity provider: Keycloak masks the config's clientSecret on reads. */
export interface IdentityProviderRepresentation extends KeycloakObject {
  readonly alias: string;
  readonly providerId: string;
  readonly config?: Readonly<Record<string, string>>;
}

export interface IdentityProviderMapperRepresentation extends KeycloakObject {
  readonly id?: string;
  readonly name: string;
  readonly identityProviderMapper: string;
  readonly config?: Readonly<Record<string, string>>;
}

/** An identity provider with its mappers, when they were read. */
export interface ObservedIdentityProvider {
  readonly provider: IdentityProviderRepresentation;
  /** Undefined when they were not asked for. */
  readonly mappers: readonly IdentityProviderMapperRepresentation[] | undefined;
}

/** An organization (Keycloak 26), as the list with briefRepresentation=false shows it. */
export interface OrganizationRepresentation extends KeycloakObject {
  readonly id: string;
  readonly name: string;
  readonly alias: string;
  readonly enabled?: boolean;
  readonly description?: string;
  readonly redirectUrl?: string;
  readonly domains?: readonly { readonly name: string; readonly verified?: boolean }[];
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
}
