import { defineApi, describeUnknown, isOutputRef, type Value } from '@keyward/vocabulary';
import type { ClientAddress, KeycloakAction, KeycloakResource, RoleHolder } from './actions.js';
import type { KeycloakQuery } from './queries.js';
import type { RoleNames } from './representations.js';
import { describeTarget } from './scope-mappings.js';
import { PERMISSION_KINDS } from './authorization.js';

const shown = (value: Value<string>): string => (isOutputRef(value) ? describeUnknown(value) : value);

const clientText = (client: ClientAddress): string => `client ${client.clientId} in realm ${client.realm}`;

/** A resource as people read it in a plan: "realm role admin in realm shop". */
export function describeResource(resource: KeycloakResource): string {
  switch (resource.type) {
    case 'realm':
      return `realm ${resource.realm}`;
    case 'realmRole':
      return `realm role ${resource.name} in realm ${resource.realm}`;
    case 'clientScope':
      return `client scope ${resource.name} in realm ${resource.realm}`;
    case 'clientScopeMapper':
      return `protocol mapper ${resource.name} of client scope ${resource.scope.name} in realm ${resource.realm}`;
    case 'realmScopeLink':
      return `client scope ${resource.scope} in the ${resource.list} client scopes of realm ${resource.realm}`;
    case 'client':
      return `client ${resource.clientId} in realm ${resource.realm}`;
    case 'clientRole':
      return `role ${resource.name} of ${clientText(resource.client)}`;
    case 'clientMapper':
      return `protocol mapper ${resource.name} of ${clientText(resource.client)}`;
    case 'clientScopeLink':
      return `client scope ${resource.scope} in the ${resource.list} client scopes of ${clientText(resource.client)}`;
    case 'clientProfiles':
      return `the client profiles of realm ${resource.realm}`;
    case 'clientPolicies':
      return `the client policies of realm ${resource.realm}`;
    case 'rotatedClientSecret':
      return `the rotated secret of ${clientText(resource.client)}`;
    case 'authenticationFlow':
      return `authentication flow ${resource.alias} in realm ${resource.realm}`;
    case 'authenticationFlowCopy':
      return `authentication flow ${resource.alias} (a copy of ${resource.from}) in realm ${resource.realm}`;
    case 'flowExecution':
      return `${resource.subFlow ? 'sub-flow' : 'authenticator'} ${resource.name} of authentication flow ${resource.flow} in realm ${resource.realm}`;
    case 'authenticatorConfig':
      return `config ${resource.alias} of authenticator ${resource.execution.name} in realm ${resource.realm}`;
    case 'requiredAction':
      return `required action ${resource.alias} in realm ${resource.realm}`;
    case 'group':
      return `group ${resource.path} in realm ${resource.realm}`;
    case 'defaultGroup':
      return `group ${resource.path} in the default groups of realm ${resource.realm}`;
    case 'identityProvider':
      return `identity provider ${resource.alias} in realm ${resource.realm}`;
    case 'identityProviderMapper':
      return `mapper ${resource.name} of identity provider ${resource.alias} in realm ${resource.realm}`;
    case 'authorizationSettings':
      return `the authorization settings of ${clientText(resource.client)}`;
    case 'authorizationScope':
      return `authorization scope ${resource.name} of ${clientText(resource.client)}`;
    case 'authorizationResource':
      return `authorization resource ${resource.name} of ${clientText(resource.client)}`;
    case 'component':
      return resource.parent === undefined ? `user federation provider ${resource.name} in realm ${resource.realm}` : `mapper ${resource.name} of user federation provider ${resource.parent} in realm ${resource.realm}`;
    case 'organization':
      return `organization ${resource.alias} in realm ${resource.realm}`;
    case 'organizationIdentityProvider':
      return `identity provider ${resource.alias} of organization ${resource.organization.alias} in realm ${resource.realm}`;
    case 'authorizationPolicy':
      return resource.policyType === 'js'
        // Keycloak 26 answers 404 to a JavaScript policy unless a script provider is deployed: say so where it fails.
        ? `JavaScript authorization policy ${resource.name} of ${clientText(resource.client)} (Keycloak needs a deployed script provider for it)`
        : `authorization ${resource.policyType} ${PERMISSION_KINDS.has(resource.policyType) ? 'permission' : 'policy'} ${resource.name} of ${clientText(resource.client)}`;
  }
}

/** Whose roles a grant or revocation changes: "group /staff in realm shop". */
export function describeHolder(holder: RoleHolder): string {
  if (holder.type === 'serviceAccount') return `the service account of ${clientText(holder.client)}`;
  if (holder.type === 'group') return `group ${holder.path} in realm ${holder.realm}`;
  if (holder.type === 'scopeMappings') return `the scope of ${describeTarget(holder.target)} in realm ${holder.realm}`;
  return holder.client === undefined ? `realm role ${holder.name} in realm ${holder.realm}` : `role ${holder.name} of ${clientText(holder.client)}`;
}

/** "realm roles a, b; roles x of client c". */
export function describeRoles(roles: RoleNames): string {
  const parts = roles.realm.length > 0 ? [`realm roles ${roles.realm.join(', ')}`] : [];
  for (const [clientId, names] of Object.entries(roles.clients)) if (names.length > 0) parts.push(`roles ${names.join(', ')} of client ${clientId}`);
  return parts.join('; ');
}

/** Keycloak's admin API: realms, clients and what they contain. */
export const keycloakApi = defineApi<KeycloakAction, KeycloakQuery>({
  name: 'keycloak',
  actions: {
    'keycloak.create': { describe: (a) => `create ${describeResource(a.resource)}` },
    'keycloak.update': {
      describe: (a) => `update ${describeResource(a.resource)}`,
      details: (a) => a.changed.map((field) => `~ ${field}`),
    },
    'keycloak.delete': { describe: (a) => `delete ${describeResource(a.resource)}` },
    'keycloak.grantRoles': { describe: (a) => `grant ${describeRoles(a.roles)} to ${describeHolder(a.holder)}` },
    'keycloak.revokeRoles': { describe: (a) => `revoke ${describeRoles(a.roles)} from ${describeHolder(a.holder)}` },
    'keycloak.regenerateClientSecret': { describe: (a) => `regenerate the secret of ${clientText(a.client)} (id ${shown(a.client.id)})` },
  },
  queries: {
    'keycloak.realm': { describe: (q) => `read realm ${q.realm} from Keycloak` },
    'keycloak.client': { describe: (q) => `read client ${q.clientId} of realm ${q.realm} from Keycloak` },
    'keycloak.flows': { describe: (q) => `read the authentication flows of realm ${q.realm} from Keycloak` },
    'keycloak.grantReach': { describe: (q) => `read what ${describeRoles(q.read.roles)} reach in realm ${q.realm} through composites` },
  },
});
