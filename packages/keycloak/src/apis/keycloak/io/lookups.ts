// What the admin API addresses by id, found by the names plans use.
import { KeywardError } from '@keyward/kernel/interpreter';
import type { ClientRepresentation, KeycloakObject } from '../representations.js';
import { clientPath, clientScopesPath, clientsPath, mappersPath, serviceAccountUserPath } from './paths.js';
import type { AdminRead, AdminReads } from './reads.js';

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

type Named = KeycloakObject & { readonly id: string; readonly name: string };

/** The id of the item named `name` in the list `read` reads; undefined when there is none (or no list). */
async function idByName(reads: AdminReads, read: Omit<AdminRead<Named>, 'fields'>, name: string): Promise<string | undefined> {
  const items = await reads.list<Named>({ ...read, fields: ['id', 'name'] });
  return items?.find((item) => item.name === name)?.id;
}

/** A client scope's id by its name. */
export function findClientScopeId(reads: AdminReads, realm: string, name: string): Promise<string | undefined> {
  return idByName(reads, { path: clientScopesPath(realm), operation: 'list_client_scopes', description: `list the client scopes of realm ${realm}` }, name);
}

/** A protocol mapper's id by its name, among those of a client scope or client (its path). */
export function findMapperId(reads: AdminReads, ownerPath: string, name: string, owner: string): Promise<string | undefined> {
  return idByName(reads, { path: mappersPath(ownerPath), operation: 'list_protocol_mappers', description: `list the protocol mappers of ${owner}` }, name);
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
export function findIdpMapperId(reads: AdminReads, mappersPath: string, name: string, owner: string): Promise<string | undefined> {
  return idByName(reads, { path: mappersPath, operation: 'list_identity_provider_mappers', description: `list the mappers of ${owner}` }, name);
}
