import { PERMISSION_KINDS, type AuthorizationPolicyRepresentation, type ObservedPolicy, type PolicyParts } from '../authorization.js';
import type { KeycloakObject } from '../representations.js';
import { authorizationPoliciesPath, groupItemPath, itemPath, realmPath } from './paths.js';
import type { AdminReads } from './reads.js';
import { ClientIdCache } from './roles.js';

// A client's authorization policies and permissions. The list gives each policy's parts as JSON text of ids
// (roles, users, groups, clients) and none of a permission's; Keycloak takes them by name. So the parts of the
// policies a spec lists are read back to names, item by item; the others are listed only (to prune ours).

interface Named extends KeycloakObject {
  readonly id?: string;
  readonly _id?: string;
  readonly name?: string;
}

/** The JSON text of a config entry, as a list; empty when absent or not a list. */
function jsonList(text: string | undefined): unknown[] {
  if (text === undefined || text === '') return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}

const entry = (item: unknown): Readonly<Record<string, unknown>> => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {});
const TIME_KEYS: Readonly<Record<string, string>> = { nbf: 'notBefore', noa: 'notOnOrAfter' };
const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

class PartReader {
  readonly #clientIds = new ClientIdCache();

  constructor(
    private readonly reads: AdminReads,
    private readonly realm: string,
  ) {}

  async #name(path: string, field: string, what: string): Promise<string> {
    const found = await this.reads.object<KeycloakObject>({ path, operation: 'get_policy_member', description: `read ${what}` });
    // A member deleted meanwhile is named by its id: Keycloak still lists it until the policy is written.
    return textOf(found?.[field]) || path.slice(path.lastIndexOf('/') + 1);
  }

  async role(id: string): Promise<string> {
    const role = await this.reads.object<KeycloakObject>({ path: `${realmPath(this.realm)}/roles-by-id/${encodeURIComponent(id)}`, operation: 'get_policy_member', description: `read role ${id} in realm ${this.realm}` });
    if (role === undefined) return id;
    const name = textOf(role['name']);
    return role['clientRole'] === true ? `${await this.#clientIds.of(this.reads, this.realm, textOf(role['containerId']))}/${name}` : name;
  }

  user = (id: string): Promise<string> => this.#name(`${realmPath(this.realm)}/users/${encodeURIComponent(id)}`, 'username', `user ${id} in realm ${this.realm}`);
  group = (id: string): Promise<string> => this.#name(groupItemPath(this.realm, id), 'path', `group ${id} in realm ${this.realm}`);
  client = (id: string): Promise<string> => this.#clientIds.of(this.reads, this.realm, id);

  async names(path: string, what: string): Promise<string[]> {
    const items = (await this.reads.list<Named>({ path, operation: 'list_policy_parts', description: `list ${what}` })) ?? [];
    return items.map((item) => item.name ?? '');
  }
}

async function partsOf(reader: PartReader, policiesPath: string, policy: AuthorizationPolicyRepresentation): Promise<PolicyParts> {
  const config = policy.config ?? {};
  const what = `the ${policy.type} policy ${policy.name}`;
  if (PERMISSION_KINDS.has(policy.type)) {
    const at = itemPath(policiesPath, policy.id);
    const [policies, resources, scopes] = await Promise.all([
      reader.names(`${at}/associatedPolicies`, `the policies of ${what}`),
      reader.names(`${at}/resources`, `the resources of ${what}`),
      reader.names(`${at}/scopes`, `the scopes of ${what}`),
    ]);
    return { policies, resources, scopes, resourceType: config['defaultResourceType'] ?? '' };
  }
  switch (policy.type) {
    case 'role':
      return {
        roles: await Promise.all(jsonList(config['roles']).map(async (item) => ({ name: await reader.role(textOf(entry(item)['id'])), required: entry(item)['required'] === true }))),
        fetchRoles: config['fetchRoles'] === 'true',
      };
    case 'user':
      return { users: await Promise.all(jsonList(config['users']).map((id) => reader.user(textOf(id)))) };
    case 'group':
      return {
        groups: await Promise.all(jsonList(config['groups']).map(async (item) => ({ path: await reader.group(textOf(entry(item)['id'])), extendChildren: entry(item)['extendChildren'] === true }))),
        groupsClaim: config['groupsClaim'] ?? '',
      };
    case 'client':
      return { clients: await Promise.all(jsonList(config['clients']).map((id) => reader.client(textOf(id)))) };
    case 'time':
      // Keycloak keeps the dates as nbf and noa.
      return Object.fromEntries(Object.entries(config).map(([key, value]) => [TIME_KEYS[key] ?? key, value]));
    case 'js':
      return { code: config['code'] ?? '' };
    case 'regex':
      return { ...config, targetContextAttributes: config['targetContextAttributes'] === 'true' };
    case 'aggregate':
      return { policies: await reader.names(`${itemPath(policiesPath, policy.id)}/associatedPolicies`, `the policies of ${what}`) };
    default:
      return {};
  }
}

/** The client's policies and permissions (one request), with the parts of those named in `detailed`. */
export async function observePolicies(reads: AdminReads, realm: string, uuid: string, clientId: string, detailed: readonly string[]): Promise<ObservedPolicy[]> {
  const path = authorizationPoliciesPath(realm, uuid);
  const listed = (await reads.list<AuthorizationPolicyRepresentation>({
    path,
    operation: 'list_authorization_policies',
    description: `list the authorization policies of client ${clientId} in realm ${realm}`,
    fields: ['id', 'name', 'type'],
  })) ?? [];
  const reader = new PartReader(reads, realm);
  const wanted = new Set(detailed);
  return Promise.all(listed.map(async (policy) => (wanted.has(policy.name) ? { ...policy, parts: await partsOf(reader, path, policy) } : policy)));
}
