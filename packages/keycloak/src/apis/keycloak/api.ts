import { defineApi, describeUnknown, isOutputRef, type Value } from '@keyward/kernel/plan';
import type { ClientAddress, KeycloakAction, KeycloakResource, RoleHolder } from './actions.js';
import type { KeycloakQuery } from './queries.js';
import type { RoleNames } from './representations.js';
import { describeTarget } from './scope-mappings.js';
import { PERMISSION_KINDS } from './authorization.js';
import type { ResourceOf, ResourceType } from './resource-types.js';

const shown = (value: Value<string>): string => (isOutputRef(value) ? describeUnknown(value) : value);

const clientText = (client: ClientAddress): string => `client ${client.clientId} in realm ${client.realm}`;

const policyText = (resource: ResourceOf<'authorizationPolicy'>): string =>
  resource.policyType === 'js'
    // Keycloak 26 answers 404 to a JavaScript policy unless a script provider is deployed: say so where it fails.
    ? `JavaScript authorization policy ${resource.name} of ${clientText(resource.client)} (Keycloak needs a deployed script provider for it)`
    : `authorization ${resource.policyType} ${PERMISSION_KINDS.has(resource.policyType) ? 'permission' : 'policy'} ${resource.name} of ${clientText(resource.client)}`;

/** How plans name each type of resource, one entry per type. */
const DESCRIPTIONS: { readonly [T in ResourceType]: (resource: ResourceOf<T>) => string } = {
  realm: (r) => `realm ${r.realm}`,
  realmRole: (r) => `realm role ${r.name} in realm ${r.realm}`,
  clientScope: (r) => `client scope ${r.name} in realm ${r.realm}`,
  clientScopeMapper: (r) => `protocol mapper ${r.name} of client scope ${r.scope.name} in realm ${r.realm}`,
  realmScopeLink: (r) => `client scope ${r.scope} in the ${r.list} client scopes of realm ${r.realm}`,
  client: (r) => `client ${r.clientId} in realm ${r.realm}`,
  clientRole: (r) => `role ${r.name} of ${clientText(r.client)}`,
  clientMapper: (r) => `protocol mapper ${r.name} of ${clientText(r.client)}`,
  clientScopeLink: (r) => `client scope ${r.scope} in the ${r.list} client scopes of ${clientText(r.client)}`,
  clientProfiles: (r) => `the client profiles of realm ${r.realm}`,
  clientPolicies: (r) => `the client policies of realm ${r.realm}`,
  rotatedClientSecret: (r) => `the rotated secret of ${clientText(r.client)}`,
  authenticationFlow: (r) => `authentication flow ${r.alias} in realm ${r.realm}`,
  authenticationFlowCopy: (r) => `authentication flow ${r.alias} (a copy of ${r.from}) in realm ${r.realm}`,
  flowExecution: (r) => `${r.subFlow ? 'sub-flow' : 'authenticator'} ${r.name} of authentication flow ${r.flow} in realm ${r.realm}`,
  authenticatorConfig: (r) => `config ${r.alias} of authenticator ${r.execution.name} in realm ${r.realm}`,
  requiredAction: (r) => `required action ${r.alias} in realm ${r.realm}`,
  group: (r) => `group ${r.path} in realm ${r.realm}`,
  defaultGroup: (r) => `group ${r.path} in the default groups of realm ${r.realm}`,
  identityProvider: (r) => `identity provider ${r.alias} in realm ${r.realm}`,
  identityProviderMapper: (r) => `mapper ${r.name} of identity provider ${r.alias} in realm ${r.realm}`,
  authorizationSettings: (r) => `the authorization settings of ${clientText(r.client)}`,
  authorizationScope: (r) => `authorization scope ${r.name} of ${clientText(r.client)}`,
  authorizationResource: (r) => `authorization resource ${r.name} of ${clientText(r.client)}`,
  component: (r) => (r.parent === undefined ? `user federation provider ${r.name} in realm ${r.realm}` : `mapper ${r.name} of user federation provider ${r.parent} in realm ${r.realm}`),
  organization: (r) => `organization ${r.alias} in realm ${r.realm}`,
  organizationIdentityProvider: (r) => `identity provider ${r.alias} of organization ${r.organization.alias} in realm ${r.realm}`,
  authorizationPolicy: policyText,
};

/** A resource as people read it in a plan: "realm role admin in realm shop". */
export function describeResource(resource: KeycloakResource): string {
  // The table is keyed by type, so the entry found is the one for this resource: TypeScript cannot follow that
  // correlation through an index, hence the cast.
  return (DESCRIPTIONS[resource.type] as (resource: KeycloakResource) => string)(resource);
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
