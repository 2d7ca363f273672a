// What the admin API addresses by id, found by the names plans use.
import { KeywardError } from '@keyward/kernel/interpreter';
import type { ClientRepresentation, ClientScopeRepresentation, IdentityProviderMapperRepresentation, KeycloakObject, ProtocolMapperRepresentation } from '../representations.js';
import { clientPath, clientScopesPath, clientsPath, mappersPath, serviceAccountUserPath } from './paths.js';
import type { AdminReads } from './reads.js';

export type WithId<R> = R & { readonly id: string };

/** A NotFound that is retryable: the plan was made from a state that has changed, and the next reconcile reads again. */
export function missing(what: string, description: string): KeywardError {
  return new KeywardError({ api: 'keycloak', code: 404, reason: 'NotFound', message: `${description}: ${what} not found`, retryable: true });
}

/** A client by clientId (an exact match); undefined when it or its realm does not exist. */
export async function findClient(reads: AdminReads, realm: string, clientId: string): Promise<WithId<ClientRepresentation> | undefined> {
  const clients = await reads.list<WithId<ClientRepresentation>>({
    path: clientsPath(realm),
    query: { clientId },
    operation: 'find_client',
    description: `find client ${clientId} in realm ${realm}`,
    fields: ['id', 'clientId'],
  });
  // The filter is exact already (search=false); checked again, since a search would match parts of names.
  return clients?.find((client) => client.clientId === clientId);
}

/** A client's clientId by its id; undefined when there is none with that id. */
export async function clientIdOf(reads: AdminReads, realm: string, id: string): Promise<string | undefined> {
  const client = await reads.object<ClientRepresentation>({ path: clientPath(realm, id), operation: 'get_client', description: `read client ${id} in realm ${realm}`, fields: ['clientId'] });
  return client?.clientId;
}

/** A client scope's id by its name. */
export async function findClientScopeId(reads: AdminReads, realm: string, name: string): Promise<string | undefined> {
  const scopes = await reads.list<WithId<ClientScopeRepresentation>>({
    path: clientScopesPath(realm),
    operation: 'list_client_scopes',
    description: `list the client scopes of realm ${realm}`,
    fields: ['id', 'name'],
  });
  return scopes?.find((scope) => scope.name === name)?.id;
}

/** A protocol mapper's id by its name, among those of a client scope or client (its path). */
export async function findMapperId(reads: AdminReads, ownerPath: string, name: string, owner: string): Promise<string | undefined> {
  const mappers = await reads.list<WithId<ProtocolMapperRepresentation>>({
    path: mappersPath(ownerPath),
    operation: 'list_protocol_mappers',
    description: `list the protocol mappers of ${owner}`,
    fields: ['id', 'name'],
  });
  return mappers?.find((mapper) => mapper.name === name)?.id;
}

/** The id of the user behind a client's service account; undefined when the client has none. */
export async function serviceAccountUserId(reads: AdminReads, realm: string, clientUuid: string, clientId: string): Promise<string | undefined> {
  const user = await reads.object<WithId<KeycloakObject>>({
    path: serviceAccountUserPath(realm, clientUuid),
    operation: 'get_service_account_user',
    description: `read the service account of client ${clientId} in realm ${realm}`,
    fields: ['id'],
  });
  return user?.id;
}

/** An identity provider mapper's id by its name, among those at `mappersPath`. */
export async function findIdpMapperId(reads: AdminReads, mappersPath: string, name: string, owner: string): Promise<string | undefined> {
  const mappers = await reads.list<WithId<IdentityProviderMapperRepresentation>>({
    path: mappersPath,
    operation: 'list_identity_provider_mappers',
    description: `list the mappers of ${owner}`,
    fields: ['id', 'name'],
  });
  return mappers?.find((mapper) => mapper.name === name)?.id;
}
