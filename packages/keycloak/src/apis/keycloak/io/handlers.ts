import { sensitive, type Sensitive } from '@keyward/kernel';
import { type SecretKeyRef } from '@keyward/kernel/plan';
import { KeywardError, type HandlerContext, type HandlerTable } from '@keyward/kernel/interpreter';
import type { KeycloakAction, KeycloakCall, KeycloakCreateAction, KeycloakGrantRolesAction, KeycloakRevokeRolesAction, RoleHolder } from '../actions.js';
import { describeResource, keycloakApi } from '../api.js';
import type { KeycloakObject } from '../representations.js';
import type { KeycloakAdminClient } from './client.js';
import { createdId, objectBody, stringField } from './decode.js';
import { prepareBody } from './body.js';
import { missing, serviceAccountUserId } from './lookups.js';
import { clientRoleMappingsPath, clientSecretPath, compositesPath, groupRoleMappingsPath, realmRoleMappingsPath } from './paths.js';
import { AdminReads } from './reads.js';
import { collectionOf, createBody, createdIdField, existsNow, isLink, itemOf, knownId, type Resolve } from './resources.js';
import { scopeMappingsOf } from './scope-mappings.js';
import { describeTarget } from '../scope-mappings.js';
import { compositesOf, directRoleMappings, resolveRoles, roleMappingsAt, rolePath, type ListedRole } from './roles.js';

export interface KeycloakHandlerDependencies {
  readonly admin: KeycloakAdminClient;
  /** Reads a secret field's value from its Secret when the step runs. */
  readonly readSecret: (ref: SecretKeyRef) => Promise<Sensitive>;
}

/** A client secret as Keycloak hands it out. */
interface CredentialAnswer extends KeycloakObject {
  readonly value: string;
}

/** Where a holder's roles are read and changed: one path for its realm roles, one per client for client roles. */
interface HolderMappings {
  readonly held: readonly ListedRole[];
  readonly realmPath: string;
  readonly clientPath: (clientUuid: string) => string;
}

async function holderMappings(reads: AdminReads, holder: RoleHolder, resolve: Resolve, description: string): Promise<HolderMappings> {
  if (holder.type === 'role') {
    const path = rolePath(holder.realm, holder.name, holder.client === undefined ? undefined : resolve(holder.client.id));
    const composites = compositesPath(path);
    // A composite role takes realm and client roles on one path.
    return { held: await compositesOf(reads, path, `role ${holder.name}`), realmPath: composites, clientPath: () => composites };
  }
  if (holder.type === 'group') {
    const path = groupRoleMappingsPath(holder.realm, resolve(holder.id));
    const { roles } = await roleMappingsAt(reads, path, `group ${holder.path}`);
    return { held: roles, realmPath: `${path}/realm`, clientPath: (uuid) => `${path}/clients/${encodeURIComponent(uuid)}` };
  }
  if (holder.type === 'scopeMappings') {
    const found = await scopeMappingsOf(reads, holder.realm, holder.target);
    if (found === undefined) throw missing(describeTarget(holder.target), description);
    return { held: found.roles, realmPath: `${found.path}/realm`, clientPath: (uuid) => `${found.path}/clients/${encodeURIComponent(uuid)}` };
  }
  const { realm, clientId } = holder.client;
  const userId = await serviceAccountUserId(reads, realm, resolve(holder.client.id), clientId);
  if (userId === undefined) throw missing(`the service account of client ${clientId}`, description);
  const { roles } = await directRoleMappings(reads, realm, userId, `the service account of client ${clientId}`);
  return { held: roles, realmPath: realmRoleMappingsPath(realm, userId), clientPath: (uuid) => clientRoleMappingsPath(realm, userId, uuid) };
}

const holderRealm = (holder: RoleHolder): string => (holder.type === 'serviceAccount' ? holder.client.realm : holder.realm);

/**
 * Grants or revokes the roles of `action`, only those that change: a role already held is not granted
 * again, one not held is not taken. 'unchanged' when none does.
 */
async function changeRoles(
  admin: KeycloakAdminClient,
  action: KeycloakGrantRolesAction | KeycloakRevokeRolesAction,
  resolve: Resolve,
  description: string,
): Promise<'applied' | 'unchanged'> {
  const grant = action.kind === 'keycloak.grantRoles';
  const reads = new AdminReads(admin, action);
  const realm = holderRealm(action.holder);
  const [mappings, roles] = await Promise.all([
    holderMappings(reads, action.holder, resolve, description),
    resolveRoles(reads, realm, action.roles, grant ? 'fail' : 'skip', description),
  ]);
  const heldIds = new Set(mappings.held.map((role) => role.id));
  const changing = (list: readonly ListedRole[]): ListedRole[] => list.filter((role) => heldIds.has(role.id) !== grant);
  const batches: { readonly path: string; readonly roles: readonly ListedRole[] }[] = [
    { path: mappings.realmPath, roles: changing(roles.realm) },
    ...roles.clients.map((client) => ({ path: mappings.clientPath(client.id), roles: changing(client.roles) })),
  ].filter((batch) => batch.roles.length > 0);
  for (const batch of batches) {
    await admin.send(action, { method: grant ? 'POST' : 'DELETE', path: batch.path, operation: grant ? 'grant_roles' : 'revoke_roles', description, body: batch.roles, retry: true });
  }
  return batches.length === 0 ? 'unchanged' : 'applied';
}

/**
 * Why a create failed. A 409 is followed at once by a read: when what it names exists now (an earlier create
 * got no answer while Keycloak went on and made it, or someone else made it), the Conflict is retryable, the
 * error policy has the object reconciled again at once, and that reconcile decides by the ownership rules
 * whether it is ours. A 409 the read does not confirm (a name held in another form, a type not found by name)
 * stays final.
 */
async function createFailure(error: unknown, action: KeycloakCreateAction, resolve: Resolve, reads: AdminReads): Promise<unknown> {
  if (!(error instanceof KeywardError && error.code === 409)) return error;
  if ((await existsNow(action.resource, resolve, reads)) !== true) return error;
  return new KeywardError({
    api: 'keycloak',
    code: 409,
    reason: error.reason,
    message: `${error.message}; it exists now, and is read again before anything else is done`,
    retryable: true,
  });
}

/** Handlers for the Keycloak actions. */
export function keycloakHandlers({ admin, readSecret }: KeycloakHandlerDependencies): HandlerTable<KeycloakAction> {
  const resolver = (context: HandlerContext): Resolve => (value) => context.resolve(value);
  const reads = (call: KeycloakCall): AdminReads => new AdminReads(admin, call);

  return {
    'keycloak.create': async (action, context) => {
      const description = `create ${describeResource(action.resource)}`;
      const resolve = resolver(context);
      if (isLink(action.resource)) {
        const item = await itemOf(action.resource, resolve, reads(action));
        const group = action.resource.type === 'defaultGroup';
        if (item?.linkedId === undefined) throw missing(group ? 'the group' : 'the client scope', description);
        await admin.send(action, { method: 'PUT', path: item.path, operation: group ? 'add_default_group' : 'link_client_scope', description });
        return { outcome: 'applied', outputs: { id: item.linkedId } };
      }
      const { body, secrets } = await prepareBody(action.body, action.secretFields, context, readSecret);
      const response = await admin.send(action, { method: 'POST', path: collectionOf(action.resource, resolve), operation: `create_${action.resource.type}`, description, body: createBody(action.resource, body), secrets })
        .catch(async (error: unknown) => { throw await createFailure(error, action, resolve, reads(action)); });
      const idField = createdIdField(action.resource);
      const answered = idField === undefined ? undefined : stringField(objectBody(response, [idField], description), idField);
      return { outcome: 'applied', outputs: { id: answered ?? knownId(action.resource) ?? createdId(response, description) } };
    },

    'keycloak.update': async (action, context) => {
      const description = `update ${describeResource(action.resource)}`;
      const item = await itemOf(action.resource, resolver(context), reads(action));
      if (item === undefined || isLink(action.resource)) throw missing(describeResource(action.resource), description);
      const { body, secrets } = await prepareBody(action.body, action.secretFields, context, readSecret);
      await admin.send(action, { method: 'PUT', path: item.updatePath ?? item.path, operation: `update_${action.resource.type}`, description, body: { ...body, ...item.identity }, secrets });
      return { outcome: 'applied', outputs: {} };
    },

    'keycloak.delete': async (action, context) => {
      const description = `delete ${describeResource(action.resource)}`;
      const item = await itemOf(action.resource, resolver(context), reads(action));
      if (item === undefined) return { outcome: 'unchanged', outputs: {} };
      const response = await admin.send(action, { method: 'DELETE', path: item.path, operation: `delete_${action.resource.type}`, description, accept: [404] });
      return { outcome: response.status === 404 ? 'unchanged' : 'applied', outputs: {} };
    },

    'keycloak.grantRoles': async (action, context) => ({
      outcome: await changeRoles(admin, action, resolver(context), keycloakApi.actions['keycloak.grantRoles'].describe(action)),
      outputs: {},
    }),

    'keycloak.revokeRoles': async (action, context) => ({
      outcome: await changeRoles(admin, action, resolver(context), keycloakApi.actions['keycloak.revokeRoles'].describe(action)),
      outputs: {},
    }),

    'keycloak.regenerateClientSecret': async (action, context) => {
      const { realm, clientId } = action.client;
      const description = `regenerate the secret of client ${clientId} in realm ${realm}`;
      // Not retried: a second POST would regenerate again, and the first new secret would be lost.
      const response = await admin.send(action, { method: 'POST', path: clientSecretPath(realm, context.resolve(action.client.id)), operation: 'regenerate_client_secret', description, retry: false });
      const { value } = objectBody<CredentialAnswer>(response, ['value'], description);
      return { outcome: 'applied', outputs: { secret: sensitive(value) } };
    },
  };
}
